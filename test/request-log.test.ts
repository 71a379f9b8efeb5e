// The request log: one line per request at info (method, route, status, ms, bytes, project,
// key id), never the key or the body; Fastify's own request lines are gone; a 500's error is
// logged at error with its stack; JSON and pretty formats; silent stays silent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, PROJECT, startTestApp, type TestAppOptions } from './helpers/test-app.js';
import { end, endItem, start, startItem } from './helpers/calls.js';
import type { LogFormat } from '../src/config.js';
import { WriteQueueFullError } from '../src/storage/calls/call-store.js';

const SECRET_INPUT = 'body-marker-that-must-not-be-logged';

async function appLogging(format: LogFormat, opts: TestAppOptions = {}, level = 'info') {
  const lines: string[] = [];
  const t = await startTestApp({
    ...opts,
    log: {
      level,
      format,
      destination: { write: (chunk: string) => lines.push(...chunk.split('\n').filter((l) => l !== '')) },
    },
  });
  return { t, lines };
}

/** A store whose call counts fail as an engine's unexpected fault does: a 500. */
const failingCount =
  (message: string): TestAppOptions['wrapStore'] =>
  (store) => ({
    ...store,
    calls: {
      ...store.calls,
      count: async () => {
        throw new Error(message);
      },
    },
  });

const records = (lines: string[]) => lines.map((l) => JSON.parse(l) as Record<string, any>);
const requestLines = (lines: string[]) => records(lines).filter((r) => r.msg === 'request');

test('json: one info line per request with its fields, never the key or the body', async () => {
  const { t, lines } = await appLogging('json', {
    keys: [{ user: 'ada', entity: PROJECT.split('/')[0]!, role: 'writer' }],
  });
  try {
    const key = t.keys[0]!;
    const s = start({ inputs: { q: SECRET_INPUT } });
    const body = { batch: [startItem(s), endItem(end(s.id))] };
    assert.equal((await t.post('/call/upsert_batch', body, bearer(key.key))).status, 200);
    assert.equal((await t.post('/calls/query_stats', { project_id: PROJECT })).status, 401);
    assert.equal((await t.get('/no/such/path?x=1')).status, 404);

    const all = records(lines);
    const reqs = requestLines(lines);
    assert.equal(reqs.length, 3, lines.join('\n'));
    assert.equal(all.length, 3, 'nothing but the request lines: no "incoming request" / "request completed"');
    const [write, refused, missing] = reqs as [Record<string, any>, Record<string, any>, Record<string, any>];
    assert.equal(write.level, 'info');
    assert.match(write.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(typeof write.reqId, 'string');
    assert.deepEqual(
      {
        method: write.method,
        route: write.route,
        status: write.status,
        project: write.project,
        key_id: write.key_id,
        bytes_in: write.bytes_in,
      },
      {
        method: 'POST',
        route: '/call/upsert_batch',
        status: 200,
        project: PROJECT,
        key_id: key.id,
        bytes_in: Buffer.byteLength(JSON.stringify(body)),
      },
    );
    assert.ok(typeof write.ms === 'number' && write.ms >= 0);
    assert.ok(write.bytes_out > 0);
    assert.deepEqual(
      [refused.route, refused.status, refused.key_id, refused.project],
      ['/calls/query_stats', 401, null, null],
    );
    assert.deepEqual([missing.route, missing.url, missing.status], [null, '/no/such/path?x=1', 404]);
    const text = lines.join('\n');
    for (const secret of [key.key, SECRET_INPUT, 'authorization'])
      assert.ok(!text.includes(secret), `the log holds ${secret}`);
  } finally {
    await t.close();
  }
});

test('a 500: an error line with its stack, and the request line', async () => {
  const { t, lines } = await appLogging('json', { wrapStore: failingCount('boom: the engine fell over') });
  try {
    const r = await t.post('/calls/query_stats', { project_id: PROJECT });
    assert.equal(r.status, 500, r.text);
    assert.ok(!r.text.includes('boom'), 'the client is not told internals');
    const errors = records(lines).filter((l) => l.level === 'error');
    assert.equal(errors.length, 1, lines.join('\n'));
    assert.match(errors[0]!.err.stack, /^Error: boom: the engine fell over\n\s+at /);
    const [line] = requestLines(lines);
    assert.deepEqual([line!.status, line!.route, line!.reqId], [500, '/calls/query_stats', errors[0]!.reqId]);
  } finally {
    await t.close();
  }
});

test('pretty: one readable line per request; an error keeps its stack below its line', async () => {
  const { t, lines } = await appLogging('pretty', { wrapStore: failingCount('pretty boom') });
  try {
    const s = start({ inputs: { q: SECRET_INPUT } });
    assert.equal((await t.post('/call/upsert_batch', { batch: [startItem(s)] })).status, 200);
    assert.equal((await t.post('/calls/query_stats', { project_id: PROJECT })).status, 500);
    const heads = lines.filter((l) => /^\d{4}-/.test(l));
    assert.equal(heads.length, 3, lines.join('\n'));
    assert.match(
      heads[0]!,
      new RegExp(
        `^\\S+Z INFO  POST /call/upsert_batch 200 [\\d.]+ ms in \\d+ B out \\d+ B project=${PROJECT} \\[req-\\d+\\]$`,
      ),
    );
    assert.match(heads[1]!, /^\S+Z ERROR unhandled error \[req-\d+\]$/);
    assert.match(heads[2]!, /^\S+Z INFO {2}POST \/calls\/query_stats 500 /);
    const stack = lines.slice(lines.indexOf(heads[1]!) + 1, lines.indexOf(heads[2]!));
    assert.match(stack[0]!, /^ {4}Error: pretty boom$/);
    assert.ok(stack.length > 1 && stack.slice(1).every((l) => /^ {8}at /.test(l)), stack.join('\n'));
    assert.ok(!lines.some((l) => l.startsWith('{')), 'no JSON');
    assert.ok(!lines.join('\n').includes(SECRET_INPUT));
  } finally {
    await t.close();
  }
});

test('levels: silent writes nothing, warn leaves the request lines out', async () => {
  for (const level of ['silent', 'warn']) {
    const { t, lines } = await appLogging('json', {}, level);
    try {
      assert.equal((await t.get('/health')).status, 200);
      assert.equal((await t.get('/nope')).status, 404);
      assert.deepEqual(lines, [], level);
    } finally {
      await t.close();
    }
  }
});

test('a 503 (a full ingest queue) is one warn line with its reason, no error and no stack', async () => {
  const full: TestAppOptions['wrapStore'] = (store) => ({
    ...store,
    calls: {
      ...store.calls,
      writeParts: async () => {
        throw new WriteQueueFullError(1, 1);
      },
    },
  });
  const { t, lines } = await appLogging('json', { wrapStore: full });
  try {
    const s = start();
    assert.equal((await t.post('/call/upsert_batch', { batch: [startItem(s)] })).status, 503);
    const all = records(lines);
    assert.deepEqual(all.map((r) => r.level).sort(), ['info', 'warn']);
    const warn = all.find((r) => r.level === 'warn')!;
    assert.match(warn.reason, /Too many call writes are waiting/);
    assert.ok(!JSON.stringify(warn).includes('stack'), JSON.stringify(warn));
    assert.equal(requestLines(lines)[0]!.status, 503);
  } finally {
    await t.close();
  }
});
