// One score job on a finished call: the scorer's own call (`LLMAsAJudgeScorer.score`, in a new
// trace, the judge's model call under it), then `wandb.runnable.<scorer>` feedback on the call
// with the verdict as `payload.output`, the scorer as runnable_ref, its call as call_ref and the
// monitor version as trigger_ref. The feedback's id comes from the job's key, so a job run
// twice (a lease that ran out while its worker was slow) leaves one row.
import type { CallStore, StoredCall } from '../../storage/calls/call-store.js';
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

export const SIGNALS_USER = 'weft-signals';
export const JUDGE_OP = 'LLMAsAJudgeScorer.score';

export interface ScoreJobDeps {
  readonly objects: ObjectStore;
  readonly calls: CallStore;
  readonly callsService: Pick<CallsService, 'start' | 'end'>;
  readonly feedback: Pick<FeedbackService, 'create'>;
  readonly completions: Pick<CompletionsService, 'complete'>;
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

export async function scoreCallJob(deps: ScoreJobDeps, job: ScoreJob): Promise<void> {
  const p = job.project_id;
  const monitor = await deps.objects.read(
    p,
    job.monitor_id,
    { kind: 'digest', digest: job.monitor_digest },
    {
      metadataOnly: true,
      includeLabels: false,
    },
  );
  if (monitor === null) throw new ScoreError(`Monitor ${job.monitor_id}:${job.monitor_digest} not found`, false);
  const caller: Caller = { userId: monitor.wb_user_id ?? SIGNALS_USER, username: SIGNALS_USER };
  const scorer = await readRef(deps.objects, p, job.scorer_ref);
  if (scorer.className !== 'LLMAsAJudgeScorer')
    throw new ScoreError(
      `Weft runs LLMAsAJudgeScorer scorers; ${scorer.name} is a ${scorer.className ?? 'plain object'}`,
      false,
    );
  const call = await deps.calls.get(p, job.target_id, { storageSize: false, totalStorageSize: false });
  if (call === null) throw new ScoreError(`Call ${job.target_id} is gone`, false);

  const callRef = `weave:///${p}/call/${call.id}`;
  const monitorRef = `weave:///${p}/object/${job.monitor_id}:${job.monitor_digest}`;
  const scorerCall = { id: uuidv7(), traceId: uuidv7() };
  await deps.callsService.start(
    {
      start: {
        project_id: p,
        id: scorerCall.id,
        trace_id: scorerCall.traceId,
        op_name: JUDGE_OP,
        started_at: formatTimestamp(nowMicros()),
        attributes: { source: 'signals', monitor: monitorRef },
        inputs: { self: job.scorer_ref, target: callRef },
      },
    },
    caller,
  );
  const end = (output: unknown, exception: string | null) =>
    deps.callsService.end({
      end: { project_id: p, id: scorerCall.id, ended_at: formatTimestamp(nowMicros()), exception, output, summary: {} },
    });
  let verdict: unknown;
  try {
    verdict = await runJudge(deps, scorer, {
      projectId: p,
      vars: callVars(call),
      traceId: scorerCall.traceId,
      parentId: scorerCall.id,
      caller,
    });
  } catch (err) {
    await end(null, err instanceof Error ? err.message : String(err));
    throw err;
  }
  await end(verdict, null);
  await deps.feedback.create(
    {
      id: feedbackIdOf(job.key),
      project_id: p,
      weave_ref: callRef,
      feedback_type: `wandb.runnable.${scorer.name}`,
      payload: { output: verdict },
      runnable_ref: job.scorer_ref,
      call_ref: `weave:///${p}/call/${scorerCall.id}`,
      trigger_ref: monitorRef,
      scorer_trace_id: scorerCall.traceId,
    },
    caller.userId,
  );
}
