// Shared by the engines' feedback stores: a query row's selected values, read from the
// columns aliased s0, s1, ... in selection order, decoded as FeedbackRow holds them (JSON
// paths stay JSON_VALUE text).
import type { FeedbackSelection } from './feedback-store.js';

export function selectedValues(
  select: readonly FeedbackSelection[],
  row: Record<string, unknown>,
  decode: (column: string, value: unknown) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  select.forEach((s, i) => {
    const v = row[`s${i}`];
    out[s.key] = s.field.kind === 'column' ? decode(s.field.name, v) : v;
  });
  return out;
}
