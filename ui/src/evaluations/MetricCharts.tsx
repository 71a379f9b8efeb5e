// One small bar chart per metric: a bar per run, scaled to the metric's largest value (from
// zero), the baseline marked, the better direction in the title.
import { formatCount, readableNumber } from '../format';
import type { Direction, EvalRun } from './evalData';
import styles from './Evaluations.module.css';

export function MetricCharts({
  runs,
  baseline,
  direction,
}: {
  runs: readonly EvalRun[];
  baseline: EvalRun;
  direction: Direction;
}) {
  const metrics = [...new Set(runs.flatMap((r) => [...r.metrics.keys()]))];
  return (
    <div className={styles.charts} data-testid="metric-charts">
      {metrics.map((m) => {
        const values = runs.map((r) => r.metrics.get(m));
        const max = Math.max(...values.map((v) => Math.abs(v ?? 0)), Number.MIN_VALUE);
        return (
          <figure key={m} className={styles.chart} data-testid="metric-chart" data-metric={m}>
            <figcaption>
              <code>{m}</code>{' '}
              <span className={styles.muted}>{direction(m) === 'lower' ? '↓ lower' : '↑ higher'} is better</span>
            </figcaption>
            {runs.map((r, i) => {
              const v = values[i];
              return (
                <div key={r.call.id} className={styles.chartRow} data-run={r.call.id} data-value={v}>
                  <span className={styles.chartName} title={r.model || r.name}>
                    {r.model || r.name}
                    {r === baseline ? ' (baseline)' : ''}
                  </span>
                  <span className={styles.chartTrack}>
                    <span
                      className={`${styles.chartBar} ${r === baseline ? styles.chartBase : ''}`}
                      style={{ width: `${v === undefined ? 0 : (Math.abs(v) / max) * 100}%` }}
                    />
                  </span>
                  <span className={styles.chartValue}>
                    {v === undefined ? '–' : Number.isInteger(v) ? formatCount(v) : readableNumber(v)}
                  </span>
                </div>
              );
            })}
          </figure>
        );
      })}
    </div>
  );
}
