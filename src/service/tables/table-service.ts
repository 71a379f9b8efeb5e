// The tables API over a TableStore (weave-api.md §1.14-1.17, §2, §3.9): digests computed
// here, writes delegated whole to the store, answers built as text from the rows' stored
// JSON (no parse / stringify per row).
import { Readable } from 'node:stream';
import type {
  TableCreateFromDigestsReq,
  TableCreateReq,
  TableQueryReq,
  TableQueryStatsBatchReq,
  TableQueryStatsReq,
  TableUpdateReq,
} from '../../api/tables.js';
import { DigestMismatchError, InvalidRequestError, NotFoundError } from '../../api/errors.js';
import { compileTableSort } from '../../query/table-fields.js';
import type {
  StoredTableRow,
  TableRowInput,
  TableRowsQuery,
  TableStats,
  TableStore,
} from '../../storage/tables/table-store.js';
import { NewRows, tableDigest } from './table-rows.js';
import { applyTableUpdates } from './table-updates.js';

/** Missing digests named in the message (`missing_row_digests` carries up to the larger cap). */
const MISSING_IN_MESSAGE = 5;
const MISSING_IN_BODY = 100;

function checkExpectedDigest(expected: string | null | undefined, digest: string, rows: number): void {
  if (expected != null && expected !== digest) {
    throw new DigestMismatchError(`Digest mismatch for table (${rows} rows): expected ${expected}, computed ${digest}`);
  }
}

/**
 * Stores the table. A row digest that names no row of the project is a 400 listing them,
 * not a 404: the Python client probes table/create_from_digests and reads a 404 as "this
 * server lacks the endpoint", and newer clients retry 404s as read-after-write misses.
 */
async function put(
  store: TableStore,
  projectId: string,
  digest: string,
  rowDigests: readonly string[],
  newRows: readonly TableRowInput[],
) {
  const { missing } = await store.putTable(projectId, digest, rowDigests, newRows);
  if (missing.length === 0) return;
  const shown = missing.slice(0, MISSING_IN_MESSAGE).join(', ') + (missing.length > MISSING_IN_MESSAGE ? ', ...' : '');
  throw new InvalidRequestError(`${missing.length} row digest(s) are not rows of project ${projectId}: ${shown}`, {
    missing_row_digests: missing.slice(0, MISSING_IN_BODY),
  });
}

/** table/create: rows in order -> their digests and the table digest; idempotent and atomic. */
export async function createTable(
  store: TableStore,
  req: TableCreateReq,
): Promise<{ digest: string; row_digests: string[] }> {
  const { project_id, rows, expected_digest } = req.table;
  const newRows = new NewRows();
  const rowDigests = rows.map((row) => newRows.add(row));
  const digest = tableDigest(rowDigests);
  checkExpectedDigest(expected_digest, digest, rowDigests.length);
  await put(store, project_id, digest, rowDigests, newRows.list());
  return { digest, row_digests: rowDigests };
}

/** table/update: a new table derived from the base one (which stays as it is). */
export async function updateTable(
  store: TableStore,
  req: TableUpdateReq,
): Promise<{ digest: string; updated_row_digests: string[] }> {
  const base = await store.getTableRowDigests(req.project_id, req.base_digest);
  if (base === null) throw new NotFoundError(`Table ${req.project_id}:${req.base_digest} not found`);
  const applied = applyTableUpdates(base, req.updates);
  const digest = tableDigest(applied.rowDigests);
  await put(store, req.project_id, digest, applied.rowDigests, applied.newRows);
  return { digest, updated_row_digests: applied.updated };
}

/** table/create_from_digests: a table of rows the project already has. */
export async function createTableFromDigests(
  store: TableStore,
  req: TableCreateFromDigestsReq,
): Promise<{ digest: string }> {
  const digest = tableDigest(req.row_digests);
  checkExpectedDigest(req.expected_digest, digest, req.row_digests.length);
  await put(store, req.project_id, digest, req.row_digests, []);
  return { digest };
}

/** Paging counts past 2^53 mean "everything" / "nothing left"; clamping keeps them integers for every engine. */
const clampCount = (n: number | null | undefined): number | null =>
  n == null ? null : Math.min(n, Number.MAX_SAFE_INTEGER);

/** The store query of a table/query request; malformed sort fields are 400s. An empty filter list filters nothing (as Weave). */
export function compileTableQuery(req: TableQueryReq): TableRowsQuery {
  const rowDigests = req.filter?.row_digests;
  return {
    projectId: req.project_id,
    digest: req.digest,
    rowDigests: rowDigests && rowDigests.length > 0 ? rowDigests : null,
    sort: compileTableSort(req.sort_by),
    limit: clampCount(req.limit),
    offset: clampCount(req.offset),
  };
}

/** One row as JSON text; digests are [A-Za-z0-9] but are escaped anyway. */
const rowJson = (r: StoredTableRow) =>
  `{"digest":${JSON.stringify(r.digest)},"val":${r.val},"original_index":${r.original_index}}`;

/** table/query: `{"rows": [...]}` as text, every selected row, in table order unless sorted. */
export async function queryTableJson(store: TableStore, req: TableQueryReq): Promise<string> {
  const parts: string[] = [];
  for await (const chunk of store.queryRows(compileTableQuery(req))) {
    for (const r of chunk) parts.push(rowJson(r));
  }
  return `{"rows":[${parts.join(',')}]}`;
}

/**
 * table/query_stream: JSON Lines, one row per line, chunk by chunk. The request is compiled
 * and the first chunk read before the stream is returned, so a bad request or a failing
 * read is still an ordinary JSON error response.
 */
export async function streamTable(store: TableStore, req: TableQueryReq): Promise<Readable> {
  const chunks = store.queryRows(compileTableQuery(req))[Symbol.asyncIterator]();
  const first = await chunks.next();
  const text = (chunk: readonly StoredTableRow[]) => chunk.map((r) => `${rowJson(r)}\n`).join('');
  async function* lines() {
    try {
      if (first.done) return;
      yield text(first.value);
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield text(next.value);
    } finally {
      await chunks.return?.();
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

/** table/query_stats: the number of positions; 0 for an unknown table. */
export async function tableStats(store: TableStore, req: TableQueryStatsReq): Promise<{ count: number }> {
  const [stats] = await store.stats(req.project_id, [req.digest], false);
  return { count: stats?.count ?? 0 };
}

/** table/query_stats_batch: stats of the known tables among the digests, in request order. */
export async function tableStatsBatch(
  store: TableStore,
  req: TableQueryStatsBatchReq,
): Promise<{ tables: TableStats[] }> {
  return { tables: await store.stats(req.project_id, req.digests ?? [], req.include_storage_size === true) };
}
