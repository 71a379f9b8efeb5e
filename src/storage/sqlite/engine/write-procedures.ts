// Every write of the SQLite engine, by name: the one table the writer runs (sqlite/engine/writer.ts).
// A procedure runs inside a transaction the writer opened and must not open its own
// (nested db.transaction calls become savepoints, which is fine). Arguments and results
// cross a thread boundary: plain data only (structured clone), no functions or statements.
import type { SqliteDb } from './database.js';
import { faultKind } from './faults.js';
import { callWrites } from '../calls/call-writes.js';
import { objectWrites } from '../objects/object-writes.js';
import { tableWrites } from '../tables/table-writes.js';
import { fileWrites } from '../files/file-writes.js';
import { feedbackWrites } from '../feedback/feedback-writes.js';
import { costWrites } from '../costs/cost-writes.js';
import { settingsWrites } from '../settings/settings-writes.js';
import { authWrites } from '../auth/auth-writes.js';
import { spanWrites } from '../spans/span-writes.js';
import { spanPurges } from '../spans/span-purge.js';
import { historicalTurnWrites } from '../historical-turns/historical-turn-writes.js';
import { secretWrites } from '../secrets/secret-writes.js';
import { scoreJobWrites } from '../signals/score-job-writes.js';

export function createWriteProcedures(db: SqliteDb) {
  return {
    ...callWrites(db),
    ...objectWrites(db),
    ...tableWrites(db),
    ...fileWrites(db),
    ...feedbackWrites(db),
    ...costWrites(db),
    ...settingsWrites(db),
    ...authWrites(db),
    ...spanWrites(db),
    ...spanPurges(db),
    ...historicalTurnWrites(db),
    ...secretWrites(db),
    ...scoreJobWrites(db),
  };
}

export type WriteProcedures = ReturnType<typeof createWriteProcedures>;
export type WriteName = keyof WriteProcedures;
export type WriteArgs<K extends WriteName> = Parameters<WriteProcedures[K]>;
export type WriteResult<K extends WriteName> = ReturnType<WriteProcedures[K]>;
/** One queued write: a procedure name and its arguments. */
export type WriteJob = readonly [WriteName, readonly unknown[]];

/**
 * Work deferred past a write's answer (span-message-backlog.ts), done by the writer when no
 * job waits: `job` returns how much is left, and the jobs named in `fedBy` may leave more.
 * A chunk of IDLE_CHUNK spans takes ~25-50 ms: a write arriving meanwhile waits at most that.
 */
export const IDLE_CHUNK = 500;
export const IDLE_WORK: { readonly job: WriteJob; readonly fedBy: ReadonlySet<WriteName> } = {
  job: ['spans.indexMessages', [IDLE_CHUNK]],
  fedBy: new Set<WriteName>(['spans.write']),
};
/** What a job came to: its value, or the error it threw (its message and SQLite code). */
export type JobResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string; readonly code: string | null };

/**
 * Runs a group of jobs in one transaction (group commit). A job that throws is rolled back
 * alone and reported, the others commit together: the group first runs plainly, and only when
 * a job throws does it run again with each job in its own savepoint. Jobs rarely throw, and
 * a savepoint is not free: before a job first changes a page, SQLite copies the page to the
 * savepoint's journal, which past 64 KB is a temporary file (measured: 11% of the writer's
 * time on OTLP ingest, whose random keys change many pages a job). When the transaction
 * itself fails (a failed commit, or an error SQLite answers by rolling back the whole
 * transaction, such as SQLITE_FULL), each job is retried in a transaction of its own, except
 * when the database stayed locked by another process: then every job fails with that.
 */
export function createGroupRunner(db: SqliteDb): (jobs: readonly WriteJob[]) => JobResult[] {
  const procs = createWriteProcedures(db) as unknown as Record<WriteName, (...args: readonly unknown[]) => unknown>;
  const one = db.transaction((job: WriteJob) => procs[job[0]](...job[1]));
  const failure = (e: unknown): JobResult => ({
    ok: false,
    message: e instanceof Error ? e.message : String(e),
    code: typeof (e as { code?: unknown })?.code === 'string' ? (e as { code: string }).code : null,
  });
  const busy = (e: unknown) => faultKind((e as { code?: unknown }).code) === 'busy';
  const plain = db.transaction((jobs: readonly WriteJob[]) =>
    jobs.map((job): JobResult => ({ ok: true, value: procs[job[0]](...job[1]) })),
  );
  const group = db.transaction((jobs: readonly WriteJob[]) =>
    jobs.map((job): JobResult => {
      try {
        return { ok: true, value: one(job) };
      } catch (e) {
        if (!db.inTransaction) throw e; // SQLite rolled the whole transaction back
        return failure(e);
      }
    }),
  );
  return (jobs) => {
    try {
      return plain.immediate(jobs);
    } catch (e) {
      // Another process held the lock past the busy timeout: trying again would wait as long.
      if (busy(e)) return jobs.map(() => failure(e));
    }
    try {
      return group.immediate(jobs);
    } catch (e) {
      if (busy(e)) return jobs.map(() => failure(e));
      return jobs.map((job) => {
        try {
          return { ok: true, value: one.immediate(job) };
        } catch (e) {
          return failure(e);
        }
      });
    }
  };
}
