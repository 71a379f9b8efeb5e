// Reads what Weave refs point to (weave-api.md §3.4), for /refs/read_batch and expand_columns.
// A ref names an object or op version by exact digest, then an extra path of edges:
//   key/<k>, attr/<a>: a member of a dict;  index/<i>: an element of a list (0 <= i < length);
//   id/<row_digest>: the row of the table that the current value (a table ref) refers to.
// A ref string met on the way is entered before the next edge applies, so a path can cross
// from one stored value into another (a Dataset's `rows` into its table, a key holding a ref
// to a model). Nested refs are followed within the root ref's project only: Weave answers
// null for cross-project traversal, and following them would read another project's data.
// Reads are memoized per resolver (one per request, or per chunk of calls), and table rows
// requested in the same turn of the event loop are fetched with one store call.
import type { ObjectStore } from '../../storage/objects/object-store.js';
import { isRefString } from './extract-refs.js';
import type { RefValueReader } from '../calls/expand-columns.js';
import { EDGE_NAMES, refUri, tryParseRef, type TableRef, type WeaveRef } from './refs.js';

/**
 * The two reads of table rows that ref resolution needs. Declared here, at the consumer, so
 * this file depends on nothing more of the tables work; every TableStore provides them.
 */
export interface TableRowReader {
  /** Row digests of the table in table order, or null when the project has no such table. */
  getTableRowDigests(projectId: string, tableDigest: string): Promise<string[] | null>;
  /** JSON text of each stored row among `rowDigests` (absent digests are left out). */
  getRows(projectId: string, rowDigests: readonly string[]): Promise<Map<string, string>>;
}

/**
 * What one ref resolves to.
 * - value: the walk ended; `value` is undefined when the path led nowhere (missing key, index
 *   out of range, nested object missing, deleted or in another project, unknown row); `json`
 *   is the stored JSON text when the value is a whole stored document, returned verbatim.
 * - missing / deleted: the ref's own object version does not exist / was deleted.
 * - invalid: the ref cannot be read as asked (an `id` edge on a value that is not a table ref).
 */
export type RefOutcome =
  | { readonly kind: 'value'; readonly value: unknown; readonly json?: string | undefined }
  | { readonly kind: 'missing' }
  | { readonly kind: 'deleted' }
  | { readonly kind: 'invalid'; readonly message: string };

export interface RefResolver {
  resolve(ref: WeaveRef): Promise<RefOutcome>;
}

/** Bound on refs entered in one walk: stored values can refer to each other in a cycle. */
const MAX_HOPS = 32;
const NOWHERE: RefOutcome = { kind: 'value', value: undefined };
const READ_FULL = { metadataOnly: false, includeLabels: false } as const;

interface Doc {
  readonly value: unknown;
  /** Set while the value is a whole stored document (object version or table row). */
  readonly json?: string | undefined;
}
type VersionState = Doc | 'missing' | 'deleted';

const key = (...parts: string[]) => parts.join('\u0000');
const isDict = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function memo<T>(cache: Map<string, Promise<T>>, k: string, load: () => Promise<T>): Promise<T> {
  let p = cache.get(k);
  if (!p) {
    p = load();
    cache.set(k, p);
  }
  return p;
}

/** One key / attr / index edge; undefined when it leads nowhere. Own keys only (no prototype lookups). */
function step(value: unknown, edge: string, arg: string): unknown {
  if (edge === 'index') return Array.isArray(value) && /^\d+$/.test(arg) ? value[Number(arg)] : undefined;
  if (edge === 'key' || edge === 'attr') return isDict(value) && Object.hasOwn(value, arg) ? value[arg] : undefined;
  return undefined;
}

/** A table ref's tail (TS SDK row refs: table/<digest>/id/<row>) is unchecked by the parser. */
function validTail(extra: readonly string[]): boolean {
  if (extra.length % 2 !== 0) return false;
  for (let i = 0; i < extra.length; i += 2) {
    if (!(EDGE_NAMES as readonly string[]).includes(extra[i]!)) return false;
  }
  return true;
}

const bareTable = (ref: TableRef): string => refUri({ ...ref, extra: [] });

/** Coalesces row reads: every row asked for before the next macrotask is fetched in one call per project. */
function createRowLoader(
  tables: TableRowReader,
): (projectId: string, rowDigest: string) => Promise<string | undefined> {
  const cache = new Map<string, Promise<string | undefined>>();
  let pending: {
    projectId: string;
    digest: string;
    settle: (json: string | undefined) => void;
    fail: (e: unknown) => void;
  }[] = [];
  const flush = async () => {
    const batch = pending;
    pending = [];
    const byProject = new Map<string, typeof batch>();
    for (const p of batch) (byProject.get(p.projectId) ?? byProject.set(p.projectId, []).get(p.projectId)!).push(p);
    for (const [projectId, waiting] of byProject) {
      try {
        const rows = await tables.getRows(projectId, [...new Set(waiting.map((w) => w.digest))]);
        for (const w of waiting) w.settle(rows.get(w.digest));
      } catch (e) {
        for (const w of waiting) w.fail(e);
      }
    }
  };
  return (projectId, digest) =>
    memo(
      cache,
      key(projectId, digest),
      () =>
        new Promise((settle, fail) => {
          if (pending.length === 0) setImmediate(() => void flush());
          pending.push({ projectId, digest, settle, fail });
        }),
    );
}

