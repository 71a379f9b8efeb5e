// Order statistics and number formatting for the result table.

export function median(xs: readonly number[]): number {
  return percentile(xs, 50);
}

/** Linear interpolation between closest ranks (p in [0, 100]); NaN for no samples. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = ((s.length - 1) * p) / 100;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

export const fmtMs = (ms: number) =>
  ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`;
export const fmtRate = (perSec: number, unit: string) => `${Math.round(perSec).toLocaleString('en-US')} ${unit}/s`;
export const fmtMB = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;
export const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');
export const fmtRatio = (r: number) => (Number.isFinite(r) ? `${r >= 10 ? r.toFixed(1) : r.toFixed(2)}x` : 'n/a');

/** Runs `fn` `runs` times (after `warmup` unmeasured runs) and returns each run's result. */
export async function repeat<T>(runs: number, fn: (i: number) => Promise<T>, warmup = 0): Promise<T[]> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const out: T[] = [];
  for (let i = 0; i < runs; i++) out.push(await fn(i));
  return out;
}
