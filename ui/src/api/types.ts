// Request and answer types of the API, from the server's own schemas (src/api): the UI
// never declares a parallel interface.
export type {
  CallSchema as Call,
  CallReadReq,
  CallsDeleteReq,
  CallsQueryReq,
  CallsFilter,
} from '../../../src/api/calls.js';
export type { Query } from '../../../src/api/query.js';
export type { UiProjectsRes, UiTraceNode, UiTraceTreeReq } from '../../../src/api/ui.js';
export type {
  FeedbackCreateReq,
  FeedbackCreateRes,
  FeedbackQueryReq,
  FeedbackPurgeReq,
} from '../../../src/api/feedback.js';
export type {
  ObjQueryReq,
  ObjReadReq,
  ObjTagsBody,
  ObjSetAliasesBody,
  ObjRemoveAliasesBody,
} from '../../../src/api/objects.js';
export type { TableQueryReq, TableQueryStatsReq } from '../../../src/api/tables.js';
export type { FileContentReq } from '../../../src/api/files.js';
// Answers without a named type in src/api: derived from their schemas here.
import type { Static as StaticOfSchema } from 'typebox';
import type { ObjQueryRes as ObjQueryResDef, ObjReadRes as ObjReadResDef } from '../../../src/api/objects.js';
import type {
  TableQueryRes as TableQueryResDef,
  TableQueryStatsRes as TableQueryStatsResDef,
} from '../../../src/api/tables.js';
export type ObjQueryRes = StaticOfSchema<typeof ObjQueryResDef>;
export type ObjReadRes = StaticOfSchema<typeof ObjReadResDef>;
export type Obj = ObjReadRes['obj'];
export type TableQueryRes = StaticOfSchema<typeof TableQueryResDef>;
export type TableRow = TableQueryRes['rows'][number];
export type TableQueryStatsRes = StaticOfSchema<typeof TableQueryStatsResDef>;
export type { UiTimeseriesBucket, UiTimeseriesReq, UiTimeseriesRes, UiTimeseriesTotals } from '../../../src/api/ui.js';
export type { ThreadSchema, ThreadsQueryReq } from '../../../src/api/threads.js';
