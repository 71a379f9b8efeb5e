// The spans whose searchable messages are still to be indexed (migration 22). A span write
// appends the rowids it stored, or moved to another conversation, and answers without
// indexing their messages: on the agents route that indexing was a third of the writer's
// time a span (docs/performance.md "Agents"). The writer indexes the backlog in chunks when
// no write is waiting (sqlite/engine/write-worker.ts), a search first indexes whatever is
// left (so a search sees every acknowledged write), and a write that finds more than
// BACKLOG_CAP spans waiting indexes as many as it adds, so a backlog cannot outgrow the cap
// under writes that never pause.
//
// Indexing a span is idempotent: its first occurrences are forgotten (unless it was new when
// written and holds none), its messages added as the span is stored now, under its settled
// conversation, and the forgotten ones given their next occurrence (span-message-writes.ts).
// So a span listed twice, changed again, moved or purged meanwhile is indexed as it is at
// the time, or, gone, only forgotten.
import type { SqliteDb } from '../engine/database.js';
import { spanMessageWrites, STORED_SPAN, type OccurringSpan } from './span-message-writes.js';

/** Spans that may wait; past it, each write indexes as many spans as it adds. */
export const BACKLOG_CAP = 100_000;

type Entry = { readonly seq: number; readonly span_rowid: number; readonly fresh: number };
type Stored = OccurringSpan & { readonly project_id: string; readonly conversation_id: string | null };

export function spanMessageBacklog(db: SqliteDb) {
  const append = db.prepare('INSERT INTO span_message_backlog (span_rowid, fresh) VALUES (?, ?)');
  const oldest = db.prepare('SELECT seq, span_rowid, fresh FROM span_message_backlog ORDER BY seq LIMIT ?');
  const dropUpTo = db.prepare('DELETE FROM span_message_backlog WHERE seq <= ?');
  // Entries leave only from the front, so the sequence numbers left have no gaps. (min and max
  // in one SELECT read every row; each alone in its own is one probe of the key.)
  const waiting = db
    .prepare(
      'SELECT coalesce((SELECT max(seq) FROM span_message_backlog) - (SELECT min(seq) FROM span_message_backlog) + 1, 0)',
    )
    .pluck();
  const count = () => waiting.get() as number;
  const spanAt = db.prepare(`SELECT project_id, ${STORED_SPAN} FROM spans WHERE rowid = ?`);
  const messages = spanMessageWrites(db);

  /** Indexes up to `limit` of the oldest entries; returns how many spans are left waiting. */
  function index(limit: number): number {
    const entries = oldest.all(limit) as Entry[];
    if (entries.length === 0) return 0;
    // A span listed more than once is indexed once, and forgotten first if any listing needs it.
    const spans = new Map<number, boolean>();
    for (const e of entries) spans.set(e.span_rowid, (spans.get(e.span_rowid) ?? true) && e.fresh === 1);
    messages.begin();
    try {
      for (const [rowid, fresh] of spans) if (!fresh) messages.forget(rowid);
      for (const rowid of spans.keys()) {
        const span = spanAt.get(rowid) as Stored | undefined;
        if (span !== undefined) messages.add(span.project_id, span, rowid, span.conversation_id);
      }
      messages.refind();
    } finally {
      messages.end();
    }
    dropUpTo.run(entries[entries.length - 1]!.seq);
    return count();
  }

  return {
    /** Lists the span stored at `rowid` for indexing; `fresh`: it was new, with nothing to forget. */
    add(rowid: number, fresh: boolean): void {
      append.run(rowid, fresh ? 1 : 0);
    },
    /** After a write that added `added` spans: past the cap, as many are indexed now. */
    bound(added: number): void {
      if (count() > BACKLOG_CAP) index(added);
    },
    /** Indexes up to `limit` waiting spans; returns how many are left (the writer's idle work). */
    'spans.indexMessages'(limit: number): number {
      return index(limit);
    },
  };
}
