// Agent spans (GenAI OpenTelemetry spans sent to /agents/otel/v1/traces): one row per
// (project, trace, span). Contracts every engine keeps:
//  - A written span is durable when write() resolves, and a span sent again replaces itself.
//  - Each span's owner (owner_agent_name / owner_agent_version) is the agent of its nearest
//    invoke_agent ancestor-or-self, over every span of its trace stored so far: a child that
//    arrives before its parent is attributed when the parent arrives (span-owners.ts).
//  - query() sees the spans of one project only, filtered by a compiled plan.
//  - agents() reads the rollups, which equal storage/spans/span-rollups.ts summed over every stored
//    trace (a trace written again replaces what it added).
import type { AgentSortField } from '../../api/agents.js';
import type { Expr, FieldRef, SortTerm } from '../../query/plan.js';
import type { SearchTerms } from '../../query/search-terms.js';
import type { SpanColumn, SpanRow } from '../../query/span-columns.js';
import type { Micros } from '../../time.js';
import type {
  SpanDistributionsQuery,
  SpanDistributionsResult,
  SpanGroupBound,
  SpanGroupFilter,
  SpanHistogramQuery,
  SpanHistogramResult,
  SpanSignalFilter,
} from './span-filters.js';
import type { SpanMeasure, StatsOutput } from './span-measures.js';

export interface SpansQuery {
  readonly projectId: string;
  readonly where: Expr | null;
  readonly sort: readonly SortTerm[];
  readonly limit: number;
  readonly offset: number;
  /** started_at bounds, microseconds: [after, before). */
  readonly startedAfter: number | null;
  readonly startedBefore: number | null;
  /** Columns to read; the others come back NULL (raw_span_dump is heavy). */
  readonly columns: readonly SpanColumn[];
}

export interface AgentsQuery {
  readonly projectId: string;
  /** Only this agent (null: every agent). */
  readonly agentName: string | null;
  /** One row per (agent, version) instead of per agent. */
  readonly byVersion: boolean;
  readonly sort: readonly { readonly field: AgentSortField; readonly direction: 'asc' | 'desc' }[];
  readonly limit: number;
  readonly offset: number;
}

/** Token sums of one model within a rollup row (for costs, priced at read time). */
export interface ModelTokens {
  readonly model: string;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly reasoning_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
}

export interface AgentRollupRow {
  readonly agent_name: string;
  /** '' when grouped by agent only, or for spans sent without a version. */
  readonly agent_version: string;
  readonly invocation_count: number;
  readonly span_count: number;
  readonly error_count: number;
  readonly total_duration_ms: number;
  readonly total_input_tokens: number;
  readonly total_output_tokens: number;
  /** Invocations that ran other agents: an agent with any is an orchestrator (span-settle.ts). */
  readonly orchestration_count: number;
  readonly first_seen: number;
  readonly last_seen: number;
  readonly models: readonly ModelTokens[];
}

/** Figures every group of spans carries (Weave's AgentSpanGroupRow bundle). */
export const SPAN_GROUP_SUMS = [
  'span_count',
  'invocation_count',
  'conversation_count',
  /** Weft's addition: distinct traces (turns). */
  'turn_count',
  'total_input_tokens',
  'total_cache_creation_input_tokens',
  'total_cache_read_input_tokens',
  'total_output_tokens',
  'total_reasoning_tokens',
  'total_duration_ms',
  'error_count',
  'first_seen',
  'last_seen',
] as const;
export const SPAN_GROUP_LISTS = [
  'agent_names',
  'agent_versions',
  'provider_names',
  'request_models',
  'conversation_names',
] as const;

export interface SpanGroupsQuery {
  readonly projectId: string;
  readonly where: Expr | null;
  readonly startedAfter: number | null;
  readonly startedBefore: number | null;
  /** The group keys, each a field of the span catalogue, by their output alias. */
  readonly keys: readonly { readonly alias: string; readonly field: FieldRef }[];
  /** By a key's alias, a SPAN_GROUP_SUMS name or a measure's alias. */
  readonly sort: readonly { readonly name: string; readonly direction: 'asc' | 'desc' }[];
  /** Figures the caller asks for (Weave's measures), each over the group's spans its filter keeps. */
  readonly measures?: readonly SpanMeasure[];
  /** Only spans of conversations carrying these signals (span-filters.ts). */
  readonly signals?: SpanSignalFilter | null;
  /** Only groups meeting every bound (Weave's group_filters); the count counts those too. */
  readonly having?: readonly SpanGroupBound[];
  readonly limit: number;
  readonly offset: number;
}

export interface SpanGroupRow {
  /** Each key's value, by alias. */
  readonly keys: Record<string, string | number | null>;
  readonly sums: Record<(typeof SPAN_GROUP_SUMS)[number], number>;
  readonly lists: Record<(typeof SPAN_GROUP_LISTS)[number], string[]>;
  /** Token sums per model (response, else request model; '' when none), for costs. */
  readonly models: readonly ModelTokens[];
  /** Each measure's value, by alias. */
  readonly metrics: Record<string, number | null>;
}

export interface ConversationSpan {
  readonly conversation_id: string;
  readonly operation_name: string | null;
  readonly trace_id: string;
  readonly span_id: string;
  readonly status_code: string;
  readonly started_at: number;
  readonly ended_at: number | null;
}

