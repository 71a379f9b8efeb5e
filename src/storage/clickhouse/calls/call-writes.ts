// The writes of calls on ClickHouse, append-only: a writer reads what is stored of the calls
// it touches, merges it with what it brings (clickhouse/calls/call-rows.ts) and inserts one row per
// call, acknowledged once stored. Several Weft processes may write parts of one call at the
// same time; each writer then checks, after its insert, that the newest row of every call it
// wrote says everything the call's rows say together, and inserts a merged row where not. The
// writer whose insert lands last sees every other insert, so the newest row ends complete.
import type { ClickHouseClient } from '@clickhouse/client';
import type { CallPart } from '../../calls/call-store.js';
import { selectRows } from '../engine/client.js';
import { insertTabSeparated } from '../engine/tsv.js';
import { trimOldest } from '../engine/trim-oldest.js';
import {
  CALL_ROW_COLUMNS,
  decodeCallRow,
  endRow,
  mergeCallRows,
  sameState,
  startRow,
  type ChCallRow,
} from './call-rows.js';
import { seqClock } from '../engine/seq-clock.js';

/** Columns holding JSON.stringify text. */
const CALL_JSON_TEXT: ReadonlySet<string> = new Set([
  'attributes',
  'inputs',
  'output',
  'summary',
  'input_refs',
  'output_refs',
]);
/** Ids per statement when reading or deleting by id (a parameter array, read as a set). */
const IDS_PER_READ = 5000;
/** Start times kept as read hints (about 100 bytes each). */
const STARTS_REMEMBERED = 200_000;
/** Rows of open calls (started, not ended) kept to merge their ends with (a few KB each). */
const OPEN_REMEMBERED = 10_000;
/** Rounds of healing before a writer gives up on calls others keep rewriting (never seen). */
const HEAL_ROUNDS = 5;

export interface CallWrites {
  /** Writes rows merging `rows` (parts, renames, deletions) with what is stored of their calls. */
  write(rows: readonly ChCallRow[]): Promise<void>;
  /** Rows for the parts, each call's parts merged in order. */
  partRows(parts: readonly CallPart[]): ChCallRow[];
  nextSeq(): number;
}

const keyOf = (r: { project_id: string; id: string }) => `${r.project_id}\u0000${r.id}`;

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of items) {
    const k = key(t);
    const list = out.get(k);
    if (list === undefined) out.set(k, [t]);
    else list.push(t);
  }
  return out;
}

