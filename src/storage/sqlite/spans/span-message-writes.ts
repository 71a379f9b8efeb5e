// Writes the searchable messages of spans (storage/spans/message-fanout.ts) inside the writer's
// transaction, once per scope (conversation, else trace; migration 21) at their first
// occurrence. A message met again later costs one key probe and writes nothing; an earlier
// occurrence (a span that arrives late) takes the row over. A body new to its project is
// stored and added to the FTS5 index, a known one only referenced.
//
// Contract: `forget` a span's first occurrences before it changes (sent again, settled into
// another conversation, purged), `add` its messages under its settled conversation once it is
// stored, then `refind`: each forgotten message is given its next occurrence in its scope, read
// from the scope's stored spans, or dropped when none is left. A span's messages are only ever
// looked at again on those rare paths, so nothing per span beyond the first occurrences is kept.
//
// Between `begin` and `end` (one procedure, one transaction) the body ids met and the first
// occurrences written are remembered, so a history repeated by the batch's model calls costs
// no probe at all; nothing outlives the procedure, so a rollback leaves nothing stale.
import {
  FANOUT_COLUMNS,
  messageFanout,
  messageScope,
  occursBefore,
  type FanoutSpan,
} from '../../spans/message-fanout.js';
import type { SqliteDb } from '../engine/database.js';

const FIRST = ['span_rowid', 'ord', 'started_at', 'conversation_id', 'trace_id', 'span_id'];
const COLUMNS = ['project_id', 'scope', 'role', 'body_id', ...FIRST];
const VALUES = `(${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`;
/** The stored span as `refind` and a move read it. */
export const STORED_SPAN = `rowid, trace_id, span_id, started_at, conversation_id, ${FANOUT_COLUMNS.join(', ')}`;

/** What an occurrence is read from: a span's messages, key and start. */
export type OccurringSpan = FanoutSpan & {
  readonly trace_id: string;
  readonly span_id: string;
  readonly started_at: number;
};
type StoredSpan = OccurringSpan & { readonly rowid: number; readonly conversation_id: string | null };
type Lost = { project: string; scope: string; keys: Map<string, number> };
type Occurrence = { readonly started_at: number; readonly span_id: string; readonly ord: number };

