// Signals: monitors that score what arrives. Finished calls and agent turns become score jobs
// (call-trigger.ts, turn-trigger.ts)
// in the durable queue (storage/signals), which the worker (score-worker.ts) runs: an
// LLMAsAJudgeScorer through the completions path, its verdict written as feedback
// (score-job.ts); a RemoteScorer is sent the target over HTTP (remote-scorer.ts).
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { CallPart } from '../../storage/calls/call-store.js';
import type { Store } from '../../storage/store.js';
import type { CallsService } from '../calls/calls-service.js';
import type { CompletionsService } from '../completions/completions-service.js';
import type { FeedbackService } from '../feedback/feedback-service.js';
import type { SafeFetch } from '../../outbound/safe-fetch.js';
import type { SecretsService } from '../secrets/secret-service.js';
import { createActiveMonitors } from './active-monitors.js';
import { createCallTrigger } from './call-trigger.js';
import { createTurnTrigger, endsTurn } from './turn-trigger.js';
import type { SpanRow } from '../../query/span-columns.js';
import type { ScoreJobStore } from '../../storage/signals/score-job-store.js';
import { scoreJob } from './score-job.js';
import type {
  ActionsExecuteBatchReq,
  CallsScoreReq,
  SignalsBackfillReq,
  SignalsPublishReq,
  SignalsStatusRes,
} from '../../api/signals.js';
import { formatTimestamp } from '../../time.js';
import { backfillMonitor, executeBatch, scoreCalls, type BackfillDeps } from './backfill.js';
import { SIGNAL_PRESETS } from './signal-presets.js';
import { publishSignal } from './signal-publisher.js';
import { createScoreWorker } from './score-worker.js';

export interface SignalsOptions {
  /** Jobs run at once (model calls in flight). */
  readonly concurrency: number;
  /** How often the queue is looked at when nothing woke the worker. */
  readonly pollMs: number;
  /** Jobs that may wait before new targets are left unscored. */
  readonly backlog: number;
  readonly log: (message: string, err?: unknown) => void;
}

export const SIGNALS_DEFAULTS = { concurrency: 4, pollMs: 5000, leaseMs: 300_000, backlog: 100_000 } as const;
/** How old the backlog figure may be when a trigger reads it. */
const BACKLOG_MAX_AGE_MS = 5000;

export interface SignalsDeps {
  readonly store: Store;
  readonly calls: CallsService;
  readonly feedback: FeedbackService;
  readonly completions: CompletionsService;
  readonly secrets: SecretsService;
  readonly fetch: SafeFetch;
}

