// Values as text: short previews for table cells (bounded work, never a whole payload) and
// a canonical JSON form (sorted keys) for diffs.
import { mediaOf } from '../render/media';

export const PREVIEW_CHARS = 120;

/** At most `max` characters describing `v`; the walk stops as soon as that much is written. */
export function preview(v: unknown, max = PREVIEW_CHARS): string {
  if (typeof v === 'string') {
    const media = v.length >= 64 ? mediaOf(v) : null;
    if (media) return `[${media.kind}]`;
    return clip(v.slice(0, max * 2).replace(/\s+/g, ' '), max);
  }
  const out: string[] = [];
  let len = 0;
  const push = (s: string) => {
    out.push(s);
    len += s.length;
    return len < max;
  };
  const walk = (x: unknown): boolean => {
    if (Array.isArray(x)) {
      if (!push('[')) return false;
      for (let i = 0; i < x.length; i++) if ((i > 0 && !push(', ')) || !walk(x[i])) return false;
      return push(']');
    }
    if (typeof x === 'object' && x !== null) {
      if (!push('{')) return false;
      let first = true;
      for (const k in x) {
        if (!first && !push(', ')) return false;
        first = false;
        if (!push(`${k}: `) || !walk((x as Record<string, unknown>)[k])) return false;
      }
      return push('}');
    }
    if (typeof x === 'string') return push(JSON.stringify(x.length > max ? x.slice(0, max) : x));
    return push(x === undefined ? 'undefined' : JSON.stringify(x));
  };
  walk(v);
  return clip(out.join(''), max);
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** JSON with object keys sorted at every depth, two-space indent: equal values, equal text. */
export function stableStringify(v: unknown): string {
  return JSON.stringify(sortKeys(v), null, 2) ?? 'undefined';
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}
