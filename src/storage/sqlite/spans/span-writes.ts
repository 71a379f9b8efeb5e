// The write procedure of agent spans (run by the writer inside its transaction): upsert the
// spans; then, for each trace they touch, settle every span (storage/spans/span-settle.ts) and
// replace what the trace adds to the agent rollups (storage/spans/span-rollups.ts), so that the
// rollups always equal the sums over the stored spans. The spans written, and those settled
// into another conversation, are listed for their searchable messages to be indexed after the
// answer (span-message-backlog.ts). Values reach SQL only as parameters.
import { SPAN_COLUMNS, type SpanRow } from '../../../query/span-columns.js';
import { ROLLUP_SUMS, contributionKey, traceContributions, type Contribution } from '../../spans/span-rollups.js';
import { settleTrace, unsettled, type SettleSpan } from '../../spans/span-settle.js';
import type { SqliteDb } from '../engine/database.js';
import { spanConversationWrites } from './span-conversation-writes.js';
import { spanMessageBacklog } from './span-message-backlog.js';

const quote = (c: string) => `"${c}"`;
/** Kept on a re-sent span's upsert: its key, and what the settlement (below) decides. */
const KEY_COLUMNS = ['project_id', 'trace_id', 'span_id', 'owner_agent_name', 'owner_agent_version', 'tokens_counted'];
const INSERT_SQL =
  `INSERT INTO spans (${SPAN_COLUMNS.map(quote).join(', ')}) VALUES (${SPAN_COLUMNS.map(() => '?').join(', ')}) ` +
  'ON CONFLICT (project_id, trace_id, span_id) DO UPDATE SET ' +
  SPAN_COLUMNS.filter((c) => !KEY_COLUMNS.includes(c))
    .map((c) => `${quote(c)} = excluded.${quote(c)}`)
    .join(', ');
const ROLLUP_COLUMNS = [
  'span_id',
  'parent_span_id',
  'operation_name',
  'agent_id',
  'agent_name',
  'agent_version',
  'owner_agent_name',
  'owner_agent_version',
  'request_model',
  'response_model',
  'conversation_id',
  'conversation_inherited',
  'tokens_counted',
  'started_at',
  'ended_at',
  'status_code',
  'input_tokens',
  'output_tokens',
  'reasoning_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
];
const SUMS = ROLLUP_SUMS.join(', ');
const ADD_ROLLUP =
  `INSERT INTO agent_rollups (project_id, agent_name, agent_version, model, ${SUMS}, first_seen, last_seen) ` +
  `VALUES (?, ?, ?, ?, ${ROLLUP_SUMS.map(() => '?').join(', ')}, ?, ?) ON CONFLICT (project_id, agent_name, agent_version, model) DO UPDATE SET ` +
  ROLLUP_SUMS.map((c) => `${c} = ${c} + excluded.${c}`).join(', ') +
  ', first_seen = min(first_seen, excluded.first_seen), last_seen = max(last_seen, excluded.last_seen)';
const ADD_TRACE_ROLLUP =
  `INSERT INTO agent_trace_rollups (project_id, trace_id, agent_name, agent_version, model, conversation_id, ${SUMS}, first_seen, last_seen) ` +
  `VALUES (?, ?, ?, ?, ?, ?, ${ROLLUP_SUMS.map(() => '?').join(', ')}, ?, ?)`;

type TraceSpan = SettleSpan & {
  readonly owner_agent_name: string | null;
  readonly owner_agent_version: string | null;
  readonly response_model: string | null;
  readonly request_model: string | null;
  readonly ended_at: number | null;
  readonly status_code: string;
  readonly tokens_counted: number;
};
type StoredContribution = Omit<Contribution, 'sums'> & Record<(typeof ROLLUP_SUMS)[number], number>;

