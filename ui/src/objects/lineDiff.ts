// Two texts as side-by-side rows: unchanged lines face each other; a run of removed lines
// followed by added ones pairs up as changed lines (the rest stay removed or added).
import { diffLines, diffWordsWithSpace } from 'diff';

export type Change = 'same' | 'changed' | 'removed' | 'added';

export interface Side {
  /** 1-based line number in its text. */
  n: number;
  text: string;
}

export interface DiffRow {
  change: Change;
  left?: Side;
  right?: Side;
}

/** A stretch of unchanged rows folded away, or a row. */
export type Shown = { fold: number; at: number } | { row: DiffRow; at: number };

const splitLines = (value: string): string[] => {
  const lines = value.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
};

export function sideBySide(a: string, b: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let l = 1;
  let r = 1;
  const parts = diffLines(a, b);
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (!p.added && !p.removed) {
      for (const text of splitLines(p.value))
        rows.push({ change: 'same', left: { n: l++, text }, right: { n: r++, text } });
      continue;
    }
    const removed = p.removed ? splitLines(p.value) : [];
    const next = parts[i + 1];
    const added = p.added ? splitLines(p.value) : next?.added ? splitLines(next.value) : [];
    if (p.removed && next?.added) i++;
    for (let k = 0; k < Math.max(removed.length, added.length); k++) {
      const left = k < removed.length ? { n: l++, text: removed[k]! } : undefined;
      const right = k < added.length ? { n: r++, text: added[k]! } : undefined;
      rows.push({ change: left && right ? 'changed' : left ? 'removed' : 'added', left, right });
    }
  }
  return rows;
}

export interface DiffCounts {
  changed: number;
  removed: number;
  added: number;
  same: number;
}

export function countChanges(rows: readonly DiffRow[]): DiffCounts {
  const c: DiffCounts = { changed: 0, removed: 0, added: 0, same: 0 };
  for (const r of rows) c[r.change]++;
  return c;
}

/** The rows to draw: every row, or (diffOnly) the changed ones with folds for the rest. */
export function visibleRows(rows: readonly DiffRow[], diffOnly: boolean): Shown[] {
  if (!diffOnly) return rows.map((row, at) => ({ row, at }));
  const out: Shown[] = [];
  let run = 0;
  rows.forEach((row, at) => {
    if (row.change === 'same') {
      run++;
      return;
    }
    if (run > 0) out.push({ fold: run, at: at - run });
    run = 0;
    out.push({ row, at });
  });
  if (run > 0) out.push({ fold: run, at: rows.length - run });
  return out;
}

/** The words that differ inside a changed pair: [text, differs] runs for each side. */
export function inlineDiff(left: string, right: string): { left: [string, boolean][]; right: [string, boolean][] } {
  const out = { left: [] as [string, boolean][], right: [] as [string, boolean][] };
  for (const p of diffWordsWithSpace(left, right)) {
    if (!p.added) out.left.push([p.value, Boolean(p.removed)]);
    if (!p.removed) out.right.push([p.value, Boolean(p.added)]);
  }
  return out;
}
