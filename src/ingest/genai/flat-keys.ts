// Flattened attribute trees (OpenInference's llm.input_messages.0.message.role): the keys under
// a prefix, nested back at their dots, an object whose keys are all 0..n-1 becoming a list.
import type { Attributes } from '../otlp/otlp-spans.js';

type Tree = Record<string, unknown>;
const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null && !Array.isArray(v);

function toLists(v: unknown): unknown {
  if (!isTree(v)) return v;
  const keys = Object.keys(v);
  for (const k of keys) v[k] = toLists(v[k]);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((x, y) => Number(x) - Number(y)).map((k) => v[k]);
  }
  return v;
}

/** The attributes under `prefix.` as one nested value; undefined when there are none. */
export function nestedAt(attrs: Attributes, prefix: string): unknown {
  const root: Tree = {};
  let found = false;
  for (const [key, value] of Object.entries(attrs)) {
    if (!key.startsWith(`${prefix}.`)) continue;
    const path = key.slice(prefix.length + 1).split('.');
    let node = root;
    for (const seg of path.slice(0, -1)) {
      const next = node[seg];
      node = isTree(next) ? next : (node[seg] = {});
    }
    node[path[path.length - 1]!] = value;
    found = true;
  }
  return found ? toLists(root) : undefined;
}
