// The scoring queue on ClickHouse (migration 12), shared by every Weft server on the database.
// ClickHouse has no transactions, so a claim is a race with a rule to settle it: each server that
// wants a job inserts a claim row for the job's next attempt, waits CLAIM_SETTLE_MS, then reads
// every claim of that attempt; the earliest by the server's own clock (`claimed_at`, set by
// ClickHouse on insert, then the owner's name) holds the job. A claim that arrives later was
// stamped later, and one stamped earlier was inserted before ours was acknowledged and is
// visible after the wait; so every contender reads the same winner. The winner then writes the
// job's `running` row. Jobs of one key live on one shard (sharded by key), so one clock decides.
import type { ClickHouseClient } from '@clickhouse/client';
import { scoreJobKey } from '../../signals/score-job-key.js';
import type { MonitorJobHealth, ScoreJob, ScoreJobCounts, ScoreJobStore } from '../../signals/score-job-store.js';
import { selectRows } from '../engine/client.js';
import { chIdentifier } from '../engine/dialect.js';
import { seqClock } from '../engine/seq-clock.js';

/** Longer than an insert takes to be acknowledged; a claim costs this much once. */
export const CLAIM_SETTLE_MS = 500;

type Row = {
  key: string;
  project_id: string;
  monitor_id: string;
  monitor_digest: string;
  scorer_ref: string;
  target_kind: string;
  target_id: string;
  state: string;
  attempts: number;
  due_at: string;
  lease_owner: string;
  lease_until: string;
  last_error: string | null;
  created_at: string;
};

const COLUMNS = [
  'project_id',
  'monitor_id',
  'monitor_digest',
  'scorer_ref',
  'target_kind',
  'target_id',
  'state',
  'attempts',
  'due_at',
  'lease_owner',
  'lease_until',
  'last_error',
  'created_at',
];

/** A row read back, its 64-bit integers (JSON strings) as numbers, to be written again. */
const plain = (r: Row) => ({
  ...r,
  attempts: Number(r.attempts),
  due_at: Number(r.due_at),
  lease_until: Number(r.lease_until),
  created_at: Number(r.created_at),
});

const toJob = (r: Row): ScoreJob => ({
  key: r.key,
  project_id: r.project_id,
  monitor_id: r.monitor_id,
  monitor_digest: r.monitor_digest,
  scorer_ref: r.scorer_ref,
  target_kind: r.target_kind as ScoreJob['target_kind'],
  target_id: r.target_id,
  state: r.state as ScoreJob['state'],
  attempts: Number(r.attempts),
  last_error: r.last_error,
  created_at: Number(r.created_at),
});

