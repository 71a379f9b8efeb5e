// A tiny trend without axes, as wide as its box: a line over the buckets (gaps where a bucket
// has no value; a lone value a short dash) or bars. The y scale is [0, max] (ratings: [0, 1]);
// colours follow the theme through currentColor.
import type { ReactNode } from 'react';
import styles from './Signals.module.css';

const W = 200;
const H = 30;

export function Sparkline({
  values,
  kind,
  max,
  label,
}: {
  values: (number | null)[];
  kind: 'line' | 'bars';
  /** The top of the scale (default: the largest value). */
  max?: number;
  label: string;
}) {
  const top = max ?? Math.max(1, ...values.map((v) => v ?? 0));
  const n = Math.max(values.length, 1);
  const step = W / n;
  const x = (i: number) => (i + 0.5) * step;
  const y = (v: number) => H - 2 - (Math.min(v, top) / top) * (H - 4);
  const base = (
    <line x1={0} x2={W} y1={H - 1} y2={H - 1} className={styles.sparkBase} vectorEffect="non-scaling-stroke" />
  );
  const svg = (children: ReactNode) => (
    <svg
      className={styles.sparkline}
      viewBox={`0 0 ${W} ${H}`}
      preserveAspectRatio="none"
      height={H}
      role="img"
      aria-label={label}
    >
      {base}
      {children}
    </svg>
  );
  if (kind === 'bars')
    return svg(
      values.map((v, i) =>
        v === null || v === 0 ? null : (
          <rect
            key={`${i * step}`}
            x={i * step + step * 0.1}
            y={y(v)}
            width={step * 0.8}
            height={H - 2 - y(v)}
            fill="currentColor"
          />
        ),
      ),
    );
  // One path per run of buckets with a value.
  const runs: [number, number][][] = [];
  values.forEach((v, i) => {
    if (v === null) return;
    const point: [number, number] = [x(i), y(v)];
    if (i > 0 && values[i - 1] !== null) runs.at(-1)!.push(point);
    else runs.push([point]);
  });
  return svg(
    runs.map((r) => {
      const points =
        r.length === 1
          ? [
              [r[0]![0] - step * 0.4, r[0]![1]],
              [r[0]![0] + step * 0.4, r[0]![1]],
            ]
          : r;
      return (
        <polyline
          key={`${r[0]![0]}`}
          points={points.map(([a, b]) => `${a},${b}`).join(' ')}
          fill="none"
          stroke="currentColor"
          strokeWidth={r.length === 1 ? 3 : 1.75}
          strokeLinecap="round"
          vectorEffect="non-scaling-stroke"
        />
      );
    }),
  );
}
