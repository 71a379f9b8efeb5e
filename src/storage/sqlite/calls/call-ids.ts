// Migration 10: the calls' id keys (sqlite/calls/call-keys.ts) in two key tables instead of an index
// on calls: call_ids, the main one, and call_ids_recent, the keys of the calls inserted since
// the last merge, which the writer moves into call_ids in bulk, in key order.
//
// Why: an OpenTelemetry span id is random, so an index of ids takes each span's entry on a
// page no other span of the commit touches, and SQLite writes every page a commit changes
// whole to the WAL. The recent table stays small (thousands of entries, a few dozen pages),
// so a commit's random keys land on few pages; a merge then writes each page of call_ids at
// most once for thousands of keys. Measured (interleaved, 100,000 spans a run): OTLP ingest
// into a fresh database +3% (29.4k -> 30.4k spans/s, medians of 4); into one database growing
// to 1,000,000 spans, +12% for the rounds that found 700,000 to 900,000 stored (23.3k against
// 20.7k spans/s); /call/upsert_batch unchanged (its UUIDv7 keys are in time order). With no
// id index at all (a bound, not a design) OTLP ran +11-16% on a fresh database.
//
// Contract: every row of calls has exactly one entry (its id key, its rowid) in one of the two
// tables. Only the writer inserts and deletes calls (sqlite/calls/call-writes.ts): it adds the entry
// with the row, in the same transaction, and drops it with the row. Readers see both tables
// through the view call_ids_all; a merge is one transaction, so a reader sees each key once.
import type { SqliteDb } from '../engine/database.js';
import { callKey } from './call-keys.js';

/** Fewest recent keys worth a merge. */
const MIN_RECENT = 4096;
/**
 * Most keys moved by one commit. A merge sweeps the recent keys in key order, a slice a commit
 * (each slice changes only the pages of call_ids in its stretch of the key space), until it
 * has passed the last: on a large table, moving every recent key in one commit would rewrite
 * most of call_ids at once (at 10,000,000 calls ~200 MB of WAL, a pause in ingest). Measured
 * at 1,000,000 spans, stopping a merge as soon as the recent keys were below the threshold
 * instead (the table then stays nearly full) gave up half of the gain.
 */
const MERGE_SLICE = 8192;

/** When and how much the writer merges (tests shrink them). */
export interface MergeLimits {
  readonly minRecent: number;
  readonly slice: number;
  /** The typical commit's new keys (S in mergeAt; an OTLP benchmark commit averages ~430). */
  readonly commitKeys: number;
}
const MERGE_LIMITS: MergeLimits = { minRecent: MIN_RECENT, slice: MERGE_SLICE, commitKeys: 430 };

/**
 * Recent keys at which the writer merges, for a table of about `calls` rows. A commit of S
 * random keys writes about min(S, R) pages of the recent table (R: its pages); a merge of N
 * keys writes up to all pages of call_ids (M), so each key costs ~R/S + M/N pages, least when N
 * grows as the square root of the table: ~6,500 keys at 100,000 calls, ~20,000 at 1,000,000.
 */
export const mergeAt = (calls: number, limits: MergeLimits = MERGE_LIMITS): number =>
  Math.max(limits.minRecent, Math.round(Math.sqrt(limits.commitKeys * calls)));

