// Scoring what is already stored, through the same queue as live scoring: a monitor (active or
// not, any version) over the calls or turns a request selects (ids, else a time range, newest
// first), its filter applied and its sample not (the user chose the targets). A target the
// monitor version and scorer scored before is not queued again (the job key is the same).
// `/calls/score` and `/actions/execute_batch` score calls with scorers and no monitor: each
// request is its own run (a fresh run id in the job's key), so asking again scores again.
import { randomUUID } from 'node:crypto';
import { InvalidFieldError, NotFoundError } from '../../api/errors.js';
import { MAX_BACKFILL, type SignalsBackfillReq } from '../../api/signals.js';
import { compileCallsQuery } from '../../query/compile-calls-query.js';
import { compileQuery } from '../../query/compile-query.js';
import type { Expr } from '../../query/plan.js';
import { spanFieldCatalog } from '../../query/span-fields.js';
import type { CallStore } from '../../storage/calls/call-store.js';
import type { ObjectStore, StoredObjectVersion, VersionSelector } from '../../storage/objects/object-store.js';
import { parseSelector } from '../objects/object-names.js';
import type { ScoreJobInput, ScoreTargetKind } from '../../storage/signals/score-job-store.js';
import type { SpanStore } from '../../storage/spans/span-store.js';
import { nowMicros, parseTimestamp } from '../../time.js';
import { isMonitorClass } from '../objects/monitor-query.js';
import { tryParseRef } from '../refs/refs.js';
import { type ActiveMonitor, ALL_SCORERS, parseMonitor, scoresTurns } from './active-monitors.js';
import { fromSignals, opMatches } from './call-trigger.js';
import { endsTurn } from './turn-trigger.js';

export const DEFAULT_BACKFILL = 1000;

export interface BackfillDeps {
  readonly objects: ObjectStore;
  readonly calls: CallStore;
  readonly spans: SpanStore;
  /** Queues jobs (bounded by the backlog); returns how many were new. */
  readonly enqueue: (jobs: readonly ScoreJobInput[]) => Promise<number>;
}

const column = (name: string, type: 'string' | 'int' | 'datetime'): Expr => ({
  kind: 'field',
  field: { kind: 'column', name, type },
});
const bound = (field: Expr, op: 'gte' | 'lt', micros: number | null): Expr[] =>
  micros === null ? [] : [{ kind: 'compare', op, left: field, right: { kind: 'literal', value: micros } }];

/** The object an object ref or a bare object id names in the project (bare: its latest version). */
async function readObjectRef(objects: ObjectStore, projectId: string, ref: string, what: string) {
  let id = ref;
  let selector: VersionSelector = { kind: 'latest' };
  if (ref.startsWith('weave:')) {
    const parsed = tryParseRef(ref);
    if (parsed === null || parsed.kind !== 'object' || parsed.projectId !== projectId)
      throw new InvalidFieldError(`Not an object ref of ${projectId}: ${ref}`, ['body', what]);
    id = parsed.name;
    selector = parseSelector(parsed.digest);
  }
  const v = await objects.read(projectId, id, selector, { metadataOnly: false, includeLabels: false });
  if (v === null || v.deleted_at !== null) throw new NotFoundError(`No object ${ref} in ${projectId}`);
  return v;
}

function asMonitor(v: StoredObjectVersion): ActiveMonitor | null {
  return isMonitorClass(v) ? parseMonitor(v, false) : null;
}

async function callTargets(deps: BackfillDeps, m: ActiveMonitor, req: SignalsBackfillReq, limit: number) {
  const q = compileCallsQuery({
    project_id: m.projectId,
    filter: req.call_ids?.length ? { call_ids: req.call_ids } : { op_names: [...m.opNames] },
    query: m.query,
    columns: ['id', 'op_name', 'ended_at', 'attributes'],
    sort_by: [{ field: 'started_at', direction: 'desc' }],
    limit,
  });
  const started = column('started_at', 'datetime');
  const range = [...bound(started, 'gte', micros(req.after)), ...bound(started, 'lt', micros(req.before))];
  const where = q.where === null ? range : [q.where, ...range];
  const ids: string[] = [];
  const all = { ...q, where: where.length === 0 ? null : ({ kind: 'and', items: where } as Expr) };
  for await (const c of deps.calls.query(all))
    if (c.ended_at !== null && opMatches(m.opNames, c.op_name) && !fromSignals(c.attributes)) ids.push(c.id);
  return ids;
}

