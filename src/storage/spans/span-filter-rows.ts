// The rows the engines' distribution and histogram statements return, read back into
// storage/spans/span-filters.ts results: both engines name their columns alike (numeric: g, lo, hi,
// n, i, c; categorical: g, x, c, p; histogram: b, o<i>), numbers arriving as numbers or text.
import type { SpanDistributionsResult, SpanHistogramResult } from './span-filters.js';

type Row = Record<string, unknown>;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const group = (v: unknown) => (v === null || v === undefined ? null : (v as string | number));

export function numericRows(alias: string, rows: readonly Row[]): SpanDistributionsResult['numeric'] {
  return rows.map((r) => ({
    group: group(r.g),
    alias,
    lo: Number(r.lo),
    hi: Number(r.hi),
    present: Number(r.n),
    bin: Number(r.i),
    count: Number(r.c),
  }));
}

export function categoricalRows(alias: string, rows: readonly Row[]): SpanDistributionsResult['categorical'] {
  return rows.map((r) => ({ group: group(r.g), alias, value: String(r.x), count: Number(r.c), present: Number(r.p) }));
}

/** A histogram's bins, each output `o<i>` under `names[i]`. */
export function histogramCells(names: readonly string[], rows: readonly Row[]): SpanHistogramResult['cells'] {
  return rows.map((r) => ({
    bin: Number(r.b),
    values: Object.fromEntries(names.map((name, i) => [name, num(r[`o${i}`])])),
  }));
}
