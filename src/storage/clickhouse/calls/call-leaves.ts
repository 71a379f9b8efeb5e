// Which dynamic fields of a calls query read from leaves (clickhouse/calls/json-leaves.ts): those
// on a column with leaves, on a path leaves can name, that no started row of the project keeps
// from its leaves (deleted rows too: it is a property of what is stored, not of a query's
// matches). One statement asks that for all of them, and a query with none asks nothing.
//
// A row written between that question and the read could be one the leaves cannot answer, and
// the read would take its field as missing. So the question is asked again once the read has
// begun (a statement reads the parts that existed when it started; its first rows, or its
// end, come after that): if the answer changed, the read is dropped before anything of it is
// used, and runs again from the documents. The only rows this does not cover are ones deleted
// or expired between the read's start and the second question (then gone from the answer anyway).
import type { ClickHouseClient } from '@clickhouse/client';
import type { CallsQuery } from '../../../query/calls-query.js';
import type { FieldRef } from '../../../query/plan.js';
import { selectRows } from '../engine/client.js';
import { ChParams, chIdentifier } from '../engine/dialect.js';
import { NO_LEAVES, fieldsOf, leafKey, type LeafReads } from './call-select.js';
import { LEAF_COLUMNS, leafPath, leavesUnusable } from './json-leaves.js';

type JsonField = Extract<FieldRef, { kind: 'json' }>;
type LeafQuery = Pick<CallsQuery, 'projectId' | 'where' | 'sort'>;

/** The query's dynamic fields that leaves could answer, once each. */
export function leafCandidates(q: Pick<CallsQuery, 'where' | 'sort'>): JsonField[] {
  const fields = [...(q.where === null ? [] : fieldsOf(q.where)), ...q.sort.map((t) => t.field)];
  const out = new Map<string, JsonField>();
  for (const f of fields) {
    if (f.kind === 'json' && LEAF_COLUMNS.has(f.column) && leafPath(f.path)) out.set(leafKey(f.column, f.path), f);
  }
  return [...out.values()];
}

/** Of these fields, the leafKeys of those no started row of the project keeps from its leaves. */
async function answerable(
  client: ClickHouseClient,
  database: string,
  projectId: string,
  fields: readonly JsonField[],
): Promise<Set<string>> {
  if (fields.length === 0) return new Set();
  const params = new ChParams();
  const project = params.add(projectId, 'String');
  // One subquery a field, each ending at the first row that keeps it from the leaves: rows that
  // do are often many (an array in most calls' inputs), and the bloom filter index on the
  // opaque paths skips the granules without any, so either answer reads little.
  const firsts = fields.map(
    (f) => `(SELECT count() FROM (SELECT 1 FROM ${chIdentifier(database)}.calls
    PREWHERE project_id = ${project} AND has_start = 1 AND ${leavesUnusable(`${chIdentifier(f.column)}_opaque`, f.path, params)} LIMIT 1))`,
  );
  const [row] = await selectRows<{ unusable: (number | string)[] }>(
    client,
    `SELECT [${firsts.join(', ')}] AS unusable`,
    params.values,
  );
  const flags = row?.unusable ?? [];
  return new Set(fields.filter((_, i) => Number(flags[i] ?? 1) === 0).map((f) => leafKey(f.column, f.path)));
}

/** The fields of the query its statements may read from leaves, as things stand now. */
export async function usableLeaves(client: ClickHouseClient, database: string, q: LeafQuery): Promise<LeafReads> {
  const keys = await answerable(client, database, q.projectId, leafCandidates(q));
  return keys.size === 0 ? NO_LEAVES : { keys };
}

/** Whether every field read from leaves still can be (asked once a read has begun). */
async function stillUsable(
  client: ClickHouseClient,
  database: string,
  q: LeafQuery,
  leaves: LeafReads,
): Promise<boolean> {
  const fields = leafCandidates(q).filter((f) => leaves.keys.has(leafKey(f.column, f.path)));
  return (await answerable(client, database, q.projectId, fields)).size === fields.length;
}

/** Runs `read` with the fields it may read from leaves; again from the documents when rows written meanwhile say otherwise. */
export async function withLeaves<T>(
  client: ClickHouseClient,
  database: string,
  q: LeafQuery,
  read: (leaves: LeafReads) => Promise<T>,
): Promise<T> {
  const leaves = await usableLeaves(client, database, q);
  if (leaves.keys.size === 0) return read(NO_LEAVES);
  const result = await read(leaves);
  return (await stillUsable(client, database, q, leaves)) ? result : read(NO_LEAVES);
}

/** withLeaves for a stream: the second question is asked when its first item (or its end) arrives, before that goes out. */
export async function* streamWithLeaves<T>(
  client: ClickHouseClient,
  database: string,
  q: LeafQuery,
  read: (leaves: LeafReads) => AsyncGenerator<T>,
): AsyncGenerator<T> {
  const leaves = await usableLeaves(client, database, q);
  if (leaves.keys.size === 0) {
    yield* read(NO_LEAVES);
    return;
  }
  const stream = read(leaves);
  // Closed however this ends: a reader that stops early, a failed question, a second read.
  try {
    const first = await stream.next();
    if (!(await stillUsable(client, database, q, leaves))) {
      await stream.return(undefined);
      yield* read(NO_LEAVES);
      return;
    }
    if (first.done === true) return;
    yield first.value;
    yield* stream;
  } finally {
    await stream.return(undefined);
  }
}
