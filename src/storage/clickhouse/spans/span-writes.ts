// The write path of agent spans on ClickHouse (the span store's `write`): insert the spans as
// far as their batch settles them, then settle each trace they touch against its stored spans
// (storage/spans/span-settle.ts): a span whose owner or conversation changed is written again,
// whole, with a higher seq; the trace's rollups are replaced and its messages' first
// occurrences set right (span-message-writes.ts). Without transactions a failure part-way
// leaves the rest to the trace's next write; no span is lost.
//
// One write at a time per store, in a lane: a trace's rollups are read, then replaced (two
// writes of one trace at once could both take away its old figures). Writes that arrive while
// the lane is busy wait as one batch (as SQLite's writer groups its jobs), so each statement
// serves several requests; a batch that fails fails every write in it. Replicas of Weft over
// one ClickHouse do not share a lane (docs/agents.md). Values reach SQL only as parameters.
import type { ClickHouseClient } from '@clickhouse/client';
import { SPAN_COLUMNS, type SpanRow } from '../../../query/span-columns.js';
import { settleTrace, unsettled, type SettleSpan, type TraceSettlement } from '../../spans/span-settle.js';
import {
  ROLLUP_SUMS,
  contributionKey,
  traceContributions,
  type Contribution,
  type RollupSpan,
} from '../../spans/span-rollups.js';
import { selectRows } from '../engine/client.js';
import { chIdentifier } from '../engine/dialect.js';
import type { createClickHouseMessageWrites } from './span-message-writes.js';
import { latestOfTraces, TRACES } from './trace-reads.js';

/** Spans a batch of waiting writes holds at most. */
const BATCH_ROWS = 5000;
/**
 * What settling a trace reads of its stored spans: all but the span as received and the custom
 * attributes (half the bytes of a span), which only a span written again needs.
 */
const HEAVY = new Set([
  'raw_span_dump',
  'custom_attrs_string',
  'custom_attrs_int',
  'custom_attrs_float',
  'custom_attrs_bool',
]);
const SETTLE_COLUMNS = SPAN_COLUMNS.filter((c) => !HEAVY.has(c)).join(', ');

type MessageWrites = ReturnType<typeof createClickHouseMessageWrites>;
const spanKey = (r: SpanRow) => `${r.project_id}\u0000${r.trace_id}\u0000${r.span_id}`;

/** The rows grouped by a key, in first-seen order. */
function groupBy<T>(rows: readonly T[], key: (row: T) => string): T[][] {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list === undefined) out.set(k, [r]);
    else list.push(r);
  }
  return [...out.values()];
}

/** A rollup row: its keys, each sum from `sum`, and the times. */
function rollupRow(projectId: string, c: Contribution, sum: (name: (typeof ROLLUP_SUMS)[number]) => number) {
  return {
    project_id: projectId,
    agent_name: c.agent_name,
    agent_version: c.agent_version,
    model: c.model,
    ...Object.fromEntries(ROLLUP_SUMS.map((k) => [k, sum(k)])),
    first_seen: Number(c.first_seen),
    last_seen: Number(c.last_seen),
  };
}

