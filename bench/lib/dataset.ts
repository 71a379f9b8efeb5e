// The seeded database the read benchmarks share: BENCH_CALLS calls (one big trace
// included), objects with many versions, and feedback, built once in-process (no HTTP)
// through the same code the server runs (toStartPart/toEndPart + CallStore.writeParts,
// createObject, the feedback service) and cached under bench/.data/db-<key>/.
// Contract: the key covers the size, the seed, the generator version and the schema
// (a hash of the migrations), so a cached database always matches what would be seeded
// now; manifest.json is written last and marks the cache complete.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallPart } from '../../src/storage/calls/call-store.js';
import { toEndPart, toStartPart } from '../../src/service/calls/call-parts.js';
import { createObject } from '../../src/service/objects/object-service.js';
import { createFeedbackService } from '../../src/service/feedback/feedback-service.js';
import type { FeedbackCreateReq } from '../../src/api/feedback.js';
import { SQLITE_MIGRATIONS } from '../../src/storage/sqlite/engine/migrations/index.js';
import { createSqliteStore, SQLITE_FILE } from '../../src/storage/sqlite/store.js';
import { bigTraceCalls, DATA_DIR, dataPath, objectsPlanFor, type BenchOptions } from './config.js';
import { GEN_VERSION, generateTraces, opRef, PROJECT, type BatchItem } from './gen-calls.js';
import { generateObjectVersions } from './gen-objects.js';
import { Rng } from './rng.js';

/** The server's default identity (config.ts DEFAULTS.localUserId): what HTTP writes would store. */
export const USER_ID = 'local-user';
const PARTS_PER_TX = 10_000;
const OBJECTS_PER_TX = 5_000;
const SAMPLE = 5_000;

export interface Manifest {
  readonly key: string;
  readonly project: string;
  readonly calls: number;
  readonly traces: number;
  readonly bigTraceId: string;
  readonly bigTraceCalls: number;
  /** op ref of the most common root op, for the trace_roots_only + op_names query */
  readonly rootOpRef: string;
  readonly sampleCallIds: string[];
  readonly objects: number;
  readonly objectVersions: number;
  readonly sampleObjects: { object_id: string; digest: string }[];
  readonly feedback: number;
  readonly seedSeconds: number;
  readonly dbBytes: number;
}

export interface Dataset {
  /** the data dir to start Weft with (holds weft.sqlite) */
  readonly dir: string;
  readonly manifest: Manifest;
}

const schemaHash = () => createHash('sha256').update(JSON.stringify(SQLITE_MIGRATIONS)).digest('hex').slice(0, 8);

export function datasetKey(opts: Pick<BenchOptions, 'calls' | 'seed'>): string {
  return `db-${opts.calls}-${createHash('sha256').update(opts.seed).digest('hex').slice(0, 6)}-g${GEN_VERSION}-s${schemaHash()}`;
}

/** Keeps a uniform sample of at most `size` items (Algorithm R, seeded). */
function reservoir<T>(rng: Rng, size: number) {
  const items: T[] = [];
  let seen = 0;
  return {
    items,
    offer(x: T) {
      seen++;
      if (items.length < size) items.push(x);
      else {
        const j = Math.floor(rng.float() * seen);
        if (j < size) items[j] = x;
      }
    },
  };
}

