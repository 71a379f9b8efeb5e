// One small uPlot chart over the window's buckets: bars (sums per bucket) or lines (rates,
// percentiles). Dragging across it selects a time range (onBrush); the cursor is shared by
// every chart of the page (uPlot sync), so one bucket reads across all of them. Colours come
// from the theme (chartTheme.ts) and the chart is redrawn when the theme changes.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { readChartColors, useThemeVersion, withAlpha, type ChartColor } from './chartTheme';
import styles from './Monitor.module.css';

export interface ChartSeries {
  label: string;
  color: ChartColor;
  kind: 'bars' | 'line';
  values: (number | null)[];
}

export interface TimeChartProps {
  testId: string;
  title: string;
  /** Bucket starts, seconds since the epoch. */
  x: number[];
  /** The window, seconds since the epoch: the x axis spans it whatever the data. */
  range: [number, number];
  series: ChartSeries[];
  /** Values in the legend (the hovered bucket). */
  format: (v: number) => string;
  /** Values on the y axis (default: format). */
  axisFormat?: (v: number) => string;
  height: number;
  /** A range dragged across the chart, seconds since the epoch. */
  onBrush: (from: number, to: number) => void;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** x ticks in local 24-hour time (seconds when ticks are that close), the day under the first tick of each day. */
function timeTicks(_u: uPlot, splits: number[], _axis: number, _space: number, incr: number): string[] {
  let previousDay = '';
  return splits.map((s) => {
    const d = new Date(s * 1000);
    const day = d.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
    const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
    const time = incr < 60 ? `${hm}:${pad(d.getSeconds())}` : hm;
    const label = incr >= 86_400 ? day : day !== previousDay ? `${time}\n${day}` : time;
    previousDay = day;
    return label;
  });
}

/** Room for the longest y label (11px system font: ~7px a character) beside the ticks and gap. */
const ySize = (_u: uPlot, values: string[] | null) => 20 + 7 * Math.max(3, ...(values ?? []).map((v) => v.length));

/** The hovered bucket's start in the legend: local date and time. */
function bucketValue(_u: uPlot, v: number | null): string {
  if (v === null || v === undefined) return '—';
  const d = new Date(v * 1000);
  const day = d.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
  return `${day} ${pad(d.getHours())}:${pad(d.getMinutes())}${d.getSeconds() ? `:${pad(d.getSeconds())}` : ''}`;
}

/** Every chart of the monitor shares its cursor (not its drag: each brush is its own). */
const SYNC_KEY = 'weft-monitor';
const notDrag = (type: string) => type !== 'mousedown' && type !== 'mouseup';

function seriesOptions(
  s: ChartSeries,
  colors: ReturnType<typeof readChartColors>,
  format: (v: number) => string,
): uPlot.Series {
  const color = colors[s.color];
  const fmt = (_u: uPlot, v: number | null) => (v === null || v === undefined ? '—' : format(v));
  if (s.kind === 'bars') {
    return {
      label: s.label,
      stroke: color,
      fill: withAlpha(color, 0.85),
      width: 0,
      value: fmt,
      // Left-aligned: a bar covers its bucket [start, start + width), as the server counts.
      paths: uPlot.paths.bars!({ align: 1, size: [0.88, Infinity], gap: 1 }),
      points: { show: false },
    };
  }
  const shown = s.values.filter((v) => v !== null).length;
  return {
    label: s.label,
    stroke: color,
    width: 1.75,
    value: fmt,
    spanGaps: false,
    // Sparse series: points, so that a lone value between empty buckets stays visible.
    points: { show: shown <= 60, size: 4, fill: color },
  };
}

function options(p: TimeChartProps, width: number): uPlot.Options {
  const colors = readChartColors();
  const axis = {
    stroke: colors.muted,
    grid: { stroke: colors.grid, width: 1 },
    ticks: { stroke: colors.grid, width: 1 },
    font: '11px system-ui, sans-serif',
  };
  return {
    width,
    height: p.height,
    padding: [10, 18, 0, 0],
    cursor: {
      y: false,
      drag: { x: true, y: false, setScale: false },
      sync: { key: SYNC_KEY, filters: { pub: notDrag, sub: notDrag } },
      points: { size: 6 },
    },
    legend: { live: true },
    scales: { x: { time: true, range: () => p.range }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    axes: [
      { ...axis, space: 64, values: timeTicks },
      {
        ...axis,
        size: ySize,
        values: (_u, splits) => splits.map((v) => (v === null ? '' : (p.axisFormat ?? p.format)(v))),
      },
    ],
    series: [{ label: 'Bucket', value: bucketValue }, ...p.series.map((s) => seriesOptions(s, colors, p.format))],
    hooks: {
      setSelect: [
        (u) => {
          if (u.select.width >= 4) {
            const from = u.posToVal(u.select.left, 'x');
            const to = u.posToVal(u.select.left + u.select.width, 'x');
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            p.onBrush(from, to);
          }
        },
      ],
    },
  };
}

export function TimeChart(p: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const theme = useThemeVersion();
  // The latest callback, so that a new onBrush does not rebuild the chart.
  const onBrush = useRef(p.onBrush);
  onBrush.current = p.onBrush;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the chart is rebuilt when its data, its window or the theme change; the brush handler is read through a ref
  useEffect(() => {
    const el = box.current!;
    const data: uPlot.AlignedData = [p.x, ...p.series.map((s) => s.values)];
    const u = new uPlot(options({ ...p, onBrush: (a, b) => onBrush.current(a, b) }, el.clientWidth || 400), data, el);
    plot.current = u;
    const resize = new ResizeObserver(() => {
      if (el.clientWidth > 0 && el.clientWidth !== u.width) u.setSize({ width: el.clientWidth, height: p.height });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
    // The chart is rebuilt when its data, its window or the theme change.
  }, [p.x, p.series, p.range[0], p.range[1], p.height, theme]);

  return (
    <section className={styles.card} data-testid={p.testId} aria-label={p.title}>
      <h2 className={styles.cardTitle}>{p.title}</h2>
      <div ref={box} className={styles.chart} />
    </section>
  );
}
