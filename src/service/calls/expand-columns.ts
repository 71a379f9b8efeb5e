// expand_columns: at each dotted path (shallowest first), a ref string is replaced by
// the value it points to; a dict value also gets "_ref": <the ref>. Other values stay.
import type { StoredCall } from '../../storage/calls/call-store.js';
import { isRefString } from '../refs/extract-refs.js';
import { tryParseRef } from '../refs/refs.js';

/** Only refs into the call's own project are expanded: a project is an access boundary. */
const expandable = (v: unknown, projectId: string): v is string =>
  isRefString(v) && tryParseRef(v)?.projectId === projectId;

/** Reads the values of object/op refs; a ref that cannot be read maps to undefined. */
export type RefValueReader = (refs: readonly string[]) => Promise<Map<string, unknown>>;

type Col = 'inputs' | 'output' | 'attributes';
const COLS: readonly Col[] = ['inputs', 'output', 'attributes'];

function getAt(root: unknown, path: readonly string[]): unknown {
  let cur = root;
  for (const key of path) {
    if (Array.isArray(cur) && /^\d+$/.test(key)) cur = cur[Number(key)];
    else if (cur !== null && typeof cur === 'object') cur = (cur as Record<string, unknown>)[key];
    else return undefined;
  }
  return cur;
}

function setAt(root: unknown, path: readonly string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const parent = getAt(root, path.slice(0, -1));
  const last = path[path.length - 1]!;
  if (Array.isArray(parent) && /^\d+$/.test(last)) parent[Number(last)] = value;
  else if (parent !== null && typeof parent === 'object') (parent as Record<string, unknown>)[last] = value;
  return root;
}

export async function expandCallColumns(
  calls: readonly StoredCall[],
  expandColumns: readonly string[],
  read: RefValueReader,
): Promise<Partial<Record<Col, string>>[]> {
  const paths = [...new Set(expandColumns)]
    .map((p) => p.split('.'))
    .filter((p): p is [Col, ...string[]] => COLS.includes(p[0] as Col))
    .sort((a, b) => a.length - b.length);
  const parsed = calls.map((c) => ({
    inputs: JSON.parse(c.inputs) as unknown,
    output: c.output === null ? null : (JSON.parse(c.output) as unknown),
    attributes: JSON.parse(c.attributes) as unknown,
  }));
  const touched = calls.map(() => new Set<Col>());
  for (const [col, ...rest] of paths) {
    const wanted = parsed.map((p) => getAt(p[col], rest)).filter((v, i) => expandable(v, calls[i]!.project_id));
    if (wanted.length === 0) continue;
    const values = await read([...new Set(wanted)]);
    parsed.forEach((p, i) => {
      const ref = getAt(p[col], rest);
      if (!expandable(ref, calls[i]!.project_id) || !values.has(ref)) return;
      let v = values.get(ref);
      if (v === undefined) return;
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) v = { ...(v as object), _ref: ref };
      p[col] = setAt(p[col], rest, v);
      touched[i]!.add(col);
    });
  }
  return parsed.map((p, i) => Object.fromEntries([...touched[i]!].map((c) => [c, JSON.stringify(p[c])])));
}