export function createSignalsService(deps: SignalsDeps, opts: SignalsOptions) {
  const monitors = createActiveMonitors(deps.store.objects);
  const worker = createScoreWorker({
    jobs: deps.store.scoreJobs,
    owner: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
    concurrency: opts.concurrency,
    pollMs: opts.pollMs,
    leaseMs: SIGNALS_DEFAULTS.leaseMs,
    log: opts.log,
    run: (job) =>
      scoreJob(
        {
          objects: deps.store.objects,
          calls: deps.store.calls,
          spans: deps.store.spans,
          callsService: deps.calls,
          feedback: deps.feedback,
          completions: deps.completions,
          fetch: deps.fetch,
          secrets: deps.secrets,
        },
        job,
      ),
  });
  // Past the backlog, new targets are left unscored (logged once a minute) so that a judge
  // that cannot keep up never grows the queue without end.
  // One enqueue at a time, so that concurrent triggers do not all pass the check at once.
  let backlog = { at: 0, queued: 0, warnedAt: 0 };
  let gate: Promise<unknown> = Promise.resolve();
  const jobs: ScoreJobStore = {
    ...deps.store.scoreJobs,
    enqueue(list) {
      const run = gate.then(() => enqueueBounded(list));
      gate = run.catch(() => undefined);
      return run;
    },
  };
  async function enqueueBounded(list: Parameters<ScoreJobStore['enqueue']>[0]): Promise<number> {
    if (list.length === 0) return 0;
    if (Date.now() - backlog.at > BACKLOG_MAX_AGE_MS)
      backlog = { ...backlog, at: Date.now(), queued: await deps.store.scoreJobs.queued() };
    if (backlog.queued >= opts.backlog) {
      if (Date.now() - backlog.warnedAt > 60_000) {
        backlog.warnedAt = Date.now();
        opts.log(`signals backlog full (${backlog.queued} jobs waiting): new targets are not scored`);
      }
      return 0;
    }
    const added = await deps.store.scoreJobs.enqueue(list);
    backlog.queued += added;
    return added;
  }
  const callsEnded = createCallTrigger({ calls: deps.store.calls, monitors, jobs, wake: () => worker.wake() });

  const turnsEnded = createTurnTrigger({ spans: deps.store.spans, monitors, jobs, wake: () => worker.wake() });
  const backfills: BackfillDeps = {
    objects: deps.store.objects,
    calls: deps.store.calls,
    spans: deps.store.spans,
    enqueue: async (list) => {
      const added = await jobs.enqueue(list);
      if (added > 0) worker.wake();
      return added;
    },
  };

  return {
    /** Starts the worker, unless this server runs no jobs (concurrency 0); triggers still queue. */
    start: () => {
      if (opts.concurrency > 0) worker.start();
    },
    /** After agent spans were written: the turns they end may be scored. Never throws; errors are logged. */
    spansWritten(rows: readonly SpanRow[]): Promise<void> {
      const ended = new Map<string, SpanRow[]>();
      for (const r of rows) {
        if (!endsTurn(r)) continue;
        const p = String(r.project_id);
        (ended.get(p) ?? ended.set(p, []).get(p)!).push(r);
      }
      if (ended.size === 0) return Promise.resolve();
      return Promise.all([...ended].map(([project, roots]) => turnsEnded(project, roots))).then(
        () => undefined,
        (err) => opts.log('queueing score jobs failed', err),
      );
    },
    presets: () => ({ presets: [...SIGNAL_PRESETS] }),
    async publish(req: SignalsPublishReq, userId: string) {
      const out = await publishSignal(deps.store.objects, req, userId);
      monitors.forget(req.project_id);
      return out;
    },
    /** Each monitor's health from its jobs: `error` while its newest outcome is a failure. */
    async status(projectId: string): Promise<SignalsStatusRes> {
      const iso = (us: number | null) => (us === null ? null : formatTimestamp(us));
      const rows = (await deps.store.scoreJobs.health(projectId)).filter((h) => h.monitor_id !== '');
      return {
        monitors: rows.map(({ last_done_at, last_error_at, ...h }) => ({
          ...h,
          status:
            last_error_at !== null && (last_done_at === null || last_error_at > last_done_at)
              ? 'error'
              : last_done_at !== null
                ? 'ok'
                : null,
          last_error_at: iso(last_error_at),
          last_scored_at: iso(last_done_at),
        })),
      };
    },
    backfill: (req: SignalsBackfillReq) => backfillMonitor(backfills, req),
    async scoreCalls(req: CallsScoreReq) {
      await scoreCalls(backfills, req.project_id, req.call_ids, req.scorer_refs);
      return {};
    },
    async executeBatch(req: ActionsExecuteBatchReq) {
      await executeBatch(backfills, req.project_id, req.action_ref, req.call_ids);
      return {};
    },
    /** An object of the project was written here: its monitors are read again on next need. */
    objectWritten: (projectId: string) => monitors.forget(projectId),
    stop: () => worker.stop(),
    /** After calls were written: the ended ones may be scored. Never throws; errors are logged. */
    callsWritten(parts: readonly CallPart[]): Promise<void> {
      const ended = new Map<string, string[]>();
      for (const p of parts) {
        if (p.mode !== 'end') continue;
        const ids = ended.get(p.end.project_id) ?? ended.set(p.end.project_id, []).get(p.end.project_id)!;
        ids.push(p.end.id);
      }
      if (ended.size === 0) return Promise.resolve();
      return Promise.all([...ended].map(([project, ids]) => callsEnded(project, ids))).then(
        () => undefined,
        (err) => opts.log('queueing score jobs failed', err),
      );
    },
  };
}

export type SignalsService = ReturnType<typeof createSignalsService>;