async function turnTargets(deps: BackfillDeps, m: ActiveMonitor, req: SignalsBackfillReq, limit: number) {
  const parent = column('parent_span_id', 'string');
  const items: Expr[] = [
    {
      kind: 'or',
      items: [
        { kind: 'isNull', input: parent },
        { kind: 'compare', op: 'eq', left: parent, right: { kind: 'literal', value: '' } },
      ],
    },
  ];
  if (req.trace_ids?.length)
    items.push({
      kind: 'in',
      left: { kind: 'field', field: spanFieldCatalog.resolve('trace_id') },
      items: req.trace_ids.map((t) => ({ kind: 'literal', value: t })),
    });
  if (m.query !== null) items.push(compileQuery(m.query, spanFieldCatalog));
  const found = await deps.spans.query({
    projectId: m.projectId,
    where: { kind: 'and', items },
    sort: [{ field: spanFieldCatalog.resolve('started_at'), direction: 'desc' }],
    limit,
    offset: 0,
    startedAfter: micros(req.after),
    startedBefore: micros(req.before),
    columns: ['trace_id', 'parent_span_id', 'ended_at'],
  });
  return [...new Set(found.rows.filter(endsTurn).map((r) => String(r.trace_id)))];
}

const micros = (iso: string | null | undefined) => (iso ? parseTimestamp(iso) : null);

/** `/signals/backfill`: how many targets matched and how many jobs were new. */
export async function backfillMonitor(deps: BackfillDeps, req: SignalsBackfillReq) {
  const v = await readObjectRef(deps.objects, req.project_id, req.monitor_ref, 'monitor_ref');
  const m = asMonitor(v);
  if (m === null) throw new InvalidFieldError(`${req.monitor_ref} is not a Monitor`, ['body', 'monitor_ref']);
  // A ClassifierMonitor asks all of its scorers in one job (classifier-job.ts), unless some are picked.
  const scorers = req.scorer_refs ?? (m.classifier ? [ALL_SCORERS] : m.scorers);
  const unknown = req.scorer_refs?.find((s) => !m.scorers.includes(s));
  if (unknown !== undefined)
    throw new InvalidFieldError(`The monitor has no scorer ${unknown}`, ['body', 'scorer_refs']);
  const limit = Math.min(req.limit ?? DEFAULT_BACKFILL, MAX_BACKFILL);
  const turns = scoresTurns(m);
  const kind: ScoreTargetKind = turns ? 'agent_turn' : 'call';
  const targets = turns ? await turnTargets(deps, m, req, limit) : await callTargets(deps, m, req, limit);
  const at = nowMicros();
  const jobs = targets.flatMap((target_id) =>
    scorers.map((scorer_ref) => ({
      project_id: m.projectId,
      monitor_id: m.id,
      monitor_digest: m.digest,
      scorer_ref,
      target_kind: kind,
      target_id,
      created_at: at,
    })),
  );
  return { matched: targets.length, queued: await deps.enqueue(jobs) };
}

/** `/calls/score`: each scorer over each call (calls of the project only), as a new run. */
export async function scoreCalls(
  deps: BackfillDeps,
  projectId: string,
  callIds: readonly string[],
  scorerRefs: readonly string[],
) {
  for (const [i, ref] of scorerRefs.entries()) {
    const v = await readObjectRef(deps.objects, projectId, ref, `scorer_refs.${i}`);
    if (v.leaf_object_class !== 'LLMAsAJudgeScorer' && v.leaf_object_class !== 'RemoteScorer')
      throw new InvalidFieldError(`${ref} is not an LLMAsAJudgeScorer or RemoteScorer`, ['body', 'scorer_refs', i]);
  }
  const run = randomUUID();
  const at = nowMicros();
  const q = compileCallsQuery({ project_id: projectId, filter: { call_ids: [...callIds] }, columns: ['id'] });
  const ids: string[] = [];
  for await (const c of deps.calls.query(q)) ids.push(c.id);
  const jobs = ids.flatMap((target_id) =>
    scorerRefs.map((scorer_ref) => ({
      project_id: projectId,
      monitor_id: '',
      monitor_digest: run,
      scorer_ref,
      target_kind: 'call' as const,
      target_id,
      created_at: at,
    })),
  );
  return deps.enqueue(jobs);
}

/** `/actions/execute_batch`: a Monitor backfills the calls; a scorer scores them. */
export async function executeBatch(
  deps: BackfillDeps,
  projectId: string,
  actionRef: string,
  callIds: readonly string[],
) {
  const v = await readObjectRef(deps.objects, projectId, actionRef, 'action_ref');
  const m = asMonitor(v);
  if (m !== null) {
    if (scoresTurns(m))
      throw new InvalidFieldError('That monitor scores agent turns, not calls', ['body', 'action_ref']);
    const ref = `weave:///${projectId}/object/${v.object_id}:${v.digest}`;
    return backfillMonitor(deps, {
      project_id: projectId,
      monitor_ref: ref,
      call_ids: [...callIds],
      after: null,
      before: null,
    });
  }
  const ref = `weave:///${projectId}/object/${v.object_id}:${v.digest}`;
  return scoreCalls(deps, projectId, callIds, [ref]);
}