/**
 * /agents/search over the messages of spans (storage/spans/message-fanout.ts), each kept once per
 * conversation (else per trace) at its first occurrence: the earliest (started_at, span id,
 * order in the span) of the identical messages (same role and digest) of its stored spans, kept
 * right as spans are sent again, settled into a conversation later, or purged. A hit is that
 * occurrence: every filter (trace, conversation, the span's agent, provider and model, time)
 * applies to it, so a message repeated by a later turn is found at the turn that said it first.
 * With terms, a message matches when it holds every phrase (query/search-terms.ts); without, every
 * first occurrence the filters select is a hit. Hits come newest first (started_at, then span id
 * descending, then message order); `conversations` counts those of every hit.
 */
export interface SpanSearchQuery {
  readonly projectId: string;
  readonly terms: SearchTerms | null;
  readonly roles: readonly string[] | null;
  readonly traceId: string | null;
  readonly conversationId: string | null;
  /** The span's own agent name or its owner's. */
  readonly agentName: string | null;
  readonly providerName: string | null;
  readonly requestModel: string | null;
  readonly startedAfter: number | null;
  readonly startedBefore: number | null;
  readonly limit: number;
  readonly offset: number;
}

export interface SpanSearchHit {
  readonly conversation_id: string | null;
  readonly trace_id: string;
  readonly span_id: string;
  readonly role: string;
  readonly digest: string;
  readonly content: string;
  readonly started_at: number;
}

/** Spans started in [start, end), bucketed as floor((started_at - origin) / width), all microseconds. */
export interface SpanStatsQuery {
  readonly projectId: string;
  readonly where: Expr | null;
  readonly start: number;
  readonly end: number;
  readonly origin: number;
  readonly width: number;
  readonly keys: readonly { readonly alias: string; readonly field: FieldRef }[];
  /** The groups kept: the most spans first (then by keys), this many. */
  readonly groupLimit: number;
  readonly outputs: readonly StatsOutput[];
  /** Only spans of conversations carrying these signals (span-filters.ts). */
  readonly signals?: SpanSignalFilter | null;
  /** Applied one after the other before bucketing (span-filters.ts SpanGroupFilter). */
  readonly groupFilters?: readonly SpanGroupFilter[];
}

export interface SpanStatsResult {
  /** The kept groups, each its keys by alias, the most spans first (one empty group without keys). */
  readonly groups: Record<string, string | number | null>[];
  /** Only the (bucket, group) pairs that hold spans. */
  readonly cells: {
    readonly bucket: number;
    readonly keys: Record<string, string | number | null>;
    readonly values: Record<string, number | null>;
  }[];
}

export interface SpanStore {
  write(rows: readonly SpanRow[]): Promise<void>;
  query(q: SpansQuery): Promise<{ readonly rows: SpanRow[]; readonly total: number }>;
  /** The agent rollups (kept on write: storage/spans/span-rollups.ts), a page of them and how many there are. */
  agents(q: AgentsQuery): Promise<{ readonly rows: AgentRollupRow[]; readonly total: number }>;
  /**
   * The members of these orchestrators: each other agent of the traces an orchestrator ran, its
   * figures there summed over those traces (by agent, oldest first), by orchestrator name.
   */
  orchestratorMembers(projectId: string, orchestrators: readonly string[]): Promise<Map<string, AgentRollupRow[]>>;
  /** Spans grouped by the keys, with the bundle of figures; a page of groups and how many there are. */
  groups(q: SpanGroupsQuery): Promise<{ readonly rows: SpanGroupRow[]; readonly total: number }>;
  /** The first input and the last output messages (JSON text) of each conversation, by id. */
  conversationEnds(
    projectId: string,
    conversationIds: readonly string[],
  ): Promise<Map<string, { first: string | null; last: string | null }>>;
  /** The custom attribute keys of the matching spans, with how many spans carry each, most used first. */
  customAttrKeys(
    q: Pick<SpanGroupsQuery, 'projectId' | 'where' | 'startedAfter' | 'startedBefore' | 'limit' | 'offset'>,
  ): Promise<{ source: string; key: string; span_count: number }[]>;
  /** The first `perConversation` spans of each conversation (by start), light columns only. */
  conversationSpans(
    projectId: string,
    conversationIds: readonly string[],
    startedAfter: number | null,
    startedBefore: number | null,
    perConversation: number,
  ): Promise<ConversationSpan[]>;
  /** Every span of these traces (raw_span_dump left NULL), in no particular order. */
  traceSpans(projectId: string, traceIds: readonly string[]): Promise<SpanRow[]>;
  /** The traces (turns) holding a span of the conversation, by their first span's start, oldest first. */
  conversationTraces(projectId: string, conversationId: string): Promise<{ trace_id: string; started_at: number }[]>;
  stats(q: SpanStatsQuery): Promise<SpanStatsResult>;
  /** Custom attribute distributions of the spans of some groups (span-filters.ts). */
  distributions(q: SpanDistributionsQuery): Promise<SpanDistributionsResult>;
  /** A numeric histogram of spans or of groups' measures (span-filters.ts). */
  histogram(q: SpanHistogramQuery): Promise<SpanHistogramResult>;
  /** A page of message hits, and how many conversations (spans without one count as one) all hits span. */
  search(q: SpanSearchQuery): Promise<{ readonly hits: SpanSearchHit[]; readonly conversations: number }>;
  /** Every span of a project, for `weft copy` (in pages, oldest first). */
  all(projectId: string): AsyncIterable<SpanRow[]>;
  /**
   * Hard-deletes expired traces (docs/retention.md): a trace expires, whole, once one of its spans
   * started more than its project's current time-to-live before `now`. Takes the traces of up to
   * `limit` such spans, oldest first, with their message index, per-trace rollups, historical-turn
   * records and turn and step feedback, and recomputes the agent rollups they counted for.
   * Returns how many spans went (at least `limit` unless nothing expired is left).
   */
  purgeExpired(now: Micros, limit: number): Promise<number>;
}