export function spanMessageWrites(db: SqliteDb) {
  const bodyId = db.prepare('SELECT id FROM span_message_bodies WHERE project_id = ? AND digest = ?').pluck();
  const digestOf = db.prepare('SELECT digest FROM span_message_bodies WHERE id = ?').pluck();
  const addBody = db.prepare('INSERT INTO span_message_bodies (project_id, digest, content) VALUES (?, ?, ?)');
  const index = db.prepare('INSERT INTO span_message_fts (rowid, content) VALUES (?, ?)');
  // The row is taken over only by an earlier occurrence; a later one leaves the page untouched.
  const add = db.prepare(
    `INSERT INTO span_messages ${VALUES} ON CONFLICT (project_id, scope, role, body_id) DO UPDATE SET ` +
      FIRST.map((c) => `${c} = excluded.${c}`).join(', ') +
      ' WHERE (excluded.started_at, excluded.span_id, excluded.ord) < (started_at, span_id, ord)',
  );
  const put = db.prepare(`INSERT OR REPLACE INTO span_messages ${VALUES}`);
  const drop = db.prepare('DELETE FROM span_messages WHERE project_id = ? AND scope = ? AND role = ? AND body_id = ?');
  const forgetSpan = db.prepare(
    'DELETE FROM span_messages WHERE span_rowid = ? RETURNING project_id, scope, role, body_id',
  );
  const ofConversation = db.prepare(
    `SELECT ${STORED_SPAN} FROM spans WHERE project_id = ? AND conversation_id = ? ORDER BY started_at, span_id`,
  );
  const ofTrace = db.prepare(
    `SELECT ${STORED_SPAN} FROM spans WHERE project_id = ? AND trace_id = ? AND conversation_id IS NULL ORDER BY started_at, span_id`,
  );
  const lost = new Map<string, Lost>();
  // The batch's memory (begin/end): body ids by project and digest, earliest occurrences by key.
  const ids = new Map<string, number>();
  const firsts = new Map<string, Occurrence>();
  let batch = false;

  function idOf(project: string, digest: string, content: string): number {
    const key = `${project}\u0000${digest}`;
    const cached = ids.get(key);
    if (cached !== undefined) return cached;
    let id = bodyId.get(project, digest) as number | undefined;
    if (id === undefined) {
      id = Number(addBody.run(project, digest, content).lastInsertRowid);
      index.run(id, content);
    }
    if (batch) ids.set(key, id);
    return id;
  }

  /** The scope's stored spans, oldest first. */
  function scopeSpans(project: string, scope: string): Iterable<StoredSpan> {
    const id = scope.slice(2);
    return (scope.startsWith('c:') ? ofConversation : ofTrace).iterate(project, id) as Iterable<StoredSpan>;
  }

  return {
    /** Remembers body ids and occurrences until `end`: call both within one transaction. */
    begin(): void {
      batch = true;
      ids.clear();
      firsts.clear();
    },
    end(): void {
      batch = false;
      ids.clear();
      firsts.clear();
    },

    /** Drops the first occurrences the span at `rowid` holds; `refind` gives them their next ones. */
    forget(rowid: number): void {
      for (const r of forgetSpan.all(rowid) as { project_id: string; scope: string; role: string; body_id: number }[]) {
        const k = `${r.project_id}\u0000${r.scope}`;
        let l = lost.get(k);
        if (l === undefined) lost.set(k, (l = { project: r.project_id, scope: r.scope, keys: new Map() }));
        l.keys.set(`${r.role}\u0001${digestOf.get(r.body_id) as string}`, r.body_id);
      }
    },

    /** Adds the messages of the span stored at `rowid` under its settled conversation. */
    add(project: string, row: OccurringSpan, rowid: number, conversationId: string | null): void {
      const scope = messageScope(conversationId, row.trace_id);
      messageFanout(row).forEach((m, ord) => {
        const body = idOf(project, m.digest, m.content);
        if (batch) {
          // A later occurrence of a message this batch already wrote leaves its row as it is.
          const key = `${project}\u0000${scope}\u0000${m.role}\u0000${body}`;
          const first = firsts.get(key);
          const here = { started_at: row.started_at, span_id: row.span_id, ord };
          if (first !== undefined && !occursBefore(here, first)) return;
          firsts.set(key, here);
        }
        add.run(project, scope, m.role, body, rowid, ord, row.started_at, conversationId, row.trace_id, row.span_id);
      });
    },

    /** Gives each forgotten message its first occurrence left in its scope; returns the bodies of those dropped. */
    refind(): number[] {
      const dropped: number[] = [];
      for (const { project, scope, keys } of lost.values()) {
        const found = new Map<string, StoredSpan & { ord: number }>();
        for (const s of scopeSpans(project, scope)) {
          messageFanout(s).forEach((m, ord) => {
            const key = `${m.role}\u0001${m.digest}`;
            const best = found.get(key);
            if (keys.has(key) && (best === undefined || occursBefore({ ...s, ord }, best)))
              found.set(key, { ...s, ord });
          });
          // Spans come oldest first: once every message is found, later spans cannot come before.
          if (found.size === keys.size) break;
        }
        for (const [key, body] of keys) {
          const role = key.slice(0, key.indexOf('\u0001'));
          const f = found.get(key);
          if (f === undefined) {
            drop.run(project, scope, role, body);
            dropped.push(body);
          } else
            put.run(project, scope, role, body, f.rowid, f.ord, f.started_at, f.conversation_id, f.trace_id, f.span_id);
        }
      }
      lost.clear();
      return dropped;
    },
  };
}
