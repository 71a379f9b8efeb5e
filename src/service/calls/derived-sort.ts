// Sorting calls by what no engine computes exactly in SQL: a call's total tokens (each
// provider's counts read as llm-usage.ts reads them) and its USD cost (the catalogue's model
// matching and dated, tiered prices: cost-summary.ts). One pass over the matching calls'
// (id, started_at, summary) ranks them, keeping only the best of them in memory (the page's
// end, at least PREFIX); the page is then read by id, in rank order. Ties keep the order of the rest of sort_by (newest
// first when there is none). Calls without usage, or with nothing priced, come last in
// either direction, so that the top of either order is a call that has the number.
//
// A first page (offset 0) always ranks afresh, and keeps the best PREFIX ids for a minute:
// the pages after it are cut from that ranking, so paging through a sorted set (the calls
// table's windows) sees one order, however calls arrive meanwhile, and costs one read each.
import type { SortBy } from '../../api/common.js';
import type { CallsQueryReq } from '../../api/calls.js';
import { CALL_DERIVED_SORT_FIELDS, type CallDerivedSortField } from '../../query/calls-fields.js';
import type { CallsQuery } from '../../query/calls-query.js';
import type { Expr } from '../../query/plan.js';
import type { StoredCall } from '../../storage/calls/call-store.js';
import type { Store } from '../../storage/store.js';
import { usageOf, tokensOf } from '../costs/llm-usage.js';
import { createUsageCostMeter } from '../costs/usage-cost-meter.js';

export interface DerivedSort {
  readonly field: CallDerivedSortField;
  readonly direction: 'asc' | 'desc';
  /** sort_by without its first term (or newest first): what breaks ties. */
  readonly rest: readonly SortBy[];
}

/** The derived sort the request asks for (its first sort_by term), or null. */
export function derivedSortOf(req: Pick<CallsQueryReq, 'sort_by'>): DerivedSort | null {
  const [first, ...rest] = req.sort_by ?? [];
  if (first === undefined || !(CALL_DERIVED_SORT_FIELDS as readonly string[]).includes(first.field)) return null;
  return {
    field: first.field as CallDerivedSortField,
    direction: first.direction,
    rest: rest.length > 0 ? rest : [{ field: 'started_at', direction: 'desc' }],
  };
}

interface Ranked {
  readonly id: string;
  readonly key: number | null;
  readonly seq: number;
}

/** Rows read between two price loads (cost) and two trims of the kept set. */
const SCAN_CHUNK = 1000;
/** Ids per read of the ranked page. */
const PAGE_CHUNK = 500;
/** A ranking keeps at least this many ids (ten of the calls table's windows of 200). */
const PREFIX = 2000;
/** How long the pages after a first page reuse its ranking. */
const REUSE_MS = 60_000;
/** Rankings kept, and the most ids one may hold (an export of everything is not kept). */
const MAX_RANKINGS = 16;
const MAX_KEPT_IDS = 50_000;

interface Ranking {
  readonly ids: readonly string[];
  /** Every matching call is in `ids`. */
  readonly complete: boolean;
  readonly at: number;
}

export type CallRankings = ReturnType<typeof createCallRankings>;

/** The rankings of one service: the ids of a page, reusing a first page's ranking for the pages after it. */
export function createCallRankings(now: () => number = Date.now) {
  const kept = new Map<string, Ranking>();
  return {
    async page(store: Store, q: CallsQuery, sort: DerivedSort): Promise<string[]> {
      const offset = q.offset ?? 0;
      const end = q.limit === null ? Number.POSITIVE_INFINITY : offset + q.limit;
      if (end === 0) return [];
      const key = JSON.stringify([q.projectId, q.where, q.sort, sort.field, sort.direction]);
      const hit = offset > 0 ? kept.get(key) : undefined;
      if (hit !== undefined && now() - hit.at < REUSE_MS && (hit.complete || end <= hit.ids.length))
        return hit.ids.slice(offset, end);
      const ranking = { ...(await rank(store, q, sort, Math.max(end, PREFIX))), at: now() };
      kept.delete(key);
      if (ranking.ids.length <= MAX_KEPT_IDS) kept.set(key, ranking);
      if (kept.size > MAX_RANKINGS) kept.delete(kept.keys().next().value!);
      return ranking.ids.slice(offset, end);
    },
  };
}

function comparator(direction: 'asc' | 'desc') {
  const sign = direction === 'asc' ? 1 : -1;
  return (a: Ranked, b: Ranked) => {
    if (a.key === null || b.key === null) return a.key === b.key ? a.seq - b.seq : a.key === null ? 1 : -1;
    return a.key === b.key ? a.seq - b.seq : sign * (a.key - b.key);
  };
}

/**
 * The calls of `q` (compiled with the tie-breaking sort, its limit and offset) in the order of
 * `sort`, as `q` would stream them: only q's columns are filled.
 */
export async function* derivedSortedCalls(
  store: Store,
  rankings: CallRankings,
  q: CallsQuery,
  sort: DerivedSort,
): AsyncGenerator<StoredCall> {
  const ids = await rankings.page(store, q, sort);
  for (let i = 0; i < ids.length; i += PAGE_CHUNK) {
    const chunk = ids.slice(i, i + PAGE_CHUNK);
    const idIn: Expr = {
      kind: 'in',
      left: { kind: 'field', field: { kind: 'column', name: 'id', type: 'string' } },
      items: chunk.map((value) => ({ kind: 'literal', value })),
    };
    const where: Expr = q.where === null ? idIn : { kind: 'and', items: [idIn, q.where] };
    const byId = new Map<string, StoredCall>();
    for await (const call of store.calls.query({ ...q, where, sort: [], limit: null, offset: null }))
      byId.set(call.id, call);
    // A call deleted between the two reads is left out.
    for (const id of chunk) {
      const call = byId.get(id);
      if (call !== undefined) yield call;
    }
  }
}

/** The best `keep` ids of q's calls, best first, and whether they are all of them. */
async function rank(
  store: Store,
  q: CallsQuery,
  sort: DerivedSort,
  keep: number,
): Promise<{ ids: string[]; complete: boolean }> {
  const compare = comparator(sort.direction);
  const meter = sort.field === 'summary.weave.total_cost' ? createUsageCostMeter(store.costs, q.projectId) : null;
  let kept: Ranked[] = [];
  let rows: { id: string; startedAt: number; summary: string | null }[] = [];
  let seq = 0;
  const flush = async () => {
    const usages = rows.map((r) => usageOf(r.summary));
    if (meter !== null) await meter.load(usages.flatMap((u) => [...u.keys()]));
    rows.forEach((r, i) => {
      const usage = usages[i]!;
      const key = usage.size === 0 ? null : meter === null ? tokensOf(usage) : meter.costOf(usage, r.startedAt);
      kept.push({ id: r.id, key, seq: seq++ });
    });
    rows = [];
    if (kept.length > 2 * keep) kept = kept.sort(compare).slice(0, keep);
  };
  const scan: CallsQuery = {
    ...q,
    columns: ['id', 'started_at', 'summary'],
    limit: null,
    offset: null,
    includeStorageSize: false,
    includeTotalStorageSize: false,
  };
  for await (const call of store.calls.query(scan)) {
    rows.push({ id: call.id, startedAt: call.started_at, summary: call.summary });
    if (rows.length >= SCAN_CHUNK) await flush();
  }
  await flush();
  const best = kept.sort(compare).slice(0, keep);
  return { ids: best.map((r) => r.id), complete: seq <= keep };
}
