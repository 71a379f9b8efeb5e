// Writes the searchable messages of spans (storage/spans/message-fanout.ts) inside the writer's
// transaction: a span's list is replaced whole, keyed by the span's rowid (migration 18), so
// new lists append; a body new to its project is stored and added to the FTS5 index, a known
// one only referenced.
import type { SpanRow } from '../../../query/span-columns.js';
import { messageFanout } from '../../spans/message-fanout.js';
import type { SqliteDb } from '../engine/database.js';

export function spanMessageWrites(db: SqliteDb) {
  const dropList = db.prepare('DELETE FROM span_messages WHERE span_rowid = ?');
  const addBody = db.prepare(
    'INSERT INTO span_message_bodies (project_id, digest, content) VALUES (?, ?, ?) ON CONFLICT (project_id, digest) DO NOTHING',
  );
  const bodyId = db.prepare('SELECT id FROM span_message_bodies WHERE project_id = ? AND digest = ?').pluck();
  const index = db.prepare('INSERT INTO span_message_fts (rowid, content) VALUES (?, ?)');
  const addMessage = db.prepare(
    'INSERT INTO span_messages (span_rowid, ord, role, body_id, project_id, conversation_id, started_at, trace_id, span_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );

  /** Replaces the messages of the span stored at `rowid`. */
  return (row: SpanRow, rowid: number): void => {
    const { project_id: project, trace_id: trace, span_id: span } = row;
    dropList.run(rowid);
    messageFanout(row).forEach((m, ord) => {
      const added = addBody.run(project, m.digest, m.content);
      const id = added.changes > 0 ? added.lastInsertRowid : (bodyId.get(project, m.digest) as number);
      if (added.changes > 0) index.run(id, m.content);
      addMessage.run(rowid, ord, m.role, id, project, row.conversation_id, row.started_at, trace, span);
    });
  };
}
