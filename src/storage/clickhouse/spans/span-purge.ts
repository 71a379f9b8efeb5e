// The retention purge of agent spans on ClickHouse (SpanStore.purgeExpired; the rule is
// SQLite's, sqlite/spans/span-purge.ts): a trace expires, whole, once one of its spans started
// more than its project's current time-to-live ago, and goes with the bodies no message of the
// project names any more, per-trace rollups, historical-turn records and
// turn and step feedback; what its messages said first is handed to their next occurrences
// (span-message-writes.ts). The agent rollups it counted for are recomputed from the per-trace
// rollups of the other traces: a min and a max cannot be taken away by a delta row, so the
// keys' rows are deleted and one recomputed row each inserted.
//
// No transactions: the statements run in an order a failure can resume. The spans go last, so
// a pass that fails finds the same traces next time and does the same again; until then the
// agents it recomputed may be missing from /agents/query (a failure between the rollups' delete
// and insert). The span store runs it in its write lane: a write of a key in between would be lost.
import type { ClickHouseClient } from '@clickhouse/client';
import { ROLLUP_SUMS } from '../../spans/span-rollups.js';
import { selectRows } from '../engine/client.js';
import { deleteStatement, type ChDdlMode } from '../engine/ddl.js';
import { chIdentifier } from '../engine/dialect.js';

const DAY_MICROS = 86_400_000_000;
const KEY_COLUMNS: ReadonlySet<string> = new Set(['project_id', 'agent_name', 'agent_version', 'model']);
const TRACES = 'trace_id IN (SELECT arrayJoin({t:Array(String)}))';
const KEYS =
  '(agent_name, agent_version, model) IN (SELECT arrayJoin(arrayZip({a:Array(String)}, {v:Array(String)}, {m:Array(String)})))';

export function createClickHouseSpanPurge(
  client: ClickHouseClient,
  database: string,
  mode: ChDdlMode,
  /** Hands what the traces said first to the next occurrences; the digests said nowhere else in their scopes. */
  handOn: (p: string, t: readonly string[]) => Promise<string[]>,
) {
  const db = chIdentifier(database);
  const drop = (table: string, where: string, params: Record<string, unknown>) =>
    client.command({ query: deleteStatement(database, table, mode, where), query_params: params });

  /** Recomputes the rollups of the keys the traces `t` counted for, without those traces. */
  async function recomputeRollups(p: string, t: readonly string[]) {
    const keys = await selectRows<{ agent_name: string; agent_version: string; model: string }>(
      client,
      `SELECT DISTINCT agent_name, agent_version, model FROM ${db}.agent_trace_rollups WHERE project_id = {p:String} AND ${TRACES}`,
      { p, t },
    );
    if (keys.length === 0) return;
    const k = { a: keys.map((r) => r.agent_name), v: keys.map((r) => r.agent_version), m: keys.map((r) => r.model) };
    // Each other trace's newest contribution; a zeroed one (an owner that changed) adds nothing.
    const rows = await selectRows<Record<string, string>>(
      client,
      // Under other names: ClickHouse would read an alias equal to a column's name inside the aggregate.
      `SELECT project_id, agent_name, agent_version, model, ${ROLLUP_SUMS.map((c) => `sum(${c}) AS s_${c}`).join(', ')},
         min(first_seen) AS s_first_seen, max(last_seen) AS s_last_seen
       FROM (SELECT * FROM ${db}.agent_trace_rollups WHERE project_id = {p:String} AND ${KEYS} AND NOT ${TRACES}
             ORDER BY seq DESC LIMIT 1 BY trace_id, agent_name, agent_version, model)
       WHERE span_count > 0 GROUP BY project_id, agent_name, agent_version, model`.replace(/\s+/g, ' '),
      { p, t, ...k },
    );
    await drop('agent_rollups', `project_id = {p:String} AND ${KEYS}`, { p, ...k });
    if (rows.length > 0)
      await client.insert({
        table: `${db}.agent_rollups`,
        values: rows.map((r) =>
          Object.fromEntries(
            Object.entries(r).map(([c, v]) => (KEY_COLUMNS.has(c) ? [c, v] : [c.slice(2), Number(v)])),
          ),
        ),
        format: 'JSONEachRow',
      });
  }

  /** Hands on the traces' first occurrences, then deletes the bodies no message of the project names. */
  async function dropMessages(p: string, t: readonly string[]) {
    const digests = await handOn(p, t);
    if (digests.length === 0) return;
    const named = new Set(
      (
        await selectRows<{ d: string }>(
          client,
          `SELECT DISTINCT digest AS d FROM ${db}.span_first_messages FINAL
           WHERE project_id = {p:String} AND has({ds:Array(String)}, digest)`,
          { p, ds: digests },
        )
      ).map((r) => r.d),
    );
    const orphans = [...new Set(digests)].filter((d) => !named.has(d));
    if (orphans.length > 0)
      await drop(
        'span_message_bodies',
        'project_id = {p:String} AND digest IN (SELECT arrayJoin({ds:Array(String)}))',
        {
          p,
          ds: orphans,
        },
      );
  }

  /** Deletes the traces `t` of project `p` and what is kept beside them; returns how many spans went. */
  async function dropTraces(p: string, t: readonly string[]): Promise<number> {
    const spans = await selectRows<{ span_id: string }>(
      client,
      `SELECT DISTINCT trace_id, span_id FROM ${db}.spans WHERE project_id = {p:String} AND ${TRACES}`,
      { p, t },
    );
    await recomputeRollups(p, t);
    await dropMessages(p, t);
    await drop('historical_turns', `project_id = {p:String} AND ${TRACES}`, { p, t });
    // Trace and span ids are hex (OTLP), which Weave's ref quoting leaves as they are.
    const refs = [
      ...t.map((id) => `weave:///${p}/agent_turn/${id}`),
      ...spans.map((s) => `weave:///${p}/agent_span/${s.span_id}`),
    ];
    await drop('feedback', 'project_id = {p:String} AND weave_ref IN (SELECT arrayJoin({refs:Array(String)}))', {
      p,
      refs,
    });
    await drop('agent_trace_rollups', `project_id = {p:String} AND ${TRACES}`, { p, t });
    await drop('spans', `project_id = {p:String} AND ${TRACES}`, { p, t });
    return spans.length;
  }

  return async function purgeExpired(now: number, limit: number): Promise<number> {
    // The newest setting of each project (tuple(): argMax would skip a NULL, a cleared TTL).
    const projects = await selectRows<{ project_id: string; days: number }>(
      client,
      `SELECT project_id, argMax(tuple(retention_days), updated_at).1 AS days FROM ${db}.project_settings
       GROUP BY project_id HAVING days IS NOT NULL ORDER BY project_id`,
    );
    let left = limit;
    let deleted = 0;
    for (const { project_id: p, days } of projects) {
      if (left <= 0) break;
      const found = await selectRows<{ trace_id: string }>(
        client,
        `SELECT DISTINCT trace_id, span_id FROM ${db}.spans WHERE project_id = {p:String} AND started_at < {c:Int64} LIMIT {l:UInt64}`,
        { p, c: Math.floor(now - Number(days) * DAY_MICROS), l: left },
      );
      left -= found.length;
      const traces = [...new Set(found.map((r) => r.trace_id))];
      if (traces.length > 0) deleted += await dropTraces(p, traces);
    }
    return deleted;
  };
}
