// The keyboard shortcuts, listed under `?`.
import styles from './Shell.module.css';

const SHORTCUTS: readonly [string, string][] = [
  ['?', 'Show this list'],
  ['g p', 'Go to projects'],
  [
    'g c / g t / g a / g e / g o / g m / g y',
    'Go to the calls, threads, agents, evaluations, objects, monitor or playground of this project',
  ],
  ['/', 'Focus the filter'],
  ['j / ↓', 'Next call (or dataset row)'],
  ['k / ↑', 'Previous call (or dataset row)'],
  ['l / →', 'Expand (trace)'],
  ['h / ←', 'Collapse, or go to the parent (trace)'],
  ['[ / ]', 'Previous / next sibling (trace)'],
  ['p', 'Parent (trace)'],
  ['n / N', 'Next / previous match of the op search (trace)'],
  ['e / E', 'Next / previous failed call (trace)'],
  ['Enter', 'Open the selected call in its trace (calls)'],
  ['Space', 'Peek at the selected call beside the table (calls)'],
  ['Esc', 'Close a dialog'],
];

export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <div className={styles.overlay} onClick={onClose}>
      <div
        className={styles.dialog}
        role="dialog"
        aria-label="Keyboard shortcuts"
        data-testid="shortcuts"
        onClick={(e) => e.stopPropagation()}
      >
        <h2>Keyboard shortcuts</h2>
        <table className={styles.shortcuts}>
          <tbody>
            {SHORTCUTS.map(([k, what]) => (
              <tr key={k}>
                <td>
                  <kbd>{k}</kbd>
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className={styles.dialogButtons}>
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
