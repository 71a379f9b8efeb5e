// One score job: the scorer's own call (`LLMAsAJudgeScorer.score`, in a new trace, the judge's
// model call under it), then feedback on the target with the verdict as `payload.output`, the
// scorer as runnable_ref, its call as call_ref and the monitor version as trigger_ref: on a call
// `wandb.runnable.<scorer>`; on an agent turn `wandb.agent_monitor` with the verdict's tags and
// rating in their columns (verdict.ts; the turn's span_* columns are filled on write). The
// feedback's id comes from the job's key, so a job run twice (a lease that ran out while its
// worker was slow) leaves one row.
import type { FeedbackCreateReq } from '../../api/feedback.js';
import type { CallStore, StoredCall } from '../../storage/calls/call-store.js';
import type { SpanStore } from '../../storage/spans/span-store.js';
import type { ObjectStore } from '../../storage/objects/object-store.js';
import type { ScoreJob } from '../../storage/signals/score-job-store.js';
import { formatTimestamp, nowMicros } from '../../time.js';
import type { CallsService, Caller } from '../calls/calls-service.js';
import type { CompletionsService } from '../completions/completions-service.js';
import type { FeedbackService } from '../feedback/feedback-service.js';
import { uuidv7 } from '../json/ids.js';
import { runJudge } from './llm-judge.js';
import { ScoreError } from './score-error.js';
import { readRef } from './scorer-objects.js';
import { turnVars } from './turn-vars.js';
import { runRemoteScorer, type RemoteTarget } from './remote-scorer.js';
import { callTarget, turnTarget } from './remote-targets.js';
import type { SafeFetch } from '../../outbound/safe-fetch.js';
import type { SecretsService } from '../secrets/secret-service.js';
import { verdictColumns } from './verdict.js';
import { agentRefUri } from '../refs/refs.js';
import { type ActiveMonitor, ALL_SCORERS, parseMonitor } from './active-monitors.js';
import { debouncedGroup, groupVars } from './debounce-group.js';
import { scoreClassifiers } from './classifier-job.js';

export const SIGNALS_USER = 'weft-signals';
export const JUDGE_OP = 'LLMAsAJudgeScorer.score';
export const REMOTE_OP = 'RemoteScorer.score';

export interface ScoreJobDeps {
  readonly objects: ObjectStore;
  readonly calls: CallStore;
  readonly spans: SpanStore;
  readonly callsService: Pick<CallsService, 'start' | 'end'>;
  readonly feedback: Pick<FeedbackService, 'create'>;
  readonly completions: Pick<CompletionsService, 'complete'>;
  /** Remote scorers' requests (outbound rules) and their secrets. */
  readonly fetch: SafeFetch;
  readonly secrets: Pick<SecretsService, 'value'>;
}

/** A uuid-shaped id from the job's key (32 hex digits). */
export const feedbackIdOf = (key: string) =>
  `${key.slice(0, 8)}-${key.slice(8, 12)}-${key.slice(12, 16)}-${key.slice(16, 20)}-${key.slice(20, 32)}`;

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? null));

/** `{output}`, `{inputs}` and each input by name, as the prompt sees them (text). */
export function callVars(call: StoredCall): Record<string, string> {
  const inputs = JSON.parse(call.inputs) as Record<string, unknown>;
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(inputs)) vars[k] = text(v);
  vars.inputs = call.inputs;
  vars.output = text(call.output === null ? null : JSON.parse(call.output));
  return vars;
}

export interface Target {
  /** The ref feedback is written on. */
  readonly ref: string;
  readonly vars: Record<string, string>;
  /** What a remote scorer is sent. */
  readonly remote: () => RemoteTarget;
  /** The feedback's type and typed columns for a verdict. */
  readonly feedback: (
    scorerName: string,
    verdict: unknown,
  ) => Pick<FeedbackCreateReq, 'feedback_type'> & Partial<FeedbackCreateReq>;
}

