// The write procedures of calls (run by the writer inside its transaction, see
// sqlite/engine/writer.ts): part upserts, display-name updates, soft deletes of call subtrees and
// the retention purge. Every statement reaches rows through an index: upserts and renames
// find a call through its id key (the key tables, sqlite/calls/call-ids.ts, which the inserts and
// the purge here keep), a delete walks calls_parent from the named calls, a purge reads
// calls_expire.
import type { CallEndPart, CallStartPart } from '../../calls/call-store.js';
import type { SqliteDb } from '../engine/database.js';
import { callKeyOf, idKeyIn } from './call-keys.js';
import { callIdKeys } from './call-ids.js';

/**
 * A row for one of the part statements: [kind, positional parameters] (0 = start part,
 * 1 = end part, 2 = both parts of one call). Positional arrays, built by startValues /
 * endValues in the column order below, are cheaper to build and to send to the writer's
 * thread than objects keyed by column name.
 */
export type CallRow = readonly [CallRowKind, readonly unknown[]];
export type CallRowKind = 0 | 1 | 2;

const START_COLUMNS = [
  'trace_id',
  'parent_id',
  'thread_id',
  'turn_id',
  'op_name',
  'display_name',
  'started_at',
  'attributes',
  'inputs',
  'input_refs',
  'wb_user_id',
  'wb_run_id',
  'wb_run_step',
  'start_bytes',
  'expire_at',
] as const;
const END_COLUMNS = [
  'ended_at',
  'exception',
  'output',
  'summary',
  'output_refs',
  'wb_run_step_end',
  'end_bytes',
] as const;

/** Stored size of a part's JSON: what storage_size_bytes reports (UTF-8 bytes). */
export const startBytes = (s: CallStartPart): number =>
  Buffer.byteLength(s.attributes) + Buffer.byteLength(s.inputs) + s.op_name.length + (s.display_name?.length ?? 0) + 96;
export const endBytes = (e: CallEndPart): number =>
  Buffer.byteLength(e.output) + Buffer.byteLength(e.summary) + (e.exception ? Buffer.byteLength(e.exception) : 0) + 32;

/** The start part's values in START_COLUMNS order. */
export const startValues = (s: CallStartPart, bytes: number): unknown[] => [
  s.trace_id,
  s.parent_id,
  s.thread_id,
  s.turn_id,
  s.op_name,
  s.display_name,
  s.started_at,
  s.attributes,
  s.inputs,
  JSON.stringify(s.input_refs),
  s.wb_user_id,
  s.wb_run_id,
  s.wb_run_step,
  bytes,
  s.expire_at,
];
/** The end part's values in END_COLUMNS order. */
export const endValues = (e: CallEndPart, bytes: number): unknown[] => [
  e.ended_at,
  e.exception,
  e.output,
  e.summary,
  JSON.stringify(e.output_refs),
  e.wb_run_step_end,
  bytes,
];

/**
 * The part statements. A call is looked up by its key (sqlite/calls/call-keys.ts): there is no
 * unique index to conflict on, so a part is inserted when no row of that project and id
 * exists, and otherwise `update` sets the part's columns on the row that does (by rowid).
 * One writer runs both, so nothing comes between the lookup and the write.
 * An existing display_name is kept: one set by /call/update survives a retried start.
 * So is the expire_at of a start already written: a retried start after a change of the
 * project's time-to-live does not move the expiry (SET expressions see the old row).
 */
const KEEP: Readonly<Record<string, string>> = {
  display_name: 'display_name = COALESCE(display_name, ?)',
  expire_at: 'expire_at = CASE WHEN started_at IS NULL THEN ? ELSE expire_at END',
};
function partStatements(db: SqliteDb, columns: readonly string[]) {
  const insert = db.prepare(
    `INSERT INTO calls (project_id, id, ${columns.join(', ')}) VALUES (?, ?, ${columns.map(() => '?').join(', ')})`,
  );
  const update = db.prepare(`UPDATE calls SET ${columns.map((c) => KEEP[c] ?? `${c} = ?`).join(', ')} WHERE rowid = ?`);
  /** values: [project_id, id, ...the columns' values]; insert returns the new rowid. */
  return {
    insert: (values: readonly unknown[]) => insert.run(values).lastInsertRowid,
    update: (values: readonly unknown[], rid: number) => void update.run(...values.slice(2), rid),
  };
}

