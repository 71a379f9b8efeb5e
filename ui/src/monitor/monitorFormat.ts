// How the monitor's numbers read: compact on axes, exact in the totals and the table.
import { formatDuration } from '../format';

/** 1,234 -> 1.2k, 3,400,000 -> 3.4M (axes and legends). */
export function compact(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${+(n / 1e9).toFixed(1)}B`;
  if (abs >= 1e6) return `${+(n / 1e6).toFixed(1)}M`;
  if (abs >= 1e4) return `${+(n / 1e3).toFixed(1)}k`;
  return `${+n.toFixed(2)}`;
}

/** US dollars at a precision that keeps small sums readable: $0.00042, $1.23, $1,234. */
export function usd(n: number): string {
  if (n === 0) return '$0';
  if (Math.abs(n) < 0.01) return `$${n.toPrecision(2)}`;
  if (Math.abs(n) < 100) return `$${n.toFixed(2)}`;
  return `$${Math.round(n).toLocaleString('en-US')}`;
}

/** Latency on an axis: 0, 250 ms, 1.5 s, 2 min. */
export function msAxis(v: number): string {
  if (v === 0) return '0';
  if (v < 1000) return `${+v.toFixed(1)} ms`;
  if (v < 60_000) return `${+(v / 1000).toFixed(2)} s`;
  return `${+(v / 60_000).toFixed(1)} min`;
}

/** Dollars on an axis: $0, $0.002, $1.5, $1,200. */
export function usdAxis(n: number): string {
  if (n === 0) return '$0';
  if (Math.abs(n) < 1) return `$${+n.toPrecision(2)}`;
  return `$${(+n.toFixed(2)).toLocaleString('en-US')}`;
}

export const ms = (v: number | null): string => (v === null ? '—' : formatDuration(v) || '0 ms');

export const percent = (v: number | null): string => (v === null ? '—' : `${+v.toFixed(v < 10 ? 1 : 0)}%`);

/** 60 -> "1 min", 21600 -> "6 h", 86400 -> "1 d". */
export function bucketLabel(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} d`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** A window's bounds as local date-times, the day omitted from the end when it is the same. */
export function windowLabel(fromIso: string, toIso: string): string {
  const from = new Date(fromIso);
  const to = new Date(toIso);
  const day = (d: Date) =>
    d.toLocaleDateString('en-US', {
      month: 'short',
      day: 'numeric',
      year: d.getFullYear() === new Date().getFullYear() ? undefined : 'numeric',
    });
  const time = (d: Date) =>
    d.toLocaleTimeString('en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      second: d.getSeconds() ? '2-digit' : undefined,
    });
  const sameDay = from.toDateString() === to.toDateString();
  return `${day(from)} ${time(from)} – ${sameDay ? '' : `${day(to)} `}${time(to)}`;
}
