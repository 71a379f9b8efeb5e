// The agents benchmark's database: BENCH_AGENT_SPANS GenAI spans (gen-agents.ts), written
// in-process through the server's own span write path (spanRow, then SpanStore.write: owners,
// rollups and the search index settled as an export settles them) and cached under
// bench/.data/agents-<key>/; its ClickHouse twin (chdb) is seeded the same way from the same
// generator (seed-agents-ch.ts) and cached beside it, per ClickHouse schema.
// Contract: the key covers the size, the seed, the generator version and the SQLite schema;
// manifest.json (or `seeded` for ClickHouse) is written last and marks a cache complete. A cache
// of the same size, seed and generator under an older schema is upgraded in place by Weft's own
// migrations, as a user's database is (minutes of seeding saved per schema change); a change
// whose migration cannot bring old rows level must bump AGENT_GEN_VERSION. The ClickHouse twin's
// key covers its own schema, not SQLite's; an older twin is copied and migrated the same way.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spanRow } from '../../src/ingest/genai/span-row.js';
import type { SpanRow } from '../../src/query/span-columns.js';
import { CLICKHOUSE_MIGRATIONS } from '../../src/storage/clickhouse/engine/migrations/index.js';
import { SQLITE_MIGRATIONS } from '../../src/storage/sqlite/engine/migrations/index.js';
import { createSqliteStore, SQLITE_FILE } from '../../src/storage/sqlite/store.js';
import { DATA_DIR, dataPath, REPO_DIR, type BenchOptions } from './config.js';
import { USER_ID } from './dataset.js';
import { AGENT_GEN_VERSION, AGENTS_PROJECT, generateAgentTurns, LONG_TURNS, longConversationId } from './gen-agents.js';

/** Spans per write: a few hundred traces, as a busy exporter's batches add up to. */
const SPANS_PER_WRITE = 5_000;

export interface AgentManifest {
  readonly key: string;
  readonly project: string;
  readonly spans: number;
  readonly turns: number;
  readonly conversations: number;
  /** Turns of each long conversation, by id. */
  readonly long: Record<string, number>;
  readonly seedSeconds: number;
  readonly dbBytes: number;
}

const schemaHash = (x: unknown) => createHash('sha256').update(JSON.stringify(x)).digest('hex').slice(0, 8);

/** The dataset's key without the schema: size, seed and generator. */
function generatedKey(opts: Pick<BenchOptions, 'agentSpans' | 'seed'>): string {
  const seed = createHash('sha256').update(opts.seed).digest('hex').slice(0, 6);
  return `agents-${opts.agentSpans}-${seed}-g${AGENT_GEN_VERSION}`;
}

export function agentDatasetKey(opts: Pick<BenchOptions, 'agentSpans' | 'seed'>): string {
  return `${generatedKey(opts)}-s${schemaHash(SQLITE_MIGRATIONS)}`;
}

