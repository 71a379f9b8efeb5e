// The monitor's charts, one small chart per measure, from the server's buckets: calls and
// errors, error rate, latency p50 / p95, tokens, cost.
import { useMemo } from 'react';
import type { UiTimeseriesRes } from '../api/types';
import { compact, ms, msAxis, percent, usd, usdAxis } from './monitorFormat';
import { TimeChart, type ChartSeries } from './TimeChart';
import styles from './Monitor.module.css';

interface ChartSpec {
  testId: string;
  title: string;
  series: ChartSeries[];
  format: (v: number) => string;
  axisFormat?: (v: number) => string;
}

function specs(data: UiTimeseriesRes): ChartSpec[] {
  const b = data.buckets;
  return [
    {
      testId: 'chart-calls',
      title: 'Calls and errors',
      format: compact,
      series: [
        { label: 'Calls', color: 'accent', kind: 'bars', values: b.map((x) => x.calls) },
        { label: 'Errors', color: 'error', kind: 'bars', values: b.map((x) => x.errors) },
      ],
    },
    {
      testId: 'chart-error-rate',
      title: 'Error rate',
      format: (v) => percent(v),
      series: [
        {
          label: 'Errors',
          color: 'error',
          kind: 'line',
          values: b.map((x) => (x.calls > 0 ? (100 * x.errors) / x.calls : null)),
        },
      ],
    },
    {
      testId: 'chart-latency',
      title: 'Latency',
      format: (v) => ms(v),
      axisFormat: msAxis,
      series: [
        { label: 'p50', color: 'accent', kind: 'line', values: b.map((x) => x.latency_p50_ms) },
        { label: 'p95', color: 'running', kind: 'line', values: b.map((x) => x.latency_p95_ms) },
      ],
    },
    {
      testId: 'chart-tokens',
      title: 'Tokens',
      format: compact,
      series: [{ label: 'Tokens', color: 'bar', kind: 'bars', values: b.map((x) => x.tokens) }],
    },
    {
      testId: 'chart-cost',
      title: 'Cost',
      format: usd,
      axisFormat: usdAxis,
      series: [{ label: 'Cost', color: 'ok', kind: 'bars', values: b.map((x) => x.cost_usd) }],
    },
  ];
}

export function MonitorCharts({
  data,
  onBrush,
}: {
  data: UiTimeseriesRes;
  onBrush: (from: number, to: number) => void;
}) {
  const x = useMemo(() => data.buckets.map((b) => Date.parse(b.start) / 1000), [data]);
  const charts = useMemo(() => specs(data), [data]);
  const range = useMemo((): [number, number] => [Date.parse(data.from!) / 1000, Date.parse(data.to!) / 1000], [data]);
  return (
    <div className={styles.grid}>
      {charts.map((c, i) => (
        <div key={c.testId} className={i === 0 ? styles.wide : undefined}>
          <TimeChart {...c} x={x} range={range} height={i === 0 ? 180 : 150} onBrush={onBrush} />
        </div>
      ))}
    </div>
  );
}