export function callWrites(client: ClickHouseClient, database: string): CallWrites {
  const table = `${database}.calls`;
  const clock = seqClock();
  const nextSeq = clock.next;
  /** A seq above every one seen (another process's clock may run ahead of ours). */
  const seqAbove = (rows: readonly ChCallRow[]) => {
    for (const r of rows) clock.passed(r.seq);
    return nextSeq();
  };

  /**
   * Start times of calls this process wrote lately, by project and id: a hint that bounds the
   * read of a call's stored rows to its stretch of the sort key. A wrong or missing hint costs
   * only speed: a start the bounded read misses leaves a row without a start, which the check
   * after the insert reads unbounded and heals.
   */
  const startedAt = new Map<string, number>();
  /**
   * The row this process last wrote of each call it started and has not seen end, the usual
   * case of an end arriving alone (the SDKs send a call's end when it returns): merged with it
   * instead of the stored rows, the end needs no read. It is what a read just after that insert
   * would have found; anything written since by another process (a rename, a deletion, an end)
   * the check after the insert finds, as for the rows a read could miss.
   */
  const openRows = new Map<string, ChCallRow>();
  const remember = (rows: readonly ChCallRow[]) => {
    for (const r of rows) {
      const k = keyOf(r);
      if (r.has_start === 1) startedAt.set(k, r.started_at);
      openRows.delete(k);
      if (r.has_start === 1 && r.has_end === 0) openRows.set(k, r);
    }
    trimOldest(startedAt, STARTS_REMEMBERED);
    trimOldest(openRows, OPEN_REMEMBERED);
  };
  const hinted = (projectId: string, ids: readonly string[]): { min: number; max: number } | null => {
    const times = ids.map((id) => startedAt.get(`${projectId}\u0000${id}`));
    if (times.length === 0 || times.some((t) => t === undefined)) return null;
    return { min: Math.min(...(times as number[])), max: Math.max(...(times as number[])) };
  };

  /** Every stored row of these calls; `started` bounds the read as in statesOf. */
  async function rowsOf(
    projectId: string,
    ids: readonly string[],
    started: { min: number; max: number } | null = null,
  ): Promise<ChCallRow[]> {
    const out: ChCallRow[] = [];
    const bound = started === null ? '' : ' AND (started_at BETWEEN {lo:Int64} AND {hi:Int64} OR started_at = 0)';
    for (let i = 0; i < ids.length; i += IDS_PER_READ) {
      const rows = await selectRows<Record<string, unknown>>(
        client,
        `SELECT * FROM ${table} PREWHERE project_id = {p:String}${bound} AND id IN (SELECT arrayJoin({ids:Array(String)}))`,
        { p: projectId, ids: ids.slice(i, i + IDS_PER_READ), ...(started ? { lo: started.min, hi: started.max } : {}) },
      );
      for (const r of rows) out.push(decodeCallRow(r));
    }
    return out;
  }

  /**
   * The state flags of every row of these calls (small: no payloads). With `started` (the
   * calls' start times, which every row of a call holding a start shares; rows without one
   * have 0), only those stretches of the sort key are read: the recent granules, not the project.
   * Every condition in PREWHERE (measured on chdb, 250 ids in 40,000 calls: 12.4 ms against
   * 14-15 ms with WHERE, which ClickHouse moves only in part).
   */
  async function statesOf(projectId: string, ids: readonly string[], started: { min: number; max: number } | null) {
    const out: Pick<ChCallRow, 'id' | 'seq' | 'has_start' | 'has_end' | 'named' | 'deleted_at'>[] = [];
    const bound = started === null ? '' : ' AND (started_at BETWEEN {lo:Int64} AND {hi:Int64} OR started_at = 0)';
    for (let i = 0; i < ids.length; i += IDS_PER_READ) {
      const rows = await selectRows<Record<string, unknown>>(
        client,
        `SELECT id, seq, has_start, has_end, named, deleted_at FROM ${table} PREWHERE project_id = {p:String}${bound} AND id IN (SELECT arrayJoin({ids:Array(String)}))`,
        { p: projectId, ids: ids.slice(i, i + IDS_PER_READ), ...(started ? { lo: started.min, hi: started.max } : {}) },
      );
      for (const r of rows) {
        out.push({
          id: String(r.id),
          seq: Number(r.seq),
          has_start: Number(r.has_start) as 0 | 1,
          has_end: Number(r.has_end) as 0 | 1,
          named: Number(r.named) as 0 | 1,
          deleted_at: r.deleted_at === null ? null : Number(r.deleted_at),
        });
      }
    }
    return out;
  }

  async function insert(rows: readonly ChCallRow[]) {
    await insertTabSeparated(client, table, CALL_ROW_COLUMNS, rows, CALL_JSON_TEXT);
  }

  /** Calls of one project whose newest row does not say all their rows say. */
  async function unsettled(
    projectId: string,
    ids: readonly string[],
    started: { min: number; max: number } | null = null,
  ): Promise<string[]> {
    const states = groupBy(await statesOf(projectId, ids, started), (s) => s.id);
    const out: string[] = [];
    for (const [id, rows] of states) {
      const newest = rows.reduce((a, b) => (b.seq > a.seq ? b : a));
      const all = {
        has_start: rows.some((r) => r.has_start === 1) ? 1 : 0,
        has_end: rows.some((r) => r.has_end === 1) ? 1 : 0,
        named: rows.some((r) => r.named === 1) ? 1 : 0,
        deleted_at: rows.find((r) => r.deleted_at !== null)?.deleted_at ?? null,
      } as ChCallRow;
      if (!sameState(newest, all)) out.push(id);
    }
    return out;
  }

  async function writeProject(projectId: string, incoming: readonly ChCallRow[]) {
    const byCall = groupBy(incoming, keyOf);
    // What is stored is read only for calls this write brings no start for (a lone end, a
    // rename, a deletion: they need the stored start's fields). A call whose start arrives is
    // written as it comes, and the check below merges in anything stored before it (an end
    // that came first, a rename, an earlier deletion).
    const startless = [
      ...new Set([...byCall.values()].filter((own) => !own.some((r) => r.has_start === 1)).map((own) => own[0]!.id)),
    ];
    const remembered = startless.map((id) => openRows.get(`${projectId}\u0000${id}`)).filter((r) => r !== undefined);
    const toRead = startless.filter((id) => !openRows.has(`${projectId}\u0000${id}`));
    const stored = groupBy([...remembered, ...(await rowsOf(projectId, toRead, hinted(projectId, toRead)))], keyOf);
    const seq = seqAbove([...stored.values()].flat());
    const rows = [...byCall].map(([key, own]) => {
      const known = stored.get(key);
      if (known !== undefined || own.length > 1) return mergeCallRows([...(known ?? []), ...own], seq);
      // One row of this write's own (partRows made it) and nothing stored: it is the call.
      own[0]!.seq = seq;
      return own[0]!;
    });
    await insert(rows);
    remember(rows);
    // Every row written holds a start: their start times bound the check's read.
    const started = rows.every((r) => r.has_start === 1)
      ? { min: Math.min(...rows.map((r) => r.started_at)), max: Math.max(...rows.map((r) => r.started_at)) }
      : null;
    let pending = await unsettled(
      projectId,
      rows.map((r) => r.id),
      started,
    );
    for (let round = 0; pending.length > 0 && round < HEAL_ROUNDS; round++) {
      const all = groupBy(await rowsOf(projectId, pending), keyOf);
      const healSeq = seqAbove([...all.values()].flat());
      const healed = [...all.values()].map((rs) => mergeCallRows(rs, healSeq));
      await insert(healed);
      remember(healed);
      pending = await unsettled(projectId, pending);
    }
  }

  return {
    async write(rows) {
      for (const [projectId, own] of groupBy(rows, (r) => r.project_id)) await writeProject(projectId, own);
    },
    partRows(parts) {
      const seq = nextSeq();
      const byCall = groupBy(
        parts.map((p) => (p.mode === 'start' ? startRow(p.start, seq) : endRow(p.end, seq))),
        keyOf,
      );
      // Parts of one call in one batch apply in order: a later copy of a part replaces an earlier
      // one (the rows are this batch's own, so their seq is set in place).
      return [...byCall.values()].map((own) => {
        if (own.length === 1) return own[0]!;
        own.forEach((r, i) => {
          r.seq = seq + i / own.length;
        });
        return mergeCallRows(own, seq);
      });
    },
    nextSeq,
  };
}
