// The retention purge of agent spans (SpanStore.purgeExpired), run by the writer inside its
// transaction, so a purge and a write of one trace never interleave. Spans have no expiry
// column: a trace expires, whole, once one of its spans started more than its project's current
// time-to-live ago (project_settings), and goes with everything kept beside it: the first
// occurrences of messages it held (each handed to the message's next occurrence in its
// conversation, if any: span-message-writes.ts; a body no message names any more leaves the
// FTS5 index too),
// its per-trace rollups, its historical-turn records and the feedback on the turn and its steps,
// and its conversations from span_conversations when no other span carries them.
// The agent rollups of the agents it counted for are then recomputed from the per-trace
// rollups left (sums, first and last seen exact; an agent with no trace left has no row).
// Values reach SQL only as parameters.
import { ROLLUP_SUMS } from '../../spans/span-rollups.js';
import type { SqliteDb } from '../engine/database.js';
import { spanConversationWrites } from './span-conversation-writes.js';
import { spanMessageWrites } from './span-message-writes.js';

const DAY_MICROS = 86_400_000_000;
const KEY = 'project_id = ? AND agent_name = ? AND agent_version = ? AND model = ?';
const SUMS = ROLLUP_SUMS.join(', ');
const RECOMPUTE =
  `INSERT INTO agent_rollups (project_id, agent_name, agent_version, model, ${SUMS}, first_seen, last_seen) ` +
  `SELECT project_id, agent_name, agent_version, model, ${ROLLUP_SUMS.map((c) => `sum(${c})`).join(', ')}, ` +
  `min(first_seen), max(last_seen) FROM agent_trace_rollups WHERE ${KEY} GROUP BY project_id, agent_name, agent_version, model`;

type RollupKey = readonly [project: string, agent: string, version: string, model: string];

export function spanPurges(db: SqliteDb) {
  const projects = db.prepare(
    'SELECT project_id, retention_days FROM project_settings WHERE retention_days IS NOT NULL ORDER BY project_id',
  );
  // Oldest first, from the start index (project_id, started_at, ...).
  const expired = db
    .prepare('SELECT trace_id FROM spans WHERE project_id = ? AND started_at < ? ORDER BY started_at LIMIT ?')
    .pluck();
  const spansOf = db.prepare('SELECT rowid, span_id FROM spans WHERE project_id = ? AND trace_id = ?');
  const messages = spanMessageWrites(db);
  const named = db.prepare('SELECT 1 FROM span_messages WHERE body_id = ? LIMIT 1').pluck();
  const body = db.prepare('SELECT content FROM span_message_bodies WHERE id = ?').pluck();
  // An external-content FTS5 table forgets a row only when told its indexed text.
  const unindex = db.prepare("INSERT INTO span_message_fts (span_message_fts, rowid, content) VALUES ('delete', ?, ?)");
  const dropBody = db.prepare('DELETE FROM span_message_bodies WHERE id = ?');
  const keysOf = db.prepare(
    'SELECT project_id, agent_name, agent_version, model FROM agent_trace_rollups WHERE project_id = ? AND trace_id = ?',
  );
  const dropTraceRollups = db.prepare('DELETE FROM agent_trace_rollups WHERE project_id = ? AND trace_id = ?');
  const dropRollup = db.prepare(`DELETE FROM agent_rollups WHERE ${KEY}`);
  const recompute = db.prepare(RECOMPUTE);
  const dropTurns = db.prepare(
    'DELETE FROM historical_turns WHERE project_id = ? AND trace_id IN (SELECT value FROM json_each(?))',
  );
  const dropFeedback = db.prepare('DELETE FROM feedback WHERE project_id = ? AND weave_ref = ?');
  const dropSpans = db.prepare('DELETE FROM spans WHERE project_id = ? AND trace_id = ?');
  const conversations = spanConversationWrites(db);

  /** Deletes one trace and what is kept beside it; returns how many spans went. */
  function dropTrace(project: string, trace: string, touched: Map<string, RollupKey>): number {
    // Trace and span ids are hex (OTLP), which Weave's ref quoting leaves as they are.
    dropFeedback.run(project, `weave:///${project}/agent_turn/${trace}`);
    for (const span of spansOf.all(project, trace) as { rowid: number; span_id: string }[]) {
      dropFeedback.run(project, `weave:///${project}/agent_span/${span.span_id}`);
      messages.forget(span.rowid);
    }
    for (const k of keysOf.all(project, trace) as Record<string, string>[]) {
      const key: RollupKey = [k.project_id!, k.agent_name!, k.agent_version!, k.model!];
      touched.set(JSON.stringify(key), key);
    }
    dropTraceRollups.run(project, trace);
    const before = conversations.before(project, trace);
    const dropped = dropSpans.run(project, trace).changes;
    conversations.after(project, before, []);
    return dropped;
  }

  return {
    /** The traces of up to `limit` expired spans, oldest first; returns how many spans went. */
    'spans.purgeExpired'(now: number, limit: number): number {
      let left = limit;
      let deleted = 0;
      const touched = new Map<string, RollupKey>();
      for (const p of projects.all() as { project_id: string; retention_days: number }[]) {
        if (left <= 0) break;
        const found = expired.all(p.project_id, now - p.retention_days * DAY_MICROS, left) as string[];
        left -= found.length;
        const traces = [...new Set(found)];
        for (const trace of traces) deleted += dropTrace(p.project_id, trace, touched);
        if (traces.length > 0) dropTurns.run(p.project_id, JSON.stringify(traces));
      }
      // Once the traces are gone, each message they said first is found at its next occurrence.
      for (const id of new Set(messages.refind())) {
        if (named.get(id) !== undefined) continue;
        unindex.run(id, body.get(id));
        dropBody.run(id);
      }
      for (const key of touched.values()) {
        dropRollup.run(...key);
        recompute.run(...key);
      }
      return deleted;
    },
  };
}
