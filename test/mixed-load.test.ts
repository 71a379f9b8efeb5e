// Every kind of write at once, on a real server over real sockets, for a few seconds
// (bench/lib/mixed-load.ts: call ingestion by 4 clients, call deletes and updates, objects
// with tags and deletes, tables, files, feedback create / replace / purge, costs create /
// purge, time-to-live changes with the retention job purging, and readers). No request may
// answer 5xx or reset; afterwards every acknowledged write is readable and every
// acknowledged delete is gone.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, tempDirs } from './helpers/weft-process.js';
import { end, endItem, newId, start, startItem } from './helpers/calls.js';
import { runMixedLoad, type IngestBatch } from '../bench/lib/mixed-load.js';

const LOAD_MS = 8_000;
const P = 'mix/main';
const EXPIRING = 'mix/expiring';
const dirs = tempDirs('weft-mixed-');
after(() => dirs.removeAll());

/** 10 traces of 10 calls (a root and a chain of 9), start and end in one batch. */
function traceBatch(project: string, startedAt?: string): IngestBatch {
  const items: unknown[] = [];
  const traces: string[][] = [];
  for (let t = 0; t < 10; t++) {
    const trace = newId();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const s = start({
        project_id: project,
        trace_id: trace,
        ...(i > 0 ? { parent_id: ids[i - 1]! } : {}),
        ...(startedAt ? { started_at: startedAt } : {}),
        inputs: { pad: 'x'.repeat(500) },
      });
      ids.push(s.id);
      items.push(
        startItem(s),
        endItem(
          end(s.id, {
            project_id: project,
            summary: { usage: { 'gpt-4o': { prompt_tokens: 3, completion_tokens: 4 } } },
          }),
        ),
      );
    }
    traces.push(ids);
  }
  return { body: JSON.stringify({ batch: items }), calls: traces.flat(), traces };
}

test('mixed load: no 5xx or reset; every acknowledged write readable, every acknowledged delete gone', {
  timeout: 120_000,
}, async () => {
  const server = await serve(['--data-dir', dirs.make(), '--retention-interval-ms', '100']);
  assert.ok(server.port, server.stderr);
  const url = `http://127.0.0.1:${server.port}`;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    assert.equal(res.status, 200, `${path}: ${text.slice(0, 300)}`);
    return { text, body: path.endsWith('stream_query') ? undefined : JSON.parse(text) };
  };
  try {
    const deadline = Date.now() + LOAD_MS;
    const rec = await runMixedLoad({
      url,
      project: P,
      expiringProject: EXPIRING,
      ingestClients: 4,
      others: true,
      nextBatch: () => (Date.now() < deadline ? traceBatch(P) : null),
      expiringBatch: (startedAt) => traceBatch(EXPIRING, startedAt).body,
    });
    assert.deepEqual(rec.failures, [], 'no 5xx, no reset, every write answered 200');
    for (const path of [
      '/call/upsert_batch',
      '/calls/delete',
      '/call/update',
      '/obj/create',
      '/obj/delete',
      '/objs/{object_id}/versions/{digest}/tags',
      '/table/create',
      '/file/create',
      '/feedback/create',
      '/feedback/replace',
      '/feedback/purge',
      '/cost/create',
      '/cost/purge',
      '/project/ttl_settings/update',
      '/calls/stream_query',
      '/call/read',
      '/objs/query',
      '/feedback/query',
      '/table/query',
    ]) {
      assert.ok((rec.counts.get(path) ?? 0) >= 2, `${path} ran under load (${rec.counts.get(path) ?? 0} requests)`);
    }

    // Calls: exactly the acknowledged ones minus the deleted traces.
    const stream = await post('/calls/stream_query', { project_id: P, columns: ['id', 'display_name'] });
    const live = new Map<string, string | null>(
      stream.text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .map((c: any) => [c.id, c.display_name]),
    );
    const expected = [...rec.acked].filter((id) => !rec.deleted.has(id));
    assert.ok(rec.deleted.size > 0);
    assert.equal(live.size, expected.length, 'live calls = acknowledged - deleted');
    for (const id of expected) assert.ok(live.has(id), `acknowledged call ${id} is readable`);
    for (const id of rec.deleted)
      assert.equal((await post('/call/read', { project_id: P, id })).body.call, null, `deleted call ${id} is gone`);
    for (const [id, name] of rec.names)
      if (!rec.deleted.has(id)) assert.equal(live.get(id), name, `display name of ${id}`);
    assert.equal(
      (await post('/calls/query_stats', { project_id: EXPIRING })).body.count,
      0,
      'expired calls are invisible',
    );

    for (const o of rec.objects) {
      const res = await fetch(`${url}/obj/read`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ project_id: P, object_id: o.id, digest: o.digest }),
      });
      assert.equal(
        res.status,
        o.deleted ? 404 : 200,
        `object ${o.id}:${o.digest} ${o.deleted ? 'deleted' : 'readable'}`,
      );
    }
    for (const digest of rec.tables)
      assert.equal((await post('/table/query_stats', { project_id: P, digest })).body.count, 20);
    for (const f of rec.files) {
      const res = await fetch(`${url}/file/content`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ project_id: P, digest: f.digest }),
      });
      assert.equal(res.status, 200);
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(f.bytes), `file ${f.digest} reads back whole`);
    }
    const stored = new Map<string, unknown>(
      (await post('/feedback/query', { project_id: P })).body.result.map((r: any) => [r.id, r.payload]),
    );
    for (const [id, payload] of rec.feedback) {
      if (payload === undefined) assert.ok(!stored.has(id), `purged feedback ${id} is gone`);
      else assert.deepEqual(stored.get(id), payload, `feedback ${id}`);
    }
    const prices = new Set(
      (await post('/cost/query', { project_id: P, fields: ['id'] })).body.results.map((r: any) => r.id),
    );
    for (const [id, kept] of rec.costs) assert.equal(prices.has(id), kept, `price ${id} ${kept ? 'kept' : 'purged'}`);
  } finally {
    server.stop();
  }
});
