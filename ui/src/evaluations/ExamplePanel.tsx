// One example of a comparison, beside the table (?example=): the dataset row whole, then each
// run's output and scores in full, each linked to its prediction's trace.
import { Link } from '@tanstack/react-router';
import { ValueView } from '../render/ValueView';
import type { Direction } from './evalData';
import { ScoreChips, type ExampleRowData } from './ExampleTable';
import styles from './Evaluations.module.css';

export function ExamplePanel({
  row,
  runNames,
  baselineIndex,
  direction,
  entity,
  project,
  onClose,
}: {
  row: ExampleRowData;
  runNames: readonly string[];
  baselineIndex: number;
  direction: Direction;
  entity: string;
  project: string;
  onClose: () => void;
}) {
  const base = row.results[baselineIndex];
  return (
    <aside className={styles.panel} data-testid="example-panel" aria-label="Example">
      <div className={styles.panelHead}>
        <h2>Example</h2>
        <button type="button" onClick={onClose} aria-label="Close the example" data-testid="example-close">
          ×
        </button>
      </div>
      <ValueView value={row.example} />
      {row.results.map((r, i) => (
        <section key={i} data-testid="example-run" data-run={i}>
          <h3>
            {runNames[i]}
            {i === baselineIndex ? ' (baseline)' : ''}
          </h3>
          {r === undefined ? (
            <span className={styles.muted}>No result for this example</span>
          ) : (
            <>
              <div data-testid="example-scores">
                <ScoreChips result={r} base={base} isBaseline={i === baselineIndex} direction={direction} />
              </div>
              <ValueView value={r.output ?? null} />
              <Link to="/$entity/$project/calls/$callId" params={{ entity, project, callId: r.call.id }}>
                trace →
              </Link>
            </>
          )}
        </section>
      ))}
    </aside>
  );
}
