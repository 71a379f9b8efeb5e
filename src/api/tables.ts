// Request and response schemas of the tables endpoints (weave-api.md §1.14-1.17, §2, §3.9).
// Top-level requests are strict (unknown keys are a 422, as Weave's BaseModelStrict); the
// nested insert and update payloads are lenient like Weave's plain BaseModels. Rows must be
// JSON objects: anything else is a 422 from the schema.
import { Type, type Static } from 'typebox';
import { AnyObject, AnyValue, Limit, Nullable, Offset, ProjectId, SortDirection, Strict } from './common.js';
import { DataList, List, MAX_DIGESTS, MAX_NAMES } from './limits.js';
import { defineRoute } from './route-spec.js';

const Digest = Type.String({ description: 'Table digest: 64 lowercase hex characters' });
const RowDigest = Type.String({ description: 'Row digest: 43 characters of [A-Za-z0-9]' });
const ExpectedDigest = Nullable(
  Type.String({ description: 'When given, must equal the digest the server computes (else 409)' }),
);
const Row = AnyObject;

export const TableSchemaForInsert = Type.Object({
  project_id: ProjectId,
  rows: DataList(Row, { description: 'JSON objects, stored in this order; duplicates allowed' }),
  expected_digest: ExpectedDigest,
});

export const TableCreateReq = Strict({ table: TableSchemaForInsert });
export type TableCreateReq = Static<typeof TableCreateReq>;
export const TableCreateRes = Type.Object({
  digest: Digest,
  row_digests: Type.Array(RowDigest, { description: 'One per row, in row order' }),
});

export const TableAppendSpec = Type.Object({ append: Type.Object({ row: Row }) });
export const TablePopSpec = Type.Object({ pop: Type.Object({ index: Type.Integer() }) });
export const TableInsertSpec = Type.Object({ insert: Type.Object({ index: Type.Integer(), row: Row }) });
export const TableUpdateSpec = Type.Union([TableAppendSpec, TablePopSpec, TableInsertSpec]);
export type TableUpdateSpec = Static<typeof TableUpdateSpec>;

export const TableUpdateReq = Strict({
  project_id: ProjectId,
  base_digest: Digest,
  updates: DataList(TableUpdateSpec, {
    description:
      'Applied in order to a copy of the base table: append pushes, pop removes at 0 <= index < length, insert goes before 0 <= index <= length',
  }),
});
export type TableUpdateReq = Static<typeof TableUpdateReq>;
export const TableUpdateRes = Type.Object({
  digest: Digest,
  updated_row_digests: Type.Array(RowDigest, {
    description: 'Per update, in order: the appended, inserted or popped row digest',
  }),
});

export const TableRowFilter = Strict({
  row_digests: Nullable(List(RowDigest, MAX_DIGESTS, { description: 'Only positions holding one of these rows' })),
});

/** A sort term whose field is a dot path into the row; a malformed path is a 400 (checked by the service). */
export const TableSortBy = Type.Object(
  {
    field: Type.String({ description: 'Dot path into the row value, e.g. "meta.difficulty"' }),
    direction: SortDirection,
  },
  { additionalProperties: false },
);

export const TableQueryReq = Strict({
  project_id: ProjectId,
  digest: Digest,
  filter: Nullable(TableRowFilter),
  limit: Limit,
  offset: Offset,
  sort_by: Nullable(
    List(TableSortBy, MAX_NAMES, {
      description: 'Missing and null values sort last; numbers before text; ties keep table order',
    }),
  ),
});
export type TableQueryReq = Static<typeof TableQueryReq>;

export const TableRowSchema = Type.Object({
  digest: RowDigest,
  val: AnyValue,
  original_index: Type.Integer({ description: 'Position of the row in the table' }),
});
export const TableQueryRes = Type.Object({ rows: Type.Array(TableRowSchema) });

export const TableQueryStatsReq = Strict({ project_id: ProjectId, digest: Digest });
export type TableQueryStatsReq = Static<typeof TableQueryStatsReq>;
export const TableQueryStatsRes = Type.Object({ count: Type.Integer({ description: '0 for an unknown table' }) });

export const TableQueryStatsBatchReq = Strict({
  project_id: ProjectId,
  digests: Nullable(List(Digest, MAX_DIGESTS)),
  include_storage_size: Nullable(Type.Boolean({ default: false })),
});
export type TableQueryStatsBatchReq = Static<typeof TableQueryStatsBatchReq>;
export const TableStatsRow = Type.Object({
  count: Type.Integer(),
  digest: Digest,
  storage_size_bytes: Type.Union([Type.Integer(), Type.Null()], {
    description: "Bytes of the rows' stored JSON, per position; null unless include_storage_size",
  }),
});
export const TableQueryStatsBatchRes = Type.Object({
  tables: Type.Array(TableStatsRow, { description: 'In request order; unknown digests are omitted' }),
});

export const TableCreateFromDigestsReq = Strict({
  project_id: ProjectId,
  row_digests: DataList(RowDigest, {
    description: 'Rows that already exist in the project, in table order (else 400 listing missing_row_digests)',
  }),
  expected_digest: ExpectedDigest,
});
export type TableCreateFromDigestsReq = Static<typeof TableCreateFromDigestsReq>;
export const TableCreateFromDigestsRes = Type.Object({ digest: Digest });

const tag = 'Tables';
export const tablesRoutes = {
  tableCreate: defineRoute({
    access: 'write',
    id: 'table_create',
    method: 'POST',
    path: '/table/create',
    tag,
    summary: 'Create a table (idempotent)',
    carriesData: true,
    body: TableCreateReq,
    response: TableCreateRes,
    errors: [400, 409],
  }),
  tableUpdate: defineRoute({
    access: 'write',
    id: 'table_update',
    method: 'POST',
    path: '/table/update',
    tag,
    summary: 'Derive a new table from a base table',
    carriesData: true,
    body: TableUpdateReq,
    response: TableUpdateRes,
    errors: [400, 404],
  }),
  tableQuery: defineRoute({
    access: 'read',
    id: 'table_query',
    method: 'POST',
    path: '/table/query',
    tag,
    summary: 'Read the rows of a table',
    body: TableQueryReq,
    response: TableQueryRes,
    errors: [400],
  }),
  tableQueryStream: defineRoute({
    access: 'read',
    id: 'table_query_stream',
    method: 'POST',
    path: '/table/query_stream',
    tag,
    summary: 'Read the rows of a table as JSON Lines',
    body: TableQueryReq,
    response: TableRowSchema,
    reply: 'jsonl',
    errors: [400],
  }),
  tableQueryStats: defineRoute({
    access: 'read',
    id: 'table_query_stats',
    method: 'POST',
    path: '/table/query_stats',
    tag,
    summary: 'Count the rows of a table',
    body: TableQueryStatsReq,
    response: TableQueryStatsRes,
  }),
  tableQueryStatsBatch: defineRoute({
    access: 'read',
    id: 'table_query_stats_batch',
    method: 'POST',
    path: '/table/query_stats_batch',
    tag,
    summary: 'Count the rows of several tables',
    body: TableQueryStatsBatchReq,
    response: TableQueryStatsBatchRes,
  }),
  tableCreateFromDigests: defineRoute({
    access: 'write',
    id: 'table_create_from_digests',
    method: 'POST',
    path: '/table/create_from_digests',
    tag,
    summary: 'Create a table from rows already stored',
    carriesData: true,
    body: TableCreateFromDigestsReq,
    response: TableCreateFromDigestsRes,
    errors: [400, 409],
  }),
} as const;
