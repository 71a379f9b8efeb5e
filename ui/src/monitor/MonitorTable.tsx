// The numbers behind the charts as a real table (collapsed under the charts): readable by
// screen readers and by tests (every row carries its exact values in data-* attributes).
import type { UiTimeseriesRes } from '../api/types';
import { formatCount, formatTime } from '../format';
import { ms, usd } from './monitorFormat';
import styles from './Monitor.module.css';

export function MonitorTable({ data }: { data: UiTimeseriesRes }) {
  return (
    <details className={styles.tableBox}>
      <summary>Data table ({formatCount(data.buckets.length)} buckets)</summary>
      <table className={styles.table} data-testid="monitor-data">
        <thead>
          <tr>
            <th scope="col">Bucket start</th>
            <th scope="col">Calls</th>
            <th scope="col">Errors</th>
            <th scope="col">p50</th>
            <th scope="col">p95</th>
            <th scope="col">Tokens</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {data.buckets.map((b) => (
            <tr
              key={b.start}
              data-start={b.start}
              data-calls={b.calls}
              data-errors={b.errors}
              data-tokens={b.tokens}
              data-cost={b.cost_usd}
              data-p50={b.latency_p50_ms ?? ''}
              data-p95={b.latency_p95_ms ?? ''}
            >
              <th scope="row">{formatTime(b.start)}</th>
              <td>{formatCount(b.calls)}</td>
              <td>{formatCount(b.errors)}</td>
              <td>{ms(b.latency_p50_ms)}</td>
              <td>{ms(b.latency_p95_ms)}</td>
              <td>{formatCount(b.tokens)}</td>
              <td>{usd(b.cost_usd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
