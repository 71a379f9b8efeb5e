// Builds a Weft app on a real SQLite file in a temporary directory and calls it
// through HTTP semantics (app.inject: no socket, same routing, parsing and errors).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { createSqliteStore } from '../../src/storage/sqlite/store.js';
import type { Store } from '../../src/storage/store.js';
import { clickhouseDatabase, testEngine, withClickHouse } from './clickhouse-engine.js';
import { DEFAULTS } from '../../src/config.js';
import { OPEN_ACCESS } from '../../src/service/auth/auth-access.js';
import { createKey, type CreateKeyInput, type CreatedKey } from '../../src/service/auth/auth-keys.js';
import type { LogFormat } from '../../src/config.js';
import type { LogDestination } from '../../src/http/pretty-log.js';

export interface Reply {
  status: number;
  headers: Record<string, unknown>;
  body: any;
  text: string;
}

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  dataDir: string;
  /** The keys created by `startTestApp({ keys })`, in order (each with its clear-text `key`). */
  keys: CreatedKey[];
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Sends raw text as the body (for malformed JSON tests). */
  postRaw(
    path: string,
    payload: string | Buffer,
    contentType?: string,
    headers?: Record<string, string>,
  ): Promise<Reply>;
  get(path: string, headers?: Record<string, string>): Promise<Reply>;
  close(): Promise<void>;
}

export const PROJECT = 'test-entity/test-project';
export const LOCAL_USER = 'local-user';

function toReply(res: { statusCode: number; headers: Record<string, unknown>; body: string }): Reply {
  let body: unknown;
  try {
    body = res.body.length ? JSON.parse(res.body) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body, text: res.body };
}

export interface TestAppOptions {
  bodyLimit?: number;
  /** Bound on call bytes waiting to be written (default: DEFAULTS). */
  ingestQueueBytes?: number;
  /** Retention job interval; default 0 = the job never runs on its own. */
  retentionIntervalMs?: number;
  /** API keys created before the first request: the app then runs keyed, not open. */
  keys?: readonly CreateKeyInput[];
  /** Requests per minute per API key (default 0: no limit). */
  rateLimitPerMinute?: number;
  /** Open mode's GraphQL default entity (default: the local username). */
  defaultEntity?: string;
  /** The built web UI's directory (default: the package's dist/ui; null: none). */
  uiDir?: string | null;
  /** ClickHouse only: run on the database of this other test app (a second replica of it). */
  replicaOf?: TestApp;
  /** ClickHouse only: the call cache's bound in bytes (default: the engine's; 0: none). */
  callCacheBytes?: number;
  /** Replaces parts of the store before the app is built (e.g. a resource on a failing engine). */
  wrapStore?: (store: Store) => Store;
  /** Logs at this level and format into `destination` (default: silent). */
  log?: { level: string; format?: LogFormat; destination: LogDestination };
  /** WEFT_METRICS_TOKEN (default: none). */
  metricsToken?: string;
  /** Open this data directory (kept on close) instead of a new temporary one. */
  dataDir?: string;
  /** WEFT_SECRETS_KEY (default: none, so secrets.key in the data directory). */
  secretsKey?: string;
  /** WEFT_ALLOWED_HOSTS (default: none). */
  allowedHosts?: readonly string[];
  /** WEFT_OUTBOUND_ALLOWED_HOSTS (default: none). */
  outboundAllowedHosts?: readonly string[];
  /** The environment the server reads WEFT_PROVIDER_* and WEFT_SECRET_* from (default: none). */
  env?: NodeJS.ProcessEnv;
  /** The signals worker's bounds (default: the server's). */
  signals?: { concurrency?: number; pollMs?: number; backlog?: number };
}

/** `Authorization: Bearer <key>`, for the `headers` argument of post / get. */
export const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

/** A test app on the engine of WEFT_TEST_ENGINE (default SQLite; see clickhouse-engine.ts). */
export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'weft-test-'));
  const sqlite = createSqliteStore(dataDir);
  const shared = opts.replicaOf === undefined ? undefined : (clickhouseDatabase(opts.replicaOf.store) ?? undefined);
  if (opts.replicaOf !== undefined && shared === undefined) throw new Error('replicaOf needs a ClickHouse test app');
  const engineStore =
    testEngine() === 'clickhouse' ? await withClickHouse(sqlite, shared, opts.callCacheBytes) : sqlite;
  const store = opts.wrapStore ? opts.wrapStore(engineStore) : engineStore;
  const app = await buildApp({
    store,
    config: {
      bodyLimit: opts.bodyLimit ?? DEFAULTS.bodyLimit,
      localUserId: LOCAL_USER,
      localUsername: 'local',
      logLevel: opts.log?.level ?? 'silent',
      logFormat: opts.log?.format ?? 'json',
      metricsToken: opts.metricsToken ?? null,
      ingestQueueBytes: opts.ingestQueueBytes ?? DEFAULTS.ingestQueueBytes,
      retentionIntervalMs: opts.retentionIntervalMs ?? 0,
      rateLimitPerMinute: opts.rateLimitPerMinute ?? 0,
      defaultEntity: opts.defaultEntity ?? null,
      allowedHosts: opts.allowedHosts ?? [],
      dataDir,
      secretsKey: opts.secretsKey ?? null,
      outboundAllowedHosts: opts.outboundAllowedHosts ?? [],
      signalsBacklog: opts.signals?.backlog ?? DEFAULTS.signalsBacklog,
    },
    env: opts.env ?? {},
    ...(opts.signals ? { signals: opts.signals } : {}),
    ...(opts.uiDir !== undefined ? { uiDir: opts.uiDir } : {}),
    ...(opts.log ? { logDestination: opts.log.destination } : {}),
  });
  const keys: CreatedKey[] = [];
  for (const k of opts.keys ?? []) keys.push(await createKey(store.auth, k, OPEN_ACCESS));
  const postRaw = async (
    path: string,
    payload: string | Buffer,
    contentType = 'application/json',
    headers: Record<string, string> = {},
  ) =>
    toReply(
      await app.inject({ method: 'POST', url: path, payload, headers: { ...headers, 'content-type': contentType } }),
    );
  return {
    app,
    store,
    dataDir,
    keys,
    post: (path, body, headers) => postRaw(path, JSON.stringify(body), 'application/json', headers),
    postRaw,
    get: async (path, headers) => toReply(await app.inject({ method: 'GET', url: path, headers: headers ?? {} })),
    async close() {
      await app.close();
      await store.close();
      if (opts.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
