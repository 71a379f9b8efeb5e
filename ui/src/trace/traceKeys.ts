// Keyboard moves in the trace tree: the next selection (or a toggle) for a key, or null.
import type { FlatTree, TraceIndex } from './traceIndex';

export type TreeMove = { select: string } | { toggle: string } | null;

export function treeMove(key: string, index: TraceIndex, flat: FlatTree, selected: string, open: boolean): TreeMove {
  const i = flat.indexOf.get(selected) ?? -1;
  const kids = index.childrenOf(selected);
  const parent = index.parentOf(selected);
  const siblings = parent === null ? index.roots() : index.childrenOf(parent);
  const s = siblings.indexOf(selected);
  switch (key) {
    case 'j':
    case 'ArrowDown':
      return i >= 0 && i + 1 < flat.ids.length ? { select: flat.ids[i + 1]! } : null;
    case 'k':
    case 'ArrowUp':
      return i > 0 ? { select: flat.ids[i - 1]! } : null;
    case 'l':
    case 'ArrowRight':
      if (kids.length === 0) return null;
      return open ? { select: kids[0]! } : { toggle: selected };
    case 'h':
    case 'ArrowLeft':
      if (kids.length > 0 && open) return { toggle: selected };
      return parent === null ? null : { select: parent };
    case 'p':
      return parent === null ? null : { select: parent };
    case '[':
      return s > 0 ? { select: siblings[s - 1]! } : null;
    case ']':
      return s >= 0 && s + 1 < siblings.length ? { select: siblings[s + 1]! } : null;
    default:
      return null;
  }
}