/** Returns the cached dataset for these options, seeding it first when missing. */
export async function ensureDataset(
  opts: Pick<BenchOptions, 'calls' | 'seed'>,
  log: (s: string) => void = (s) => process.stderr.write(`${s}\n`),
): Promise<Dataset> {
  const key = datasetKey(opts);
  const dir = join(DATA_DIR, key);
  const manifestFile = join(dir, 'manifest.json');
  if (existsSync(manifestFile)) return { dir, manifest: JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest };

  // Databases of the same size for an older schema or generator are stale (GBs each): drop them.
  for (const name of readdirSync(dataPath())) {
    if (name.startsWith(`db-${opts.calls}-`) && name !== key) {
      log(`bench: removing stale cached database ${name}`);
      rmSync(join(DATA_DIR, name), { recursive: true, force: true });
    }
  }
  const tmp = dataPath(`${key}.tmp`);
  rmSync(tmp, { recursive: true, force: true });
  dataPath(`${key}.tmp`);
  const t0 = performance.now();
  const path = join(tmp, SQLITE_FILE);
  // The server's write procedures, run inline on one connection so that a batch of writes
  // can share one outer transaction (they nest as savepoints).
  const store = createSqliteStore(tmp, { inlineWrites: true });
  const db = store.db;
  // Seeding only: durability is pointless here (the cache is rebuilt if anything fails).
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const callStore = store.calls;
  const feedback = createFeedbackService(store.feedback);
  const sampleRng = new Rng(`${opts.seed}:sample`);
  const callSample = reservoir<string>(sampleRng, SAMPLE);
  const big = bigTraceCalls(opts.calls);
  let traces = 0;
  let calls = 0;
  let bigTraceId = '';
  let feedbackRows = 0;
  let parts: CallPart[] = [];
  let pendingFeedback: FeedbackCreateReq[] = [];
  const toPart = (it: BatchItem): CallPart =>
    it.mode === 'start'
      ? { mode: 'start', start: toStartPart(it.req.start, USER_ID) }
      : { mode: 'end', end: toEndPart(it.req.end) };

  for (const t of generateTraces({ seed: opts.seed, calls: opts.calls, bigTraceCalls: big })) {
    traces++;
    const n = t.items.length / 2;
    calls += n;
    if (t.big) bigTraceId = t.traceId;
    for (const it of t.items) {
      parts.push(toPart(it));
      if (it.mode === 'start') callSample.offer(it.req.start.id!);
    }
    pendingFeedback.push(...t.feedback);
    if (parts.length >= PARTS_PER_TX) {
      await callStore.writeParts(parts);
      parts = [];
      if (traces % 20 === 0)
        process.stderr.write(
          `\rbench: seeding calls ${calls.toLocaleString('en-US')} / ${opts.calls.toLocaleString('en-US')}`,
        );
    }
    if (pendingFeedback.length >= 1000) {
      feedbackRows += (await feedback.createBatch(pendingFeedback, USER_ID)).length;
      pendingFeedback = [];
    }
  }
  if (parts.length > 0) await callStore.writeParts(parts);
  if (pendingFeedback.length > 0) feedbackRows += (await feedback.createBatch(pendingFeedback, USER_ID)).length;
  process.stderr.write('\n');
  log(`bench: seeded ${calls} calls in ${traces} traces (${((performance.now() - t0) / 1000).toFixed(0)} s)`);

  // Objects: with inline writes createObject runs its store write synchronously, so a batch
  // of them shares one outer transaction (the writes nest as savepoints).
  const objects = store.objects;
  const plan = objectsPlanFor(opts.calls);
  const objSample = reservoir<{ object_id: string; digest: string }>(sampleRng, SAMPLE);
  let batch: Promise<{ digest: string; object_id: string }>[] = [];
  const flush = db.transaction((reqs: Parameters<typeof createObject>[1][]) => {
    for (const r of reqs) batch.push(createObject(objects, r, USER_ID));
  });
  let reqs: Parameters<typeof createObject>[1][] = [];
  for (const req of generateObjectVersions({ seed: opts.seed, ...plan })) {
    reqs.push(req);
    if (reqs.length >= OBJECTS_PER_TX) {
      flush(reqs);
      reqs = [];
    }
  }
  flush(reqs);
  for (const r of await Promise.all(batch)) objSample.offer(r);
  batch = [];
  const versions = db.prepare('SELECT COUNT(*) FROM object_versions').pluck().get() as number;
  if (versions !== plan.versions) throw new Error(`seeded ${versions} object versions, planned ${plan.versions}`);

  // Leave the file as a long-running server would: statistics gathered, WAL checkpointed.
  db.pragma('optimize = 0x10002');
  db.pragma('wal_checkpoint(TRUNCATE)');
  await store.close();
  const seedSeconds = (performance.now() - t0) / 1000;
  log(`bench: seeded ${versions} object versions, ${feedbackRows} feedback rows; total ${seedSeconds.toFixed(0)} s`);

  const manifest: Manifest = {
    key,
    project: PROJECT,
    calls,
    traces,
    bigTraceId,
    bigTraceCalls: big,
    rootOpRef: opRef('ChatAgent.run'),
    sampleCallIds: callSample.items,
    objects: plan.objects,
    objectVersions: versions,
    sampleObjects: objSample.items,
    feedback: feedbackRows,
    seedSeconds,
    dbBytes: statSync(path).size,
  };
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  writeFileSync(manifestFile, JSON.stringify(manifest));
  return { dir, manifest };
}