/** Upgrades a complete cache of the same spans under an older schema to `key`; false when none. */
async function upgradeCached(opts: Pick<BenchOptions, 'agentSpans' | 'seed'>, key: string, log: (s: string) => void) {
  const old = readdirSync(dataPath()).find(
    (name) =>
      name.startsWith(`${generatedKey(opts)}-s`) && name !== key && existsSync(join(DATA_DIR, name, 'manifest.json')),
  );
  if (old === undefined) return false;
  const t0 = performance.now();
  log(`bench: upgrading the cached agents database ${old} to ${key}`);
  const store = createSqliteStore(join(DATA_DIR, old), { inlineWrites: true });
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  await store.close();
  const manifestFile = join(DATA_DIR, old, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as AgentManifest;
  writeFileSync(
    manifestFile,
    JSON.stringify({ ...manifest, key, dbBytes: statSync(join(DATA_DIR, old, SQLITE_FILE)).size }),
  );
  renameSync(join(DATA_DIR, old), join(DATA_DIR, key));
  log(`bench: upgraded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return true;
}

/** The cached SQLite dataset for these options, seeded first when missing. */
export async function ensureAgentDataset(
  opts: Pick<BenchOptions, 'agentSpans' | 'seed'>,
  log: (s: string) => void = (s) => process.stderr.write(`${s}\n`),
): Promise<{ dir: string; manifest: AgentManifest }> {
  const key = agentDatasetKey(opts);
  const dir = join(DATA_DIR, key);
  const manifestFile = join(dir, 'manifest.json');
  if (existsSync(manifestFile) || (await upgradeCached(opts, key, log)))
    return { dir, manifest: JSON.parse(readFileSync(manifestFile, 'utf8')) as AgentManifest };
  // Same size, another generator: stale (GBs each).
  for (const name of readdirSync(dataPath()))
    if (name.startsWith(`agents-${opts.agentSpans}-`) && name !== key && !name.endsWith('.tmp')) {
      log(`bench: removing stale cached agents database ${name}`);
      rmSync(join(DATA_DIR, name), { recursive: true, force: true });
    }
  const tmp = join(DATA_DIR, `${key}.tmp`);
  rmSync(tmp, { recursive: true, force: true });
  dataPath(`${key}.tmp`);
  const t0 = performance.now();
  const store = createSqliteStore(tmp, { inlineWrites: true });
  store.db.pragma('synchronous = OFF'); // seeding only: the cache is rebuilt if anything fails
  store.db.pragma('cache_size = -262144');
  const conversations = new Set<string>();
  let rows: SpanRow[] = [];
  let spans = 0;
  let turns = 0;
  for (const t of generateAgentTurns({ seed: opts.seed, spans: opts.agentSpans })) {
    turns++;
    conversations.add(t.conversationId);
    for (const s of t.spans) rows.push(spanRow(s, {}, { projectId: AGENTS_PROJECT, wbUserId: USER_ID }));
    if (rows.length >= SPANS_PER_WRITE) {
      await store.spans.write(rows);
      spans += rows.length;
      rows = [];
      process.stderr.write(
        `\rbench: seeding agent spans ${spans.toLocaleString('en-US')} / ~${opts.agentSpans.toLocaleString('en-US')}`,
      );
    }
  }
  if (rows.length > 0) await store.spans.write(rows);
  spans += rows.length;
  process.stderr.write('\n');
  store.db.pragma('optimize = 0x10002');
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  await store.close();
  const manifest: AgentManifest = {
    key,
    project: AGENTS_PROJECT,
    spans,
    turns,
    conversations: conversations.size,
    long: Object.fromEntries(LONG_TURNS.map((n) => [longConversationId(n), n])),
    seedSeconds: (performance.now() - t0) / 1000,
    dbBytes: statSync(join(tmp, SQLITE_FILE)).size,
  };
  log(
    `bench: seeded ${spans} agent spans, ${turns} turns, ${conversations.size} conversations (${manifest.seedSeconds.toFixed(0)} s)`,
  );
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  writeFileSync(manifestFile, JSON.stringify(manifest));
  return { dir, manifest };
}

/** The ClickHouse twins of these spans, any schema, by key. */
const chTwins = (opts: Pick<BenchOptions, 'agentSpans' | 'seed'>) =>
  readdirSync(dataPath()).filter(
    (name) =>
      /^ch[0-9a-f]{8}-/.test(name) &&
      name.endsWith(`-${generatedKey(opts)}`) &&
      existsSync(join(DATA_DIR, name, 'seeded')),
  );

/** The dataset in ClickHouse (chdb), seeded once by seed-agents-ch.ts in a child process (the same spans). */
export function ensureAgentClickHouse(opts: Pick<BenchOptions, 'agentSpans' | 'seed'>): {
  chdb: string;
  seedSeconds: number;
  cached: boolean;
} {
  const dir = join(DATA_DIR, `ch${schemaHash(CLICKHOUSE_MIGRATIONS)}-${generatedKey(opts)}`);
  const done = join(dir, 'seeded');
  const chdb = join(dir, 'chdb');
  if (existsSync(done))
    return { chdb, seedSeconds: (JSON.parse(readFileSync(done, 'utf8')) as { s: number }).s, cached: true };
  rmSync(dir, { recursive: true, force: true });
  // A twin under an older schema: a copy of it migrated by Weft (seed-agents-ch.ts with 0 spans).
  const [old] = chTwins(opts).sort((a, b) => statSync(join(DATA_DIR, b)).mtimeMs - statSync(join(DATA_DIR, a)).mtimeMs);
  if (old !== undefined) cpSync(join(DATA_DIR, old, 'chdb'), chdb, { recursive: true });
  process.stderr.write(
    old === undefined
      ? `bench: seeding the agent spans into ClickHouse (${dir})...\n`
      : `bench: migrating a copy of the ClickHouse agent spans ${old} to ${dir}...\n`,
  );
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(REPO_DIR, 'bench', 'lib', 'seed-agents-ch.ts'),
      chdb,
      old === undefined ? String(opts.agentSpans) : '0',
      opts.seed,
    ],
    { cwd: REPO_DIR, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (r.status !== 0) throw new Error(`seeding ClickHouse failed (${r.status})`);
  const s =
    old === undefined
      ? (performance.now() - t0) / 1000
      : (JSON.parse(readFileSync(join(DATA_DIR, old, 'seeded'), 'utf8')) as { s: number }).s;
  if (old !== undefined) process.stderr.write(`bench: migrated in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  writeFileSync(done, JSON.stringify({ s }));
  return { chdb, seedSeconds: s, cached: false };
}
