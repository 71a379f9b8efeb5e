// Writes the searchable messages of spans (storage/message-fanout.ts) inside the writer's
// transaction: a span's list is replaced whole; a body new to its project is stored and added
// to the FTS5 index, a known one only referenced.
import type { SpanRow } from '../../../query/span-columns.js';
import { messageFanout } from '../../message-fanout.js';
import type { SqliteDb } from '../engine/database.js';

export function spanMessageWrites(db: SqliteDb) {
  const dropList = db.prepare('DELETE FROM span_messages WHERE project_id = ? AND trace_id = ? AND span_id = ?');
  const addBody = db.prepare(
    'INSERT INTO span_message_bodies (project_id, digest, content) VALUES (?, ?, ?) ON CONFLICT (project_id, digest) DO NOTHING',
  );
  const bodyId = db.prepare('SELECT id FROM span_message_bodies WHERE project_id = ? AND digest = ?').pluck();
  const index = db.prepare('INSERT INTO span_message_fts (rowid, content) VALUES (?, ?)');
  const addMessage = db.prepare(
    'INSERT INTO span_messages (project_id, trace_id, span_id, ord, role, body_id, conversation_id, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );

  return (row: SpanRow): void => {
    const { project_id: project, trace_id: trace, span_id: span } = row;
    dropList.run(project, trace, span);
    messageFanout(row).forEach((m, ord) => {
      const added = addBody.run(project, m.digest, m.content);
      const id = added.changes > 0 ? added.lastInsertRowid : (bodyId.get(project, m.digest) as number);
      if (added.changes > 0) index.run(id, m.content);
      addMessage.run(project, trace, span, ord, m.role, id, row.conversation_id, row.started_at);
    });
  };
}
