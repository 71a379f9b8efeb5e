// Each metric of each run, with its change against the baseline run (as a difference, a
// percentage or a ratio), coloured by whether it is better: each metric's direction (higher
// or lower is better) shows beside it and can be flipped (kept in the URL).
import { beats, type Direction, type EvalRun } from './evalData';
import styles from './Evaluations.module.css';

export type DeltaMode = 'diff' | 'pct' | 'ratio';

const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(3));

export function delta(mode: DeltaMode, value: number, base: number): string {
  if (mode === 'pct')
    return base === 0 ? '' : `${value >= base ? '+' : ''}${(((value - base) / Math.abs(base)) * 100).toFixed(1)}%`;
  if (mode === 'ratio') return base === 0 ? '' : `${(value / base).toFixed(2)}x`;
  const d = value - base;
  return `${d >= 0 ? '+' : ''}${fmt(d)}`;
}

export function Scorecard({
  runs,
  baseline,
  mode,
  direction,
  onFlip,
}: {
  runs: readonly EvalRun[];
  baseline: EvalRun;
  mode: DeltaMode;
  direction: Direction;
  onFlip: (metric: string) => void;
}) {
  const metrics = [...new Set(runs.flatMap((r) => [...r.metrics.keys()]))];
  return (
    <table className={styles.table} data-testid="scorecard">
      <thead>
        <tr>
          <th>Metric</th>
          {runs.map((r) => (
            <th
              key={r.call.id}
              className={`${styles.num} ${r === baseline ? styles.baseline : ''}`}
              data-run={r.call.id}
            >
              {r.model || r.name}
              {r === baseline ? ' (baseline)' : ''}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {metrics.map((m) => {
          const base = baseline.metrics.get(m);
          return (
            <tr key={m} data-metric={m}>
              <td>
                <code>{m}</code>{' '}
                <button
                  type="button"
                  className={styles.direction}
                  onClick={() => onFlip(m)}
                  title={`${direction(m) === 'lower' ? 'Lower' : 'Higher'} is better: click to flip`}
                  data-testid="metric-direction"
                  data-direction={direction(m)}
                >
                  {direction(m) === 'lower' ? '↓ lower is better' : '↑ higher is better'}
                </button>
              </td>
              {runs.map((r) => {
                const v = r.metrics.get(m);
                const changed = r !== baseline && v !== undefined && base !== undefined && v !== base;
                const better = changed && beats(direction(m), v!, base!);
                return (
                  <td
                    key={r.call.id}
                    className={`${styles.num} ${r === baseline ? styles.baseline : ''}`}
                    data-run={r.call.id}
                  >
                    <span data-value>{v === undefined ? '–' : fmt(v)}</span>
                    {changed && (
                      <span className={better ? styles.better : styles.worse} data-delta data-better={better}>
                        {' '}
                        {delta(mode, v!, base!)}
                      </span>
                    )}
                  </td>
                );
              })}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
