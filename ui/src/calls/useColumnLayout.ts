// The calls table's column layout, remembered per project in this browser (localStorage):
// hidden columns, pinned ones (kept at the left while the table scrolls sideways) and widths.
import { useCallback, useState } from 'react';

export interface ColumnLayout {
  hidden: string[];
  pinned: string[];
  /** Widths in px by column id; absent: the column's default. */
  sizes: Record<string, number>;
}

const EMPTY: ColumnLayout = { hidden: [], pinned: [], sizes: {} };
const key = (projectId: string) => `weft.calls.columns.${projectId}`;

const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function read(projectId: string): ColumnLayout {
  try {
    const raw = JSON.parse(localStorage.getItem(key(projectId)) ?? 'null') as Partial<ColumnLayout> | null;
    if (raw === null || typeof raw !== 'object') return EMPTY;
    const sizes: Record<string, number> = {};
    for (const [k, v] of Object.entries(raw.sizes ?? {}))
      if (typeof v === 'number' && Number.isFinite(v) && v >= 20 && v <= 2000) sizes[k] = v;
    return { hidden: strings(raw.hidden), pinned: strings(raw.pinned), sizes };
  } catch {
    return EMPTY; // unreadable: the default layout
  }
}

export function useColumnLayout(projectId: string): [ColumnLayout, (next: ColumnLayout) => void] {
  const [state, setState] = useState(() => ({ projectId, layout: read(projectId) }));
  const layout = state.projectId === projectId ? state.layout : read(projectId);
  const set = useCallback(
    (next: ColumnLayout) => {
      localStorage.setItem(key(projectId), JSON.stringify(next));
      setState({ projectId, layout: next });
    },
    [projectId],
  );
  return [layout, set];
}

/** The layout with a column shown or hidden. */
export const toggleHidden = (l: ColumnLayout, id: string): ColumnLayout => ({
  ...l,
  hidden: l.hidden.includes(id) ? l.hidden.filter((x) => x !== id) : [...l.hidden, id],
});

/** The layout with a column pinned or unpinned (pins keep their order). */
export const togglePinned = (l: ColumnLayout, id: string): ColumnLayout => ({
  ...l,
  pinned: l.pinned.includes(id) ? l.pinned.filter((x) => x !== id) : [...l.pinned, id],
});
