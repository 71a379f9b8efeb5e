// Builds a Weft app on a real SQLite file in a temporary directory and calls it
// through HTTP semantics (app.inject: no socket, same routing, parsing and errors).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { createSqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import type { Store } from '../../src/storage/store.js';
import { DEFAULTS } from '../../src/config.js';

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
  post(path: string, body: unknown): Promise<Reply>;
  /** Sends raw text as the body (for malformed JSON tests). */
  postRaw(path: string, payload: string | Buffer, contentType?: string): Promise<Reply>;
  get(path: string): Promise<Reply>;
  close(): Promise<void>;
}

export const PROJECT = 'test-entity/test-project';
export const LOCAL_USER = 'local-user';

function toReply(res: { statusCode: number; headers: Record<string, unknown>; body: string }): Reply {
  let body: unknown = undefined;
  try {
    body = res.body.length ? JSON.parse(res.body) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body, text: res.body };
}

export async function startTestApp(opts: { bodyLimit?: number } = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-test-'));
  const store = createSqliteStore(dataDir);
  const app = await buildApp({
    store,
    config: { bodyLimit: opts.bodyLimit ?? DEFAULTS.bodyLimit, localUserId: LOCAL_USER, localUsername: 'local', logLevel: 'silent' },
  });
  const postRaw = async (path: string, payload: string | Buffer, contentType = 'application/json') =>
    toReply(await app.inject({ method: 'POST', url: path, payload, headers: { 'content-type': contentType } }));
  return {
    app,
    store,
    dataDir,
    post: (path, body) => postRaw(path, JSON.stringify(body)),
    postRaw,
    get: async (path) => toReply(await app.inject({ method: 'GET', url: path })),
    async close() {
      await app.close();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
