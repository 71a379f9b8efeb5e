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
export type {
  UiCallPathsReq,
  UiCallPathsRes,
  UiObjectVersionCountsReq,
  UiObjectVersionCountsRes,
} from '../../../src/api/ui.js';
export type { UiTimeseriesBucket, UiTimeseriesReq, UiTimeseriesRes, UiTimeseriesTotals } from '../../../src/api/ui.js';
export type { ThreadSchema, ThreadsQueryReq } from '../../../src/api/threads.js';
// The agent API (GenAI spans).
import type {
  AgentConversationChatReq as AgentConversationChatReqDef,
  AgentConversationChatRes as AgentConversationChatResDef,
  AgentSpansQueryReq as AgentSpansQueryReqDef,
  AgentSpansQueryRes as AgentSpansQueryResDef,
  AgentsQueryReq as AgentsQueryReqDef,
  AgentsQueryRes as AgentsQueryResDef,
  AgentTraceChatRes as AgentTraceChatResDef,
  AgentVersionsQueryReq as AgentVersionsQueryReqDef,
  AgentVersionsQueryRes as AgentVersionsQueryResDef,
} from '../../../src/api/agents.js';
import type {
  AgentSearchReq as AgentSearchReqDef,
  AgentSearchRes as AgentSearchResDef,
} from '../../../src/api/agents-search.js';
import type {
  AgentSpanStatsReq as AgentSpanStatsReqDef,
  AgentSpanStatsRes as AgentSpanStatsResDef,
} from '../../../src/api/agents-stats.js';
export type AgentsQueryReq = StaticOfSchema<typeof AgentsQueryReqDef>;
export type AgentsQueryRes = StaticOfSchema<typeof AgentsQueryResDef>;
export type Agent = AgentsQueryRes['agents'][number];
export type AgentVersionsQueryReq = StaticOfSchema<typeof AgentVersionsQueryReqDef>;
export type AgentVersionsQueryRes = StaticOfSchema<typeof AgentVersionsQueryResDef>;
export type AgentSpansQueryReq = StaticOfSchema<typeof AgentSpansQueryReqDef>;
export type AgentSpansQueryRes = StaticOfSchema<typeof AgentSpansQueryResDef>;
export type AgentSearchReq = StaticOfSchema<typeof AgentSearchReqDef>;
export type AgentSearchRes = StaticOfSchema<typeof AgentSearchResDef>;
export type AgentSpanStatsReq = StaticOfSchema<typeof AgentSpanStatsReqDef>;
export type AgentSpanStatsRes = StaticOfSchema<typeof AgentSpanStatsResDef>;
export type AgentConversationChatReq = StaticOfSchema<typeof AgentConversationChatReqDef>;
export type AgentConversationChatRes = StaticOfSchema<typeof AgentConversationChatResDef>;
export type AgentTurn = StaticOfSchema<typeof AgentTraceChatResDef>;
// The model routes (the playground) and the objects and secrets they are configured with.
import type {
  CompletionsModelsReq as CompletionsModelsReqDef,
  CompletionsModelsRes,
} from '../../../src/api/completions.js';
import type { ObjCreateRes as ObjCreateResDef } from '../../../src/api/objects.js';
export type { ObjCreateReq } from '../../../src/api/objects.js';
import type {
  SecretListReq as SecretListReqDef,
  SecretListRes as SecretListResDef,
  SecretSetReq as SecretSetReqDef,
} from '../../../src/api/secrets.js';
export type { CompletionsCreateReq, CompletionsModelsRes } from '../../../src/api/completions.js';
export type CompletionsModelsReq = StaticOfSchema<typeof CompletionsModelsReqDef>;
export type CompletionProvider = CompletionsModelsRes['providers'][number];
export type CompletionModel = CompletionProvider['models'][number];
export type ObjCreateRes = StaticOfSchema<typeof ObjCreateResDef>;
export type SecretSetReq = StaticOfSchema<typeof SecretSetReqDef>;
export type SecretListReq = StaticOfSchema<typeof SecretListReqDef>;
export type SecretListRes = StaticOfSchema<typeof SecretListResDef>;
// Signals: the preset judges, publishing a monitor and its scorer, each monitor's health and
// backfills (/signals/*), and the scorer tags and ratings per time bucket (/feedback/aggregate).
import type { FeedbackAggregateRes as FeedbackAggregateResDef } from '../../../src/api/feedback-analytics.js';
export type { FeedbackAggregateBucket, FeedbackAggregateReq } from '../../../src/api/feedback-analytics.js';
export type FeedbackAggregateRes = StaticOfSchema<typeof FeedbackAggregateResDef>;
export type {
  MonitorHealth,
  SignalPreset,
  SignalScorer,
  SignalsBackfillReq,
  SignalsBackfillRes,
  SignalsPresetsRes,
  SignalsPublishReq,
  SignalsPublishRes,
  SignalsStatusRes,
} from '../../../src/api/signals.js';
import type {
  SignalsPresetsReq as SignalsPresetsReqDef,
  SignalsStatusReq as SignalsStatusReqDef,
} from '../../../src/api/signals.js';
export type SignalsPresetsReq = StaticOfSchema<typeof SignalsPresetsReqDef>;
export type SignalsStatusReq = StaticOfSchema<typeof SignalsStatusReqDef>;