/** The job's target; null when a debounced call stands down for a newer one of its group. */
async function targetOf(deps: ScoreJobDeps, job: ScoreJob, monitor: ActiveMonitor | null): Promise<Target | null> {
  const p = job.project_id;
  if (job.target_kind === 'call') {
    const call = await deps.calls.get(p, job.target_id, { storageSize: false, totalStorageSize: false });
    if (call === null) throw new ScoreError(`Call ${job.target_id} is gone`, false);
    let vars = callVars(call);
    if (monitor?.debounce) {
      const group = await debouncedGroup(deps.calls, { ...monitor, debounce: monitor.debounce }, call);
      if (group === null) return null;
      if (monitor.debounce.method === 'all_messages') vars = { ...vars, ...groupVars(group) };
    }
    return {
      ref: `weave:///${p}/call/${call.id}`,
      vars,
      remote: () => callTarget(call),
      feedback: (name) => ({ feedback_type: `wandb.runnable.${name}` }),
    };
  }
  const rows = await deps.spans.traceSpans(p, [job.target_id]);
  if (rows.length === 0) throw new ScoreError(`Agent turn ${job.target_id} is gone`, false);
  return {
    ref: agentRefUri(p, 'agent_turn', job.target_id),
    vars: turnVars(rows),
    remote: () => turnTarget(rows),
    feedback: (_name, verdict) => ({ feedback_type: 'wandb.agent_monitor', ...verdictColumns(verdict) }),
  };
}

/**
 * The job's monitor version, and who it scores as: the version's author; a job without a
 * monitor (`/calls/score`) scores as Weft's own user.
 */
async function monitorOf(deps: ScoreJobDeps, job: ScoreJob) {
  if (job.monitor_id === '') return { caller: { userId: SIGNALS_USER, username: SIGNALS_USER }, monitor: null };
  const v = await deps.objects.read(
    job.project_id,
    job.monitor_id,
    { kind: 'digest', digest: job.monitor_digest },
    { metadataOnly: false, includeLabels: false },
  );
  if (v === null) throw new ScoreError(`Monitor ${job.monitor_id}:${job.monitor_digest} not found`, false);
  const caller: Caller = { userId: v.wb_user_id ?? SIGNALS_USER, username: SIGNALS_USER };
  return { caller, monitor: parseMonitor(v, false) };
}

const isEmptyVerdict = (f: Partial<FeedbackCreateReq>) =>
  [f.scorer_tags, f.scorer_ratings, f.scorer_tag_reasons].every(
    (v) => v === undefined || v === null || Object.keys(v).length === 0,
  );

/** What every scorer of one job shares: the job, its target, who it scores as, its monitor. */
export interface JobContext {
  readonly deps: ScoreJobDeps;
  readonly job: ScoreJob;
  readonly caller: Caller;
  readonly target: Target;
  readonly monitor: ActiveMonitor | null;
  readonly monitorRef: string | null;
}

export interface ScorerCall {
  readonly id: string;
  readonly traceId: string;
}

/**
 * Runs `run` inside a new trace's call `op` (the scorer's run, `source: "signals"`): its output
 * the verdict, or its exception the failure, which is thrown on.
 */
export async function inScorerCall<T>(
  ctx: JobContext,
  op: string,
  inputs: Record<string, unknown>,
  run: (call: ScorerCall) => Promise<T>,
): Promise<{ verdict: T; call: ScorerCall }> {
  const p = ctx.job.project_id;
  const call = { id: uuidv7(), traceId: uuidv7() };
  await ctx.deps.callsService.start(
    {
      start: {
        project_id: p,
        id: call.id,
        trace_id: call.traceId,
        op_name: op,
        started_at: formatTimestamp(nowMicros()),
        attributes: { source: 'signals', ...(ctx.monitorRef === null ? {} : { monitor: ctx.monitorRef }) },
        inputs: { ...inputs, target: ctx.target.ref },
      },
    },
    ctx.caller,
  );
  const end = (output: unknown, exception: string | null) =>
    ctx.deps.callsService.end({
      end: { project_id: p, id: call.id, ended_at: formatTimestamp(nowMicros()), exception, output, summary: {} },
    });
  let verdict: T;
  try {
    verdict = await run(call);
  } catch (err) {
    await end(null, err instanceof Error ? err.message : String(err));
    throw err;
  }
  await end(verdict, null);
  return { verdict, call };
}