export function spanWrites(db: SqliteDb) {
  const insert = db.prepare(INSERT_SQL);
  // A span's first occurrences point at its rowid (migration 21): read by the key before the
  // upsert (a stored span is being sent again), else the insert's own rowid. Measured, an
  // upsert with RETURNING rowid cut ingest to a quarter (1.3k spans/s).
  const rowidOf = db.prepare('SELECT rowid FROM spans WHERE project_id = ? AND trace_id = ? AND span_id = ?').pluck();
  const traceSpans = db.prepare(`SELECT ${ROLLUP_COLUMNS.join(', ')} FROM spans WHERE project_id = ? AND trace_id = ?`);
  const setSettled = db.prepare(
    'UPDATE spans SET owner_agent_name = ?, owner_agent_version = ?, tokens_counted = ?, conversation_id = ?, conversation_inherited = ? WHERE project_id = ? AND trace_id = ? AND span_id = ?',
  );
  const storedRollups = db.prepare('SELECT * FROM agent_trace_rollups WHERE project_id = ? AND trace_id = ?');
  const dropRollups = db.prepare('DELETE FROM agent_trace_rollups WHERE project_id = ? AND trace_id = ?');
  const addRollup = db.prepare(ADD_ROLLUP);
  const addTraceRollup = db.prepare(ADD_TRACE_ROLLUP);
  const backlog = spanMessageBacklog(db);
  const conversations = spanConversationWrites(db);

  /** Settles the trace (span-settle.ts) and its rollups; returns each span's conversation id before and after. */
  function settle(projectId: string, traceId: string): { span_id: string; was: string | null; now: string | null }[] {
    const spans = traceSpans.all(projectId, traceId) as TraceSpan[];
    const settlement = settleTrace(spans);
    const settled = spans.map((s) => {
      const to = settlement.spans.get(s.span_id)!;
      if (unsettled(s, to))
        setSettled.run(
          to.owner_agent_name,
          to.owner_agent_version,
          to.tokens_counted,
          to.conversation_id,
          to.conversation_inherited,
          projectId,
          traceId,
          s.span_id,
        );
      return { ...s, ...to };
    });
    const before = new Map(
      (storedRollups.all(projectId, traceId) as StoredContribution[]).map((r) => [contributionKey(r), r]),
    );
    const after = traceContributions(settled, settlement.orchestrators);
    for (const c of after) {
      const old = before.get(contributionKey(c));
      before.delete(contributionKey(c));
      addRollup.run(
        projectId,
        c.agent_name,
        c.agent_version,
        c.model,
        ...ROLLUP_SUMS.map((k) => c.sums[k] - (old?.[k] ?? 0)),
        c.first_seen,
        c.last_seen,
      );
    }
    // What the trace no longer adds (an owner that changed) is taken away.
    for (const old of before.values())
      addRollup.run(
        projectId,
        old.agent_name,
        old.agent_version,
        old.model,
        ...ROLLUP_SUMS.map((k) => -old[k]),
        old.first_seen,
        old.last_seen,
      );
    dropRollups.run(projectId, traceId);
    for (const c of after)
      addTraceRollup.run(
        projectId,
        traceId,
        c.agent_name,
        c.agent_version,
        c.model,
        c.conversation_id,
        ...ROLLUP_SUMS.map((k) => c.sums[k]),
        c.first_seen,
        c.last_seen,
      );
    return spans.map((s, i) => ({ span_id: s.span_id, was: s.conversation_id, now: settled[i]!.conversation_id }));
  }

  return {
    'spans.write'(rows: readonly SpanRow[]): void {
      // Each trace's conversations before its first span of the batch is written.
      const traces = new Map<string, [project: string, trace: string, before: string[]]>();
      // The batch's spans by key, with their rowids: listed for indexing once settled.
      const written = new Map<string, number>();
      for (const row of rows) {
        const key = `${row.project_id}\u0000${row.trace_id}`;
        if (!traces.has(key)) {
          const [project, trace] = [String(row.project_id), String(row.trace_id)];
          traces.set(key, [project, trace, conversations.before(project, trace)]);
        }
        const spanKey = `${key}\u0000${row.span_id}`;
        const stored = rowidOf.get(row.project_id, row.trace_id, row.span_id) as number | undefined;
        const rowid = Number(insert.run(SPAN_COLUMNS.map((c) => row[c])).lastInsertRowid);
        if (!written.has(spanKey)) backlog.add(stored ?? rowid, stored === undefined);
        written.set(spanKey, stored ?? rowid);
      }
      let listed = written.size;
      for (const [projectId, traceId, before] of traces.values()) {
        const spans = settle(projectId, traceId);
        conversations.after(
          projectId,
          before,
          spans.map((s) => s.now),
        );
        // Settled into another conversation (its trace's root arrived): its messages move.
        for (const s of spans)
          if (s.was !== s.now && !written.has(`${projectId}\u0000${traceId}\u0000${s.span_id}`)) {
            backlog.add(rowidOf.get(projectId, traceId, s.span_id) as number, false);
            listed++;
          }
      }
      backlog.bound(listed);
    },
    'spans.indexMessages': backlog['spans.indexMessages'],
  };
}