/** The writer's side of the key tables (run inside the writer's transaction). */
export function callIdKeys(db: SqliteDb, limits: MergeLimits = MERGE_LIMITS) {
  const add = db.prepare('INSERT INTO call_ids_recent (key, rid) VALUES (?, ?)');
  const dropRecent = db.prepare('DELETE FROM call_ids_recent WHERE key = ? AND rid = ?');
  const dropMain = db.prepare('DELETE FROM call_ids WHERE key = ? AND rid = ?');
  const count = db.prepare('SELECT count(*) FROM call_ids_recent').pluck();
  const lastRow = db.prepare('SELECT max(rowid) FROM calls').pluck();
  const sliceEnd = db
    .prepare('SELECT key, rid FROM call_ids_recent WHERE (key, rid) > (?, ?) ORDER BY key, rid LIMIT 1 OFFSET ?')
    .raw();
  const mergeSlice = db.prepare(
    'INSERT INTO call_ids (key, rid) SELECT key, rid FROM call_ids_recent WHERE (key, rid) > (?, ?) AND (key, rid) <= (?, ?)',
  );
  const clearSlice = db.prepare('DELETE FROM call_ids_recent WHERE (key, rid) > (?, ?) AND (key, rid) <= (?, ?)');
  const mergeRest = db.prepare(
    'INSERT INTO call_ids (key, rid) SELECT key, rid FROM call_ids_recent WHERE (key, rid) > (?, ?)',
  );
  const clearRest = db.prepare('DELETE FROM call_ids_recent WHERE (key, rid) > (?, ?)');
  // A lookup is two statements without a join: the rowids under the key in either table, then
  // each one's project and id (almost always none to check: a new call). SQLite 3.54.1 (the
  // one in better-sqlite3 13, and in Node 24.22's node:sqlite) spends 4-10 us on each run of a
  // join whose WHERE binds a parameter, against ~0.3-1 us with a literal in its place (3.40.1
  // shows no such gap). The one statement of two joins this replaced took ~17.5 us a lookup
  // against 1.1 us now, more than the insert it precedes: on the ingest benchmark (20,000 calls,
  // 3 interleaved runs each) the writer's threads went from 64-85 to 41-56 us of CPU a call.
  const ridsOf = db
    .prepare('SELECT rid FROM call_ids_recent WHERE key = ? UNION ALL SELECT rid FROM call_ids WHERE key = ?')
    .pluck();
  const isCall = db.prepare('SELECT 1 FROM calls WHERE rowid = ? AND +project_id = ? AND id = ?').pluck();
  // Keys added since the last merge, as far as this connection knows: counted from the table
  // when the writer starts; a rolled-back insert leaves it high, which only merges sooner.
  let recent = count.get() as number;
  /** Where the merge under way has got to (it moves keys above this pair next), or null. */
  let sweep: [string, number] | null = null;
  return {
    /** The rowid of the call of this project and id, if stored. */
    rowOf(projectId: string, id: string): number | undefined {
      const k = callKey(id);
      for (const rid of ridsOf.all(k, k) as number[]) if (isCall.get(rid, projectId, id) !== undefined) return rid;
      return undefined;
    },
    /** Records the key of the call just inserted as `rid`. */
    add(id: string, rid: number | bigint): void {
      add.run(callKey(id), rid);
      recent++;
    },
    /** Forgets the key of a call being deleted. */
    drop(id: string, rid: number | bigint): void {
      const k = callKey(id);
      if (dropRecent.run(k, rid).changes === 0) dropMain.run(k, rid);
    },
    /**
     * Moves the next slice of recent keys into call_ids while a merge is under way, and starts
     * one once there are enough recent keys. A writer that restarts mid-merge starts over; keys
     * added behind the sweep wait for the next merge.
     */
    mergeIfDue(): void {
      if (sweep === null) {
        if (recent < limits.minRecent || recent < mergeAt(Number(lastRow.get() ?? 0), limits)) return;
        sweep = ['', 0]; // below every pair (rowids start at 1)
      }
      const end = sliceEnd.get(...sweep, limits.slice - 1) as [string, number] | undefined;
      if (end === undefined) {
        mergeRest.run(...sweep);
        recent = Math.max(0, recent - clearRest.run(...sweep).changes);
        sweep = null;
        return;
      }
      mergeSlice.run(...sweep, ...end);
      recent = Math.max(0, recent - clearSlice.run(...sweep, ...end).changes);
      sweep = end;
    },
  };
}

/**
 * Rebuilds the key tables when the calls' rowids no longer match them, which only a rebuild
 * of the file outside Weft does (`sqlite3 .dump` into a new file, `.recover`: they renumber a
 * table without an INTEGER PRIMARY KEY; VACUUM and Weft's backups keep rowids). Any gap left
 * by deleted rows moves the newest row's rowid then, so the newest and the oldest call having
 * their entries is checked at each start (two key searches). True when it rebuilt them.
 */
export function rekeyIfRenumbered(db: SqliteDb): boolean {
  const ends = db
    .prepare(
      'SELECT rowid AS rid, id_key AS key FROM calls WHERE rowid IN ((SELECT min(rowid) FROM calls), (SELECT max(rowid) FROM calls))',
    )
    .all() as { rid: number; key: string }[];
  const has = db.prepare('SELECT 1 FROM call_ids_all WHERE key = ? AND rid = ?').pluck();
  if (ends.every((r) => has.get(r.key, r.rid) !== undefined)) return false;
  db.transaction(() => {
    db.exec(
      'DELETE FROM call_ids; DELETE FROM call_ids_recent; INSERT INTO call_ids (key, rid) SELECT id_key, rowid FROM calls ORDER BY 1, 2',
    );
  }).immediate();
  return true;
}
