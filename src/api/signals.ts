// Request and response schemas of the scoring routes: Weft's /signals/* (preset judges, publishing
// a monitor with its scorer as the SDK would, each monitor's health from the scoring queue, and
// backfills over existing calls and turns), and Weave's /calls/score and older
// /actions/execute_batch, which queue the same work.
import { Type, type Static } from 'typebox';
import { DateTime, EmptyRes, Nullable, ProjectId, SafeInteger, Strict } from './common.js';
import { List, MAX_FILTER_LENGTH, MAX_NAMES } from './limits.js';
import { defineRoute } from './route-spec.js';

/** Most targets one backfill queues. */
export const MAX_BACKFILL = 10_000;

export const SignalKind = Type.Union([Type.Literal('rating'), Type.Literal('tags')], {
  description: 'rating: one score 0-1 per target; tags: the labels that apply (at most 10)',
});

export const SignalPreset = Type.Object({
  /** Stable id, also the default signal name (kebab case). */
  id: Type.String(),
  name: Type.String(),
  kind: SignalKind,
  description: Type.String(),
  /** The judge's prompt; {input_messages}, {output_messages}, {system_instructions}, {agent_name} are filled per turn. */
  scoring_prompt: Type.String(),
  /** For tag signals, the tag they write. */
  tags: Type.Array(Type.String()),
});
export type SignalPreset = Static<typeof SignalPreset>;

export const SignalsPresetsReq = Strict({ project_id: ProjectId });
export const SignalsPresetsRes = Type.Object({ presets: Type.Array(SignalPreset) });
export type SignalsPresetsRes = Static<typeof SignalsPresetsRes>;

const ModelId = Type.String({
  minLength: 1,
  maxLength: 512,
  description: 'The judge model, as /completions/create takes it: gpt-4o, claude-..., custom::<provider>::<model>',
});

export const PresetScorer = Strict({ type: Type.Literal('preset'), preset: Type.String(), model: ModelId });
export const CustomTagsScorer = Strict({
  type: Type.Literal('custom_tags'),
  tags: List(
    Strict({
      name: Type.String({ minLength: 1, maxLength: 36 }),
      definition: Type.String({ minLength: 1, maxLength: 2000 }),
    }),
    10,
    { minItems: 1 },
  ),
  include_tool_calls: Type.Optional(Type.Boolean({ default: false })),
  model: ModelId,
});
export const JudgeScorer = Strict({
  type: Type.Literal('judge'),
  kind: SignalKind,
  scoring_prompt: Type.String({ minLength: 1, maxLength: 100_000 }),
  model: ModelId,
});
export const RemoteScorerSpec = Strict({
  type: Type.Literal('remote'),
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'https (or an allowed host) endpoint' }),
  /** The entity secret holding a static bearer token; none: no Authorization header. */
  secret_name: Nullable(Type.String({ maxLength: 128 })),
});
export const SignalScorer = Type.Union([PresetScorer, CustomTagsScorer, JudgeScorer, RemoteScorerSpec]);
export type SignalScorer = Static<typeof SignalScorer>;

export const SignalsPublishReq = Strict({
  project_id: ProjectId,
  name: Type.String({
    pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$',
    description: 'The monitor and its scorer are objects of this id; publishing it again adds versions',
  }),
  description: Nullable(Type.String({ maxLength: 2000 })),
  target: Type.Union([Type.Literal('agent_turn'), Type.Literal('call')]),
  /** Call monitors: op names (any version) or op refs. */
  op_names: Type.Optional(List(Type.String({ minLength: 1 }), MAX_NAMES)),
  /** A filter over the call or the turn's root span (`{$expr: ...}`), checked like a Monitor's query. */
  query: Nullable(Type.Record(Type.String(), Type.Unknown())),
  sampling_rate: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 1 })),
  active: Type.Optional(Type.Boolean({ default: true })),
  scorer: SignalScorer,
});
export type SignalsPublishReq = Static<typeof SignalsPublishReq>;
export const SignalsPublishRes = Type.Object({ monitor_ref: Type.String(), scorer_ref: Type.String() });
export type SignalsPublishRes = Static<typeof SignalsPublishRes>;

export const SignalsStatusReq = Strict({ project_id: ProjectId });
export const MonitorHealth = Type.Object({
  monitor_id: Type.String(),
  /** error: the latest outcome was a failure (last_error says why); ok: it was a score; null: nothing ran yet. */
  status: Nullable(Type.Union([Type.Literal('ok'), Type.Literal('error')])),
  last_error: Nullable(Type.String()),
  last_error_at: Nullable(DateTime),
  last_scored_at: Nullable(DateTime),
  queued: Type.Integer(),
  running: Type.Integer(),
  done: Type.Integer(),
  failed: Type.Integer(),
});
export type MonitorHealth = Static<typeof MonitorHealth>;
export const SignalsStatusRes = Type.Object({ monitors: Type.Array(MonitorHealth) });
export type SignalsStatusRes = Static<typeof SignalsStatusRes>;