export function createRefResolver(objects: ObjectStore, tables: TableRowReader): RefResolver {
  const versions = new Map<string, Promise<VersionState>>();
  const tableRows = new Map<string, Promise<ReadonlySet<string> | null>>();
  const loadRow = createRowLoader(tables);

  const version = (projectId: string, name: string, digest: string): Promise<VersionState> =>
    memo(versions, key(projectId, name, digest), async () => {
      const v = await objects.read(projectId, name, { kind: 'digest', digest }, READ_FULL);
      if (!v) return 'missing';
      if (v.deleted_at !== null) return 'deleted';
      const json = v.val ?? 'null';
      return { value: JSON.parse(json) as unknown, json };
    });

  /** The row `rowDigest` of the table, if the table exists and holds that row. */
  const row = async (projectId: string, tableDigest: string, rowDigest: string): Promise<Doc | undefined> => {
    const digests = await memo(tableRows, key(projectId, tableDigest), async () => {
      const list = await tables.getTableRowDigests(projectId, tableDigest);
      return list ? new Set(list) : null;
    });
    if (!digests?.has(rowDigest)) return undefined;
    const json = await loadRow(projectId, rowDigest);
    return json === undefined ? undefined : { value: JSON.parse(json) as unknown, json };
  };

  /** Walks `edges` from `start`, entering every ref string met while edges remain. */
  async function walk(projectId: string, start: Doc, edges: string[]): Promise<RefOutcome> {
    let cur = start;
    let hops = 0;
    while (edges.length > 0) {
      const edge = edges[0]!;
      const arg = edges[1]!;
      if (isRefString(cur.value)) {
        const ref = tryParseRef(cur.value);
        if (!ref || ref.projectId !== projectId || ++hops > MAX_HOPS) return NOWHERE;
        if (ref.kind === 'object' || ref.kind === 'op') {
          const v = await version(projectId, ref.name, ref.digest);
          if (typeof v === 'string') return NOWHERE;
          cur = v;
          edges.unshift(...ref.extra);
          continue;
        }
        if (ref.kind !== 'table' || !validTail(ref.extra)) return NOWHERE;
        if (ref.extra.length > 0) {
          cur = { value: bareTable(ref) };
          edges.unshift(...ref.extra);
          continue;
        }
        // A bare table ref: only a row edge leads into it.
        if (edge !== 'id') return NOWHERE;
        edges.splice(0, 2);
        const found = await row(projectId, ref.digest, arg);
        if (!found) return NOWHERE;
        cur = found;
        continue;
      }
      edges.splice(0, 2);
      if (edge === 'id') {
        return { kind: 'invalid', message: `Cannot resolve id/${arg}: the value at that point is not a table ref` };
      }
      const next = step(cur.value, edge, arg);
      if (next === undefined) return NOWHERE;
      cur = { value: next };
    }
    return { kind: 'value', value: cur.value, json: cur.json };
  }

  return {
    async resolve(ref) {
      switch (ref.kind) {
        case 'object':
        case 'op': {
          const v = await version(ref.projectId, ref.name, ref.digest);
          if (v === 'missing' || v === 'deleted') return { kind: v };
          return walk(ref.projectId, v, [...ref.extra]);
        }
        case 'table':
          // Only row refs (table/<digest>/id/<row>, as the TS SDK writes them) have a value to read.
          if (ref.extra.length === 0 || !validTail(ref.extra))
            return { kind: 'invalid', message: 'Table refs not supported' };
          return walk(ref.projectId, { value: bareTable(ref) }, [...ref.extra]);
        case 'call':
          return { kind: 'invalid', message: 'Call refs not supported' };
        case 'agent_turn':
        case 'agent_span':
        case 'agent_conversation':
          return { kind: 'invalid', message: 'Agent refs not supported' };
      }
    },
  };
}

/**
 * The reader expand_columns uses: each ref that resolves to a value maps to it; refs that do
 * not resolve (not a ref, missing or deleted object, a path leading nowhere) are left out, so
 * the call keeps the ref string. One resolver per read: memoized reads never go stale.
 */
export function createRefValueReader(objects: ObjectStore, tables: TableRowReader): RefValueReader {
  return async (uris) => {
    const resolver = createRefResolver(objects, tables);
    const out = new Map<string, unknown>();
    await Promise.all(
      uris.map(async (uri) => {
        const ref = tryParseRef(uri);
        if (!ref) return;
        const got = await resolver.resolve(ref);
        if (got.kind === 'value' && got.value !== undefined) out.set(uri, got.value);
      }),
    );
    return out;
  };
}
