// A JSON value laid out as the lines of an expandable tree, for a virtual list: only open
// nodes are descended and each lists its children a page at a time, so laying out costs
// what can be shown, never the size of the value.
import { chatMessages } from './chatMessages';

export const PAGE = 100;

export type JsonLine =
  | { kind: 'leaf'; path: string; depth: number; name: string | null; value: unknown }
  | {
      kind: 'node';
      path: string;
      depth: number;
      name: string | null;
      value: object;
      open: boolean;
      count: number;
      array: boolean;
    }
  | { kind: 'chat'; path: string; depth: number; name: string | null; messages: Record<string, unknown>[] }
  | { kind: 'more'; path: string; depth: number; shown: number; left: number }
  | { kind: 'close'; path: string; depth: number; array: boolean };

export interface JsonView {
  /** Depth below which nodes start open. */
  openDepth: number;
  /** Paths whose open state is the opposite of the default. */
  flipped: ReadonlySet<string>;
  /** Children shown per path, beyond the first PAGE. */
  shown: ReadonlyMap<string, number>;
}

const child = (path: string, key: string) => `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

export function isOpen(view: JsonView, path: string, depth: number): boolean {
  return depth < view.openDepth !== view.flipped.has(path);
}

/** The visible lines. A top-level object lists its keys without an enclosing brace. */
export function jsonLines(value: unknown, view: JsonView): JsonLine[] {
  const out: JsonLine[] = [];
  const walk = (name: string | null, v: unknown, path: string, depth: number) => {
    if (typeof v !== 'object' || v === null) {
      out.push({ kind: 'leaf', path, depth, name, value: v });
      return;
    }
    const open = isOpen(view, path, depth);
    const chat = open ? chatMessages(v) : null;
    if (chat) {
      out.push({ kind: 'chat', path, depth, name, messages: chat });
      return;
    }
    const array = Array.isArray(v);
    const keys = array ? null : Object.keys(v);
    const count = array ? v.length : keys!.length;
    out.push({ kind: 'node', path, depth, name, value: v, open, count, array });
    if (!open || count === 0) return;
    const limit = Math.min(count, view.shown.get(path) ?? PAGE);
    for (let i = 0; i < limit; i++) {
      const k = array ? String(i) : keys![i]!;
      walk(k, array ? (v as unknown[])[i] : (v as Record<string, unknown>)[k], child(path, k), depth + 1);
    }
    if (count > limit) out.push({ kind: 'more', path, depth: depth + 1, shown: limit, left: count - limit });
    out.push({ kind: 'close', path, depth, array });
  };
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0) {
    const keys = Object.keys(value);
    const limit = Math.min(keys.length, view.shown.get('') ?? PAGE);
    for (let i = 0; i < limit; i++)
      walk(keys[i]!, (value as Record<string, unknown>)[keys[i]!], child('', keys[i]!), 0);
    if (keys.length > limit) out.push({ kind: 'more', path: '', depth: 0, shown: limit, left: keys.length - limit });
  } else walk(null, value, '', 0);
  return out;
}