export const SignalsBackfillReq = Strict({
  project_id: ProjectId,
  monitor_ref: Type.String({ minLength: 1, description: "A Monitor's ref, or its object id (the latest version)" }),
  /** A subset of the monitor's scorers (refs); none: all of them. */
  scorer_refs: Type.Optional(List(Type.String(), MAX_NAMES)),
  /** Exactly these calls (call monitors) or turns (their trace ids); else the time range. */
  call_ids: Type.Optional(List(Type.String(), MAX_FILTER_LENGTH)),
  trace_ids: Type.Optional(List(Type.String(), MAX_FILTER_LENGTH)),
  after: Nullable(DateTime),
  before: Nullable(DateTime),
  limit: Type.Optional(SafeInteger({ minimum: 1, description: `At most ${MAX_BACKFILL}; default 1000` })),
});
export type SignalsBackfillReq = Static<typeof SignalsBackfillReq>;
export const SignalsBackfillRes = Type.Object({
  /** Targets the selection found. */
  matched: Type.Integer(),
  /** Jobs queued; a target already scored by that monitor version and scorer is not queued again. */
  queued: Type.Integer(),
});
export type SignalsBackfillRes = Static<typeof SignalsBackfillRes>;

export const CallsScoreReq = Strict({
  project_id: ProjectId,
  call_ids: List(Type.String(), MAX_FILTER_LENGTH, { minItems: 1 }),
  scorer_refs: List(Type.String(), MAX_NAMES, { minItems: 1 }),
  wb_user_id: Nullable(Type.String({ description: 'Ignored: the caller is the key holder' })),
});
export type CallsScoreReq = Static<typeof CallsScoreReq>;

export const ActionsExecuteBatchReq = Strict({
  project_id: ProjectId,
  action_ref: Type.String({ minLength: 1, description: 'A scorer (LLMAsAJudgeScorer, RemoteScorer) or a Monitor' }),
  call_ids: List(Type.String(), MAX_FILTER_LENGTH, { minItems: 1 }),
  wb_user_id: Nullable(Type.String({ description: 'Ignored: the caller is the key holder' })),
});
export type ActionsExecuteBatchReq = Static<typeof ActionsExecuteBatchReq>;

const tag = 'Signals';
export const signalsRoutes = {
  signalsPresets: defineRoute({
    access: 'read',
    id: 'signals_presets',
    method: 'POST',
    path: '/signals/presets',
    tag,
    summary: "The preset signals: each judge's kind, prompt and tags",
    body: SignalsPresetsReq,
    response: SignalsPresetsRes,
    errors: [400, 401, 403],
  }),
  signalsPublish: defineRoute({
    access: 'write',
    id: 'signals_publish',
    method: 'POST',
    path: '/signals/publish',
    tag,
    summary: 'Publish a monitor and its scorer (a preset, custom tags, a judge prompt or a remote scorer)',
    body: SignalsPublishReq,
    response: SignalsPublishRes,
    errors: [400, 401, 403, 404],
  }),
  signalsStatus: defineRoute({
    access: 'read',
    id: 'signals_status',
    method: 'POST',
    path: '/signals/status',
    tag,
    summary: "Each monitor's health: its latest outcome, last error and jobs by state",
    body: SignalsStatusReq,
    response: SignalsStatusRes,
    errors: [400, 401, 403],
  }),
  signalsBackfill: defineRoute({
    access: 'write',
    id: 'signals_backfill',
    method: 'POST',
    path: '/signals/backfill',
    tag,
    summary: 'Score existing calls or turns with a monitor (or some of its scorers), through the queue',
    body: SignalsBackfillReq,
    response: SignalsBackfillRes,
    errors: [400, 401, 403, 404],
  }),
  callsScore: defineRoute({
    access: 'write',
    id: 'calls_score',
    method: 'POST',
    path: '/calls/score',
    tag,
    summary: 'Score calls with scorers, asynchronously (feedback arrives as each job ends)',
    body: CallsScoreReq,
    response: EmptyRes,
    errors: [400, 401, 403, 404],
  }),
  actionsExecuteBatch: defineRoute({
    access: 'write',
    id: 'actions_execute_batch',
    method: 'POST',
    path: '/actions/execute_batch',
    tag,
    summary: "Weave's older batch scoring: a scorer or monitor over calls, asynchronously",
    body: ActionsExecuteBatchReq,
    response: EmptyRes,
    errors: [400, 401, 403, 404],
  }),
} as const;
