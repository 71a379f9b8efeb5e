// Reads the values that object and op refs point to, following the ref's extra path
// (key / attr / index) and any nested refs met on the way, within the ref's project.
// Used by expand_columns; /refs/read_batch (with table rows) builds on it.
import type { ObjectStore } from '../storage/object-store.js';
import { isRefString } from './extract-refs.js';
import { parseSelector } from './object-names.js';
import { tryParseRef, type ObjectRef } from './refs.js';
import type { RefValueReader } from './expand-columns.js';

const MAX_HOPS = 32;

function step(value: unknown, edge: string, key: string): unknown {
  if (edge === 'index') {
    return Array.isArray(value) && /^\d+$/.test(key) ? value[Number(key)] : undefined;
  }
  if ((edge === 'key' || edge === 'attr') && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return (value as Record<string, unknown>)[key];
  }
  return undefined;
}

export function createRefValueReader(objects: ObjectStore): RefValueReader {
  async function readObject(ref: ObjectRef): Promise<unknown> {
    const v = await objects.read(ref.projectId, ref.name, parseSelector(ref.digest), { metadataOnly: false, includeLabels: false });
    if (!v || v.deleted_at !== null || v.val === null) return undefined;
    return JSON.parse(v.val) as unknown;
  }

  async function resolve(uri: string): Promise<unknown> {
    let ref = tryParseRef(uri);
    let hops = 0;
    if (!ref || (ref.kind !== 'object' && ref.kind !== 'op')) return undefined;
    const projectId = ref.projectId;
    let value = await readObject(ref);
    const extra = [...ref.extra];
    while (extra.length >= 2 && value !== undefined) {
      const [edge, key] = extra.splice(0, 2) as [string, string];
      value = step(value, edge, key);
      // A nested ref is followed, inside the same project only.
      if (isRefString(value) && extra.length > 0 && hops++ < MAX_HOPS) {
        ref = tryParseRef(value);
        if (!ref || ref.projectId !== projectId || (ref.kind !== 'object' && ref.kind !== 'op')) return undefined;
        extra.unshift(...ref.extra);
        value = await readObject(ref);
      }
    }
    return value;
  }

  return async (refs) => {
    const out = new Map<string, unknown>();
    for (const uri of refs) out.set(uri, await resolve(uri));
    return out;
  };
}