export function createClickHouseScoreJobStore(
  client: ClickHouseClient,
  database: string,
  opts: { settleMs?: number } = {},
): ScoreJobStore {
  const db = chIdentifier(database);
  const settleMs = opts.settleMs ?? CLAIM_SETTLE_MS;
  const nextSeq = seqClock().next;
  /** Each job's newest row, for the keys given or (null) every job matching `where`. */
  const newest = (where: string, params: Record<string, unknown>) =>
    selectRows<Row>(
      client,
      `SELECT key, ${COLUMNS.map((c) => `argMax(${c}, seq) AS ${c}`).join(', ')}
       FROM ${db}.score_jobs ${where} GROUP BY key`,
      params,
    );
  const insert = (rows: Record<string, unknown>[]) =>
    client.insert({ table: `${db}.score_jobs`, values: rows, format: 'JSONEachRow' });
  const held = async (key: string, owner: string) => {
    const [row] = await newest('WHERE key = {k:String}', { k: key });
    return row !== undefined && row.state === 'running' && row.lease_owner === owner ? plain(row) : null;
  };

  return {
    async enqueue(jobs) {
      if (jobs.length === 0) return 0;
      const keyed = new Map(jobs.map((j) => [scoreJobKey(j), j]));
      const present = new Set(
        (
          await selectRows<{ key: string }>(
            client,
            `SELECT DISTINCT key FROM ${db}.score_jobs WHERE key IN {keys:Array(String)}`,
            { keys: [...keyed.keys()] },
          )
        ).map((r) => r.key),
      );
      const fresh = [...keyed].filter(([key]) => !present.has(key));
      if (fresh.length === 0) return 0;
      // seq 0: a new job's row never outranks a claim another server made meanwhile.
      await insert(
        fresh.map(([key, j]) => ({
          key,
          ...j,
          state: 'queued',
          attempts: 0,
          due_at: j.due_at ?? j.created_at,
          lease_owner: '',
          lease_until: 0,
          last_error: null,
          updated_at: j.created_at,
          seq: 0,
        })),
      );
      return fresh.length;
    },

    // Only keys with a queued or running row are read whole: an open job's newest row is one,
    // and once ClickHouse merges a finished job's rows (ReplacingMergeTree by seq) only its last
    // row is left, so the claim reads the open jobs, not the whole history.
    async claim(owner, now, leaseMicros, limit) {
      const open = await selectRows<Row>(
        client,
        `SELECT * FROM (
           SELECT key, ${COLUMNS.map((c) => `argMax(${c}, seq) AS ${c}`).join(', ')}
           FROM ${db}.score_jobs
           WHERE key IN (SELECT key FROM ${db}.score_jobs WHERE state IN ('queued', 'running'))
           GROUP BY key)
         WHERE (state = 'queued' AND due_at <= {now:Int64}) OR (state = 'running' AND lease_until < {now:Int64})
         ORDER BY due_at LIMIT {limit:UInt32}`,
        { now, limit },
      );
      if (open.length === 0) return [];
      await client.insert({
        table: `${db}.score_claims`,
        values: open.map((r) => ({ key: r.key, attempt: Number(r.attempts) + 1, owner })),
        format: 'JSONEachRow',
        columns: ['key', 'attempt', 'owner'],
      });
      await new Promise((r) => setTimeout(r, settleMs));
      const winners = await selectRows<{ key: string; attempt: number; owner: string }>(
        client,
        `SELECT key, attempt, argMin(owner, (claimed_at, owner)) AS owner FROM ${db}.score_claims
         WHERE key IN {keys:Array(String)} GROUP BY key, attempt`,
        { keys: open.map((r) => r.key) },
      );
      const attempt = new Map(open.map((r) => [r.key, Number(r.attempts) + 1]));
      const mine = new Set(
        winners.filter((w) => w.owner === owner && Number(w.attempt) === attempt.get(w.key)).map((w) => w.key),
      );
      const won = open.filter((r) => mine.has(r.key));
      if (won.length === 0) return [];
      await insert(
        won.map((r) => ({
          ...plain(r),
          state: 'running',
          attempts: Number(r.attempts) + 1,
          lease_owner: owner,
          lease_until: now + leaseMicros,
          updated_at: now,
          seq: nextSeq(),
        })),
      );
      return won.map((r) => toJob({ ...r, state: 'running', attempts: Number(r.attempts) + 1 }));
    },

    async finish(key, owner, state, error, now) {
      const row = await held(key, owner);
      if (row === null) return;
      await insert([
        { ...row, state, last_error: error, lease_owner: '', lease_until: 0, updated_at: now, seq: nextSeq() },
      ]);
    },

    async retry(key, owner, dueAt, error, now) {
      const row = await held(key, owner);
      if (row === null) return;
      await insert([
        {
          ...row,
          state: 'queued',
          due_at: dueAt,
          last_error: error,
          lease_owner: '',
          lease_until: 0,
          updated_at: now,
          seq: nextSeq(),
        },
      ]);
    },

    async queued() {
      const [row] = await selectRows<{ n: string }>(
        client,
        `SELECT count() AS n FROM (
           SELECT key, argMax(state, seq) AS state FROM ${db}.score_jobs
           WHERE key IN (SELECT key FROM ${db}.score_jobs WHERE state = 'queued') GROUP BY key)
         WHERE state = 'queued'`,
        {},
      );
      return Number(row?.n ?? 0);
    },

    async counts(projectId) {
      const rows = await selectRows<{ state: string; n: string }>(
        client,
        `SELECT state, count() AS n FROM (
           SELECT key, argMax(state, seq) AS state FROM ${db}.score_jobs
           ${projectId === null ? '' : 'WHERE project_id = {p:String}'} GROUP BY key)
         GROUP BY state`,
        { p: projectId },
      );
      const out: Record<string, number> = { queued: 0, running: 0, done: 0, failed: 0 };
      for (const r of rows) out[r.state] = Number(r.n);
      return out as unknown as ScoreJobCounts;
    },

    async health(projectId) {
      const rows = await selectRows<Record<string, string | null>>(
        client,
        `SELECT monitor_id, countIf(state = 'queued') AS queued, countIf(state = 'running') AS running,
           countIf(state = 'done') AS done, countIf(state = 'failed') AS failed,
           maxIf(updated_at, state = 'done') AS last_done_at, countIf(state = 'done') > 0 AS any_done,
           argMaxIf(last_error, updated_at, failing) AS last_error, maxIf(updated_at, failing) AS last_error_at,
           countIf(failing) > 0 AS any_error
         FROM (
           SELECT key, argMax(monitor_id, seq) AS monitor_id, argMax(state, seq) AS state,
             argMax(last_error, seq) AS last_error, argMax(updated_at, seq) AS updated_at,
             isNotNull(last_error) AND state != 'done' AS failing
           FROM ${db}.score_jobs WHERE project_id = {p:String} GROUP BY key)
         GROUP BY monitor_id ORDER BY monitor_id`,
        { p: projectId },
      );
      return rows.map(
        (r): MonitorJobHealth => ({
          monitor_id: String(r.monitor_id),
          queued: Number(r.queued),
          running: Number(r.running),
          done: Number(r.done),
          failed: Number(r.failed),
          last_done_at: Number(r.any_done) ? Number(r.last_done_at) : null,
          last_error: Number(r.any_error) ? (r.last_error ?? null) : null,
          last_error_at: Number(r.any_error) ? Number(r.last_error_at) : null,
        }),
      );
    },
    async get(key) {
      const [row] = await newest('WHERE key = {k:String}', { k: key });
      return row === undefined ? null : toJob(row);
    },
  };
}
