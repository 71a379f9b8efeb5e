// The trace header's error controls: previous / next failed call (also E / e), and a
// filter to the failed calls and their ancestors (?errors=1).
import styles from './TracePage.module.css';

export function ErrorNav({
  errorsOnly,
  onJump,
  onToggle,
}: {
  errorsOnly: boolean;
  onJump: (dir: 1 | -1) => void;
  onToggle: () => void;
}) {
  return (
    <span className={styles.errorNav}>
      <button
        type="button"
        onClick={() => onJump(-1)}
        title="Previous error (E)"
        aria-label="Previous error"
        data-testid="error-prev"
      >
        ↑
      </button>
      <button
        type="button"
        onClick={() => onJump(1)}
        title="Next error (e)"
        aria-label="Next error"
        data-testid="error-next"
      >
        ↓
      </button>
      <button type="button" aria-pressed={errorsOnly} onClick={onToggle} data-testid="errors-only">
        Errors only
      </button>
    </span>
  );
}
