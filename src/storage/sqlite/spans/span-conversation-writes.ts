// Keeps span_conversations (migration 19) equal to the distinct conversation ids of the stored
// spans, inside the writer's transaction: what a trace's spans carried before a write or purge
// is read first, what they carry after is added, and a conversation left with no span goes.
// Only the traces written or purged change, so only their conversations need looking at.
// (Triggers on spans did the same, but cost 40 us a span: SQLite builds the trigger's NEW row
// of every wide span row even when the trigger's WHEN is false.)
import type { SqliteDb } from '../engine/database.js';

/** A trace's conversation ids, by the spans' key: with `conversation_id IS NOT NULL` added the
 * planner took the partial index of conversations, a read of the whole project per trace. */
export const TRACE_CONVERSATIONS = 'SELECT DISTINCT conversation_id FROM spans WHERE project_id = ? AND trace_id = ?';
/** Drops a conversation no span carries any more (spans_conversation answers the check). */
export const DROP_IF_EMPTY = `DELETE FROM span_conversations WHERE project_id = ? AND conversation_id = ?
  AND NOT EXISTS (SELECT 1 FROM spans WHERE project_id = ? AND conversation_id = ?)`;

export function spanConversationWrites(db: SqliteDb) {
  const ofTrace = db.prepare(TRACE_CONVERSATIONS).pluck();
  const add = db.prepare(
    'INSERT INTO span_conversations (project_id, conversation_id) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  const dropIfEmpty = db.prepare(DROP_IF_EMPTY);
  return {
    /** The conversation ids the trace's stored spans carry now. */
    before: (project: string, trace: string): string[] =>
      (ofTrace.all(project, trace) as (string | null)[]).filter((c): c is string => c !== null),
    /** After the trace's write or purge: `now` added, what `before` had and `now` lacks dropped if empty. */
    after(project: string, before: readonly string[], now: Iterable<string | null>): void {
      const kept = new Set<string>();
      for (const c of now) {
        if (c === null || kept.has(c)) continue;
        kept.add(c);
        add.run(project, c);
      }
      for (const c of before) if (!kept.has(c)) dropIfEmpty.run(project, c, project, c);
    },
  };
}