export function createClickHouseSpanWrites(
  client: ClickHouseClient,
  database: string,
  nextSeq: () => number,
  messages: MessageWrites,
  decoded: (row: Record<string, unknown>) => SpanRow,
) {
  const table = `${chIdentifier(database)}.spans`;
  const rollups = `${chIdentifier(database)}.agent_rollups`;
  const rollupsOfTraces = `${chIdentifier(database)}.agent_trace_rollups`;
  let lane: Promise<unknown> = Promise.resolve();
  /** The batch waiting for the lane, which later writes join (up to BATCH_ROWS spans). */
  let waiting: { rows: SpanRow[]; done: Promise<void> } | null = null;
  const insert = async (rows: readonly SpanRow[]) => {
    if (rows.length > 0)
      await client.insert({ table, values: rows.map((r) => ({ ...r, seq: nextSeq() })), format: 'JSONEachRow' });
  };

  /** Stored spans whole (the heavy columns too), for writing them again. */
  async function whole(projectId: string, spans: readonly SpanRow[]): Promise<Map<string, SpanRow>> {
    if (spans.length === 0) return new Map();
    const traces = [...new Set(spans.map((s) => String(s.trace_id)))];
    const rows = await selectRows<Record<string, unknown>>(
      client,
      latestOfTraces(table, SPAN_COLUMNS.join(', '), TRACES),
      {
        p: projectId,
        t: traces,
      },
    );
    return new Map(rows.map(decoded).map((r) => [spanKey(r), r]));
  }

  /**
   * Settles the traces against their stored spans: writes the spans that change again (whole:
   * from the batch when it holds them, else read), replaces the rollups and sets the messages'
   * first occurrences right, those three at once.
   */
  async function settleTraces(projectId: string, traceIds: readonly string[], batch: ReadonlyMap<string, SpanRow>) {
    const rows = (
      await selectRows<Record<string, unknown>>(client, latestOfTraces(table, SETTLE_COLUMNS, TRACES), {
        p: projectId,
        t: traceIds,
      })
    ).map(decoded);
    const byTrace = new Map<string, SpanRow[]>();
    for (const r of rows) byTrace.set(String(r.trace_id), [...(byTrace.get(String(r.trace_id)) ?? []), r]);
    const changed: SpanRow[] = [];
    const settlements = new Map<string, TraceSettlement>();
    for (const [traceId, spans] of byTrace) {
      // decoded() made every count and time a number: the rows are SettleSpans.
      const settlement = settleTrace(spans as unknown as SettleSpan[]);
      settlements.set(traceId, settlement);
      spans.forEach((s, i) => {
        const to = settlement.spans.get(String(s.span_id))!;
        if (!unsettled(s, to)) return;
        spans[i] = { ...s, ...to };
        changed.push(spans[i]!);
      });
    }
    const stored = await whole(
      projectId,
      changed.filter((s) => !batch.has(spanKey(s))),
    );
    // The light rows read the heavy columns as NULL: those come from the whole row.
    const light = (s: SpanRow) => Object.fromEntries(Object.entries(s).filter(([c]) => !HEAVY.has(c)));
    const again = changed.map((s) => ({ ...(batch.get(spanKey(s)) ?? stored.get(spanKey(s))!), ...light(s) }));
    await Promise.all([
      insert(again),
      replaceRollups(projectId, traceIds, byTrace, settlements),
      messages.write(projectId, byTrace),
    ]);
  }

  /** Replaces what these traces add to the agent rollups: the deltas, then the traces' new contributions. */
  async function replaceRollups(
    projectId: string,
    traceIds: readonly string[],
    byTrace: Map<string, SpanRow[]>,
    settlements: Map<string, TraceSettlement>,
  ) {
    const stored = await selectRows<Record<string, string | number>>(
      client,
      `SELECT * EXCEPT seq FROM ${rollupsOfTraces} WHERE project_id = {p:String} AND trace_id IN (SELECT arrayJoin({t:Array(String)}))
       ORDER BY seq DESC LIMIT 1 BY trace_id, agent_name, agent_version, model`,
      { p: projectId, t: traceIds },
    );
    const before = new Map<string, Record<string, string | number>>();
    for (const r of stored) before.set(`${r.trace_id}\u0000${contributionKey(r as unknown as Contribution)}`, r);
    const deltas: Record<string, unknown>[] = [];
    const traceRows: Record<string, unknown>[] = [];
    for (const [traceId, spans] of byTrace) {
      // decoded() made every count and time a number: the rows are RollupSpans.
      const settled = spans as unknown as RollupSpan[];
      for (const c of traceContributions(settled, settlements.get(traceId)!.orchestrators)) {
        const k = `${traceId}\u0000${contributionKey(c)}`;
        const old = before.get(k);
        before.delete(k);
        deltas.push(rollupRow(projectId, c, (name) => c.sums[name] - Number(old?.[name] ?? 0)));
        traceRows.push({
          ...rollupRow(projectId, c, (name) => c.sums[name]),
          trace_id: traceId,
          conversation_id: c.conversation_id,
          seq: nextSeq(),
        });
      }
    }
    // What a trace no longer adds (an owner that changed) is taken away, and its row zeroed.
    for (const old of before.values()) {
      const c = old as unknown as Contribution;
      deltas.push(rollupRow(projectId, c, (name) => -Number(old[name])));
      traceRows.push({
        ...rollupRow(projectId, c, () => 0),
        trace_id: old.trace_id,
        conversation_id: old.conversation_id,
        seq: nextSeq(),
      });
    }
    await Promise.all([
      deltas.length > 0 && client.insert({ table: rollups, values: deltas, format: 'JSONEachRow' }),
      traceRows.length > 0 && client.insert({ table: rollupsOfTraces, values: traceRows, format: 'JSONEachRow' }),
    ]);
  }

  async function writeNow(rows: readonly SpanRow[]) {
    // Settled as far as this batch knows its traces, so that most spans are written once.
    const settled = new Map<string, SpanRow>();
    for (const trace of groupBy(rows, (r) => `${r.project_id}\u0000${r.trace_id}`)) {
      const settlement = settleTrace(trace as unknown as SettleSpan[]);
      for (const r of trace) settled.set(spanKey(r), { ...r, ...settlement.spans.get(String(r.span_id))! });
    }
    // A span sent twice in the batch: its last version is the one written last, so kept.
    await Promise.all([insert(rows.map((r) => settled.get(spanKey(r))!)), messages.bodies(rows)]);
    const traces = new Map<string, Set<string>>();
    for (const r of rows) {
      const p = String(r.project_id);
      if (!traces.has(p)) traces.set(p, new Set());
      traces.get(p)!.add(String(r.trace_id));
    }
    for (const [projectId, ids] of traces) await settleTraces(projectId, [...ids], settled);
  }

  return {
    write(rows: readonly SpanRow[]): Promise<void> {
      if (rows.length === 0) return Promise.resolve();
      if (waiting !== null && waiting.rows.length < BATCH_ROWS) {
        waiting.rows.push(...rows);
        return waiting.done;
      }
      const batch = { rows: [...rows], done: Promise.resolve() };
      waiting = batch;
      batch.done = lane.then(() => {
        if (waiting === batch) waiting = null;
        return writeNow(batch.rows);
      });
      lane = batch.done.catch(() => undefined);
      return batch.done;
    },

    /** Runs `fn` in the write lane (a purge replaces rollup rows that writes add to). */
    inLane<T>(fn: () => Promise<T>): Promise<T> {
      const run = lane.then(fn);
      lane = run.catch(() => undefined);
      return run;
    },
  };
}
