// Reads of whole traces on ClickHouse: a trace's spans (chat), a conversation's turns, its
// spans per conversation and its first and last messages. Each reads the newest version of the
// spans of the traces concerned (latestOfTraces), not the table under FINAL.
import type { ClickHouseClient } from '@clickhouse/client';
import { SPAN_COLUMNS, type SpanRow } from '../../../query/span-columns.js';
import type { SpanStore } from '../../spans/span-store.js';
import { selectRows } from '../engine/client.js';
import { ChParams } from '../engine/dialect.js';

/**
 * The newest version (highest seq) of each span of the traces `traces` selects: FINAL's answer,
 * reading those traces' rows only, where FINAL merges the whole table (200 traces of 1M spans:
 * 0.12 s against 1.4 s). Every version of a span shares its trace, so all of them are read.
 * Binds {p:String}, the project.
 */
export const latestOfTraces = (table: string, cols: string, traces: string) =>
  `SELECT ${cols} FROM ${table} AS s WHERE project_id = {p:String} AND trace_id IN (${traces}) ORDER BY seq DESC LIMIT 1 BY trace_id, span_id`;
/** The traces of the {t:Array(String)} parameter. */
export const TRACES = 'SELECT arrayJoin({t:Array(String)})';

type TraceReads = Pick<SpanStore, 'conversationSpans' | 'conversationEnds' | 'traceSpans' | 'conversationTraces'>;

export function createClickHouseTraceReads(
  client: ClickHouseClient,
  table: string,
  decoded: (row: Record<string, unknown>) => SpanRow,
): TraceReads {
  return {
    async conversationSpans(projectId, ids, after, before, perConversation) {
      if (ids.length === 0) return [];
      const params = new ChParams();
      const bounds = [
        after === null ? '' : ` AND started_at >= ${params.add(after, 'Int64')}`,
        before === null ? '' : ` AND started_at < ${params.add(before, 'Int64')}`,
      ].join('');
      const rows = await selectRows<Record<string, unknown>>(
        client,
        `SELECT * FROM (${latestOfTraces(
          table,
          'conversation_id, operation_name, trace_id, span_id, status_code, started_at, ended_at',
          `SELECT trace_id FROM ${table} WHERE project_id = {p:String} AND conversation_id IN (SELECT arrayJoin({ids:Array(String)}))`,
        )}) WHERE conversation_id IN (SELECT arrayJoin({ids:Array(String)}))${bounds}
         ORDER BY conversation_id, started_at, span_id LIMIT ${params.add(perConversation, 'Int64')} BY conversation_id`,
        { ...params.values, p: projectId, ids },
      );
      return rows.map((r) => ({
        conversation_id: String(r.conversation_id),
        operation_name: (r.operation_name ?? null) as string | null,
        trace_id: String(r.trace_id),
        span_id: String(r.span_id),
        status_code: String(r.status_code),
        started_at: Number(r.started_at),
        ended_at: r.ended_at === null ? null : Number(r.ended_at),
      }));
    },

    async conversationEnds(projectId, ids) {
      const out = new Map<string, { first: string | null; last: string | null }>();
      if (ids.length === 0) return out;
      const rows = await selectRows<{ c: string; first: string; last: string }>(
        client,
        `SELECT conversation_id AS c,
           argMinIf(input_messages, (started_at, span_id), input_messages != '[]') AS first,
           argMaxIf(output_messages, (coalesce(ended_at, started_at), span_id), output_messages != '[]') AS last
         FROM (${latestOfTraces(
           table,
           'trace_id, span_id, conversation_id, started_at, ended_at, input_messages, output_messages',
           `SELECT trace_id FROM ${table} WHERE project_id = {p:String} AND conversation_id IN (SELECT arrayJoin({ids:Array(String)}))`,
         )}) WHERE conversation_id IN (SELECT arrayJoin({ids:Array(String)}))
         GROUP BY conversation_id`,
        { p: projectId, ids },
      );
      for (const id of ids) out.set(id, { first: null, last: null });
      for (const r of rows)
        out.set(r.c, { first: r.first === '' ? null : r.first, last: r.last === '' ? null : r.last });
      return out;
    },

    async traceSpans(projectId, traceIds) {
      if (traceIds.length === 0) return [];
      const cols = SPAN_COLUMNS.map((c) => (c === 'raw_span_dump' ? 'NULL AS raw_span_dump' : c)).join(', ');
      const rows = await selectRows<Record<string, unknown>>(client, latestOfTraces(table, cols, TRACES), {
        p: projectId,
        t: traceIds,
      });
      return rows.map(decoded);
    },

    async conversationTraces(projectId, conversationId) {
      const rows = await selectRows<{ trace_id: string; started_at: string }>(
        client,
        // A trace is the conversation's when a span's newest version still says so.
        `SELECT trace_id, min(started_at) AS started_at FROM (${latestOfTraces(
          table,
          'trace_id, span_id, started_at, conversation_id',
          `SELECT trace_id FROM ${table} WHERE project_id = {p:String} AND conversation_id = {c:String}`,
        )}) GROUP BY trace_id HAVING countIf(conversation_id = {c:String}) > 0 ORDER BY started_at, trace_id`,
        { p: projectId, c: conversationId },
      );
      return rows.map((r) => ({ trace_id: r.trace_id, started_at: Number(r.started_at) }));
    },
  };
}