/**
 * The rowids and ids of the live calls named and of all their live descendants. CROSS JOIN
 * fixes the loop order: each step probes calls_parent by key for the children of the rows
 * found so far, so the cost follows the size of the subtree, not of the project.
 */
const SUBTREE = `
  WITH RECURSIVE doomed(rid, id, k) AS (
    SELECT c.rowid, c.id, c.id_key FROM json_each(?) AS j CROSS JOIN calls AS c
     WHERE ${idKeyIn('c', [callKeyOf('j.value')])} AND +c.project_id = ? AND c.id = j.value AND c.deleted_at IS NULL
    UNION
    SELECT c.rowid, c.id, c.id_key FROM doomed AS d CROSS JOIN calls AS c
     WHERE c.parent_key = d.k AND +c.project_id = ? AND c.parent_id = d.id AND c.deleted_at IS NULL
  ) SELECT rid, id FROM doomed`;

export function callWrites(db: SqliteDb) {
  const [start, end, whole] = [START_COLUMNS, END_COLUMNS, [...START_COLUMNS, ...END_COLUMNS]].map((c) =>
    partStatements(db, c),
  );
  const keys = callIdKeys(db);
  const upsert = (part: ReturnType<typeof partStatements>) => (v: readonly unknown[]) => {
    const [projectId, id] = v as [string, string];
    const rid = keys.rowOf(projectId, id);
    if (rid === undefined) keys.add(id, part.insert(v));
    else part.update(v, rid);
  };
  const writePart = [start, end, whole].map((part) => upsert(part!));
  // An update part must survive a later (retried) start: display_name written here wins
  // because the start upsert keeps an existing display_name.
  const setName = db.prepare('UPDATE calls SET display_name = ? WHERE rowid = ?');
  const insertName = db.prepare('INSERT INTO calls (project_id, id, display_name) VALUES (?, ?, ?)');
  const subtree = db.prepare(SUBTREE).raw();
  const mark = db.prepare('UPDATE calls SET deleted_at = ? WHERE rowid IN (SELECT value FROM json_each(?))');
  // Expired calls, oldest expiry first (the calls_expire index), and their feedback.
  const expired = db.prepare(
    'SELECT rowid, project_id, id FROM calls WHERE expire_at IS NOT NULL AND expire_at <= ? ORDER BY expire_at LIMIT ?',
  );
  const dropCall = db.prepare('DELETE FROM calls WHERE rowid = ?');
  const dropFeedback = db.prepare('DELETE FROM feedback WHERE project_id = ? AND weave_ref = ?');

  return {
    'calls.write'(rows: readonly CallRow[]): void {
      for (const [kind, values] of rows) writePart[kind]!(values);
      keys.mergeIfDue();
    },
    'calls.updateName'(projectId: string, callId: string, displayName: string): void {
      const rid = keys.rowOf(projectId, callId);
      if (rid !== undefined) setName.run(displayName, rid);
      else keys.add(callId, insertName.run(projectId, callId, displayName).lastInsertRowid);
    },
    /** Soft-deletes the calls and their descendants; the count includes ids not found (Weave's rule). */
    'calls.delete'(projectId: string, callIds: readonly string[], at: number): number {
      const found = subtree.all(JSON.stringify(callIds), projectId, projectId) as [number, string][];
      mark.run(at, JSON.stringify(found.map(([rowid]) => rowid)));
      return new Set([...callIds, ...found.map(([, id]) => id)]).size;
    },
    'calls.purgeExpired'(now: bigint, limit: number): number {
      const rows = expired.all(now, limit) as { rowid: number; project_id: string; id: string }[];
      for (const r of rows) {
        dropCall.run(r.rowid);
        keys.drop(r.id, r.rowid);
        dropFeedback.run(r.project_id, `weave:///${r.project_id}/call/${r.id}`);
      }
      return rows.length;
    },
  };
}