/**
 * Writes a scorer's verdict on the target (`typed`: its type and columns, from
 * target.feedback); a turn's verdict with no tag and no rating writes nothing, as in Weave.
 */
export async function writeVerdict(
  ctx: JobContext,
  typed: ReturnType<Target['feedback']>,
  verdict: unknown,
  scorerRef: string,
  call: ScorerCall,
  feedbackId: string,
): Promise<void> {
  if (typed.feedback_type === 'wandb.agent_monitor' && isEmptyVerdict(typed)) return;
  const p = ctx.job.project_id;
  await ctx.deps.feedback.create(
    {
      ...typed,
      id: feedbackId,
      project_id: p,
      weave_ref: ctx.target.ref,
      payload: { output: verdict },
      runnable_ref: scorerRef,
      call_ref: `weave:///${p}/call/${call.id}`,
      trigger_ref: ctx.monitorRef,
      scorer_trace_id: call.traceId,
    },
    ctx.caller.userId,
  );
}

/** One scorer over the job's target: an LLMAsAJudgeScorer, or a RemoteScorer. */
export async function scoreWith(ctx: JobContext, scorerRef: string, feedbackId: string): Promise<void> {
  const { deps, job } = ctx;
  const p = job.project_id;
  const scorer = await readRef(deps.objects, p, scorerRef);
  const remote = scorer.className === 'RemoteScorer';
  if (!remote && scorer.className !== 'LLMAsAJudgeScorer')
    throw new ScoreError(
      `Weft runs LLMAsAJudgeScorer and RemoteScorer scorers; ${scorer.name} is a ${scorer.className ?? 'plain object'}`,
      false,
    );
  const { verdict, call } = await inScorerCall(ctx, remote ? REMOTE_OP : JUDGE_OP, { self: scorerRef }, (c) =>
    remote
      ? runRemoteScorer(
          { fetch: deps.fetch, secret: (name) => deps.secrets.value(p.slice(0, p.indexOf('/')), name) },
          {
            scorer: { name: scorer.name, ref: scorerRef, val: scorer.val },
            monitor: { name: job.monitor_id, digest: ctx.monitorRef === null ? '' : job.monitor_digest },
            scoringCallId: c.id,
            scoringTraceId: c.traceId,
            idempotencyKey: `${job.key}-v${ctx.target.remote().schemaVersion}`,
            target: ctx.target.remote(),
          },
        )
      : runJudge(deps, scorer, {
          projectId: p,
          vars: ctx.target.vars,
          traceId: c.traceId,
          parentId: c.id,
          caller: ctx.caller,
        }),
  );
  // A verdict that does not normalize fails the job before anything of it is written.
  await writeVerdict(ctx, ctx.target.feedback(scorer.name, verdict), verdict, scorerRef, call, feedbackId);
}

export async function scoreJob(deps: ScoreJobDeps, job: ScoreJob): Promise<void> {
  const p = job.project_id;
  const { caller, monitor } = await monitorOf(deps, job);
  const target = await targetOf(deps, job, monitor);
  if (target === null) return;
  const monitorRef = job.monitor_id === '' ? null : `weave:///${p}/object/${job.monitor_id}:${job.monitor_digest}`;
  const ctx: JobContext = { deps, job, caller, target, monitor, monitorRef };
  if (job.scorer_ref === ALL_SCORERS) return scoreClassifiers(ctx, monitor?.scorers ?? []);
  return scoreWith(ctx, job.scorer_ref, feedbackIdOf(job.key));
}
