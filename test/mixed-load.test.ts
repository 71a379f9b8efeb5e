// Every kind of write at once, on a real server over real sockets, for a few seconds: call
// ingestion (4 clients), call deletes and updates, objects with tags and deletes, tables,
// files, feedback create / replace / purge, costs create / purge, time-to-live changes with
// the retention job purging, and readers of every kind. No request may answer 5xx or reset;
// afterwards every acknowledged write is readable and every acknowledged delete is gone.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { serve, tempDirs } from './helpers/weft-process.js';
import { end, endItem, newId, start, startItem } from './helpers/calls.js';

const LOAD_MS = 8_000;
const P = 'mix/main';
const EXPIRING = 'mix/expiring';
const dirs = tempDirs('weft-mixed-');
after(() => dirs.removeAll());

interface Answer { status: number; body: any; text: string }

test('mixed load: no 5xx or reset; every acknowledged write readable, every acknowledged delete gone', { timeout: 120_000 }, async () => {
  const server = await serve(['--data-dir', dirs.make(), '--retention-interval-ms', '100']);
  assert.ok(server.port, server.stderr);
  const url = `http://127.0.0.1:${server.port}`;
  const failures: string[] = [];
  const counts = new Map<string, number>();
  const send = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const route = path.replace(/^\/objs\/[^/]+\/versions\/[^/]+\/tags$/, '/objs/{object_id}/versions/{digest}/tags');
    counts.set(route, (counts.get(route) ?? 0) + 1);
    const form = body instanceof FormData;
    try {
      const res = await fetch(url + path, {
        method,
        ...(body === undefined ? {} : { body: form ? body : JSON.stringify(body), headers: form ? {} : { 'content-type': 'application/json' } }),
      });
      const text = await res.text();
      if (res.status >= 500) failures.push(`${path} -> ${res.status} ${text.slice(0, 200)}`);
      let json: unknown;
      try { json = JSON.parse(text); } catch { json = undefined; }
      return { status: res.status, body: json, text };
    } catch (err) {
      failures.push(`${path} -> ${String(err)}`);
      return { status: 0, body: undefined, text: '' };
    }
  };
  const post = (path: string, body: unknown) => send('POST', path, body);
  const ok = async (path: string, body: unknown, method = 'POST') => {
    const r = await send(method, path, body);
    if (r.status !== 200) failures.push(`${path} -> ${r.status} ${r.text.slice(0, 200)}`);
    return r;
  };
  const deadline = Date.now() + LOAD_MS;
  const running = () => Date.now() < deadline && failures.length === 0;
  const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(Math.random() * xs.length)];
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  // What was acknowledged, to check afterwards.
  const acked = new Set<string>();
  const roots: string[][] = []; // each: root id first, then its 9 descendants
  const deleted = new Set<string>();
  const names = new Map<string, string>();
  const objects: { id: string; digest: string; deleted: boolean }[] = [];
  const tables: string[] = [];
  const files: { digest: string; bytes: Buffer }[] = [];
  const feedback = new Map<string, unknown>(); // id -> expected payload, or undefined once purged
  const costs = new Map<string, boolean>(); // id -> still expected

  /** 10 traces of 10 calls (a root and a chain of 9), start and end in one batch. */
  const traceBatch = (project: string, startedAt?: string) => {
    const items: unknown[] = [];
    const traces: string[][] = [];
    for (let t = 0; t < 10; t++) {
      const trace = newId();
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const s = start({ project_id: project, trace_id: trace, ...(i > 0 ? { parent_id: ids[i - 1]! } : {}), ...(startedAt ? { started_at: startedAt } : {}), inputs: { pad: 'x'.repeat(500) } });
        ids.push(s.id);
        items.push(startItem(s), endItem(end(s.id, { project_id: project, summary: { usage: { 'gpt-4o': { prompt_tokens: 3, completion_tokens: 4 } } } })));
      }
      traces.push(ids);
    }
    return { items, traces };
  };

  const ingest = async () => {
    while (running()) {
      const { items, traces } = traceBatch(P);
      if ((await ok('/call/upsert_batch', { batch: items })).status !== 200) return;
      for (const ids of traces) { ids.forEach((id) => acked.add(id)); roots.push(ids); }
    }
  };
  const deleter = async () => {
    while (running()) {
      const trace = roots.shift();
      if (!trace) { await pause(5); continue; }
      const r = await ok('/calls/delete', { project_id: P, call_ids: [trace[0]] });
      if (r.status === 200) {
        if (r.body.num_deleted !== 10) failures.push(`delete of a 10-call trace deleted ${r.body.num_deleted}`);
        trace.forEach((id) => deleted.add(id));
      }
    }
  };
  const updater = async () => {
    for (let i = 0; running(); i++) {
      const id = pick([...acked].slice(-500));
      if (!id || deleted.has(id)) { await pause(5); continue; }
      if ((await ok('/call/update', { project_id: P, call_id: id, display_name: `name ${i}` })).status === 200) names.set(id, `name ${i}`);
    }
  };
  const objectWriter = async () => {
    for (let i = 0; running(); i++) {
      const id = `obj-${i % 25}`;
      const r = await ok('/obj/create', { obj: { project_id: P, object_id: id, val: { i, text: 'y'.repeat(200) } } });
      if (r.status !== 200) return;
      const o = { id, digest: r.body.digest as string, deleted: false };
      objects.push(o);
      if (i % 3 === 0) await ok(`/objs/${id}/versions/${o.digest}/tags`, { project_id: P, tags: [`t${i % 4}`] }, 'PUT');
      if (i % 7 === 6) {
        const d = await ok('/obj/delete', { project_id: P, object_id: id, digests: [o.digest] });
        if (d.status === 200) o.deleted = true;
      }
    }
  };
  const tableWriter = async () => {
    for (let i = 0; running(); i++) {
      const rows = Array.from({ length: 20 }, (_, j) => ({ i, j, q: `question ${i}.${j}` }));
      const r = await ok('/table/create', { table: { project_id: P, rows } });
      if (r.status === 200) tables.push(r.body.digest);
    }
  };
  const fileWriter = async () => {
    while (running()) {
      const bytes = randomBytes(10_000 + Math.floor(Math.random() * 2_000_000));
      const fd = new FormData();
      fd.append('project_id', P);
      fd.append('file', new Blob([new Uint8Array(bytes)]), 'blob');
      const r = await ok('/file/create', fd);
      if (r.status === 200) files.push({ digest: r.body.digest, bytes });
    }
  };
  const feedbackWriter = async () => {
    for (let i = 0; running(); i++) {
      const call = pick([...acked].slice(-200));
      if (!call) { await pause(5); continue; }
      const ref = `weave:///${P}/call/${call}`;
      const r = await ok('/feedback/create', { project_id: P, weave_ref: ref, feedback_type: 'custom', payload: { i } });
      if (r.status !== 200) return;
      let id = r.body.id as string;
      feedback.set(id, { i });
      if (i % 3 === 1) {
        const rep = await ok('/feedback/replace', { project_id: P, feedback_id: id, weave_ref: ref, feedback_type: 'custom', payload: { i, replaced: true } });
        if (rep.status === 200) { feedback.delete(id); id = rep.body.id; feedback.set(id, { i, replaced: true }); }
      }
      if (i % 5 === 4) {
        const pur = await ok('/feedback/purge', { project_id: P, query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: id }] } } });
        if (pur.status === 200) feedback.set(id, undefined);
      }
    }
  };
  const costWriter = async () => {
    for (let i = 0; running(); i++) {
      const r = await ok('/cost/create', { project_id: P, costs: { [`model-${i}`]: { prompt_token_cost: 0.01, completion_token_cost: 0.02 } } });
      if (r.status !== 200) return;
      const [id] = r.body.ids[0] as [string, string];
      costs.set(id, true);
      if (i % 4 === 3) {
        const pur = await ok('/cost/purge', { project_id: P, query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: id }] } } });
        if (pur.status === 200) costs.set(id, false);
      }
    }
  };
  const expiring = async () => {
    // Calls that expired a day ago: invisible at once, purged by the retention job meanwhile.
    for (let i = 0; running(); i++) {
      await ok('/project/ttl_settings/update', { project_id: EXPIRING, retention_days: 1 + (i % 3) });
      await ok('/call/upsert_batch', { batch: traceBatch(EXPIRING, new Date(Date.now() - 5 * 86_400_000).toISOString()).items });
    }
  };
  const reader = async () => {
    while (running()) {
      const id = pick([...acked].slice(-100));
      await ok('/calls/stream_query', { project_id: P, limit: 50, sort_by: [{ field: 'started_at', direction: 'desc' }] });
      if (id) await ok('/call/read', { project_id: P, id, include_costs: true });
      await ok('/calls/query_stats', { project_id: P, filter: { trace_roots_only: true } });
      await ok('/objs/query', { project_id: P, filter: { latest_only: true } });
      await ok('/feedback/query', { project_id: P, limit: 20 });
      const table = pick(tables);
      if (table) await ok('/table/query', { project_id: P, digest: table, limit: 5 });
      await ok('/health', undefined, 'GET');
    }
  };

  await Promise.all([
    ingest(), ingest(), ingest(), ingest(), deleter(), updater(), objectWriter(), tableWriter(), fileWriter(),
    feedbackWriter(), costWriter(), expiring(), reader(), reader(),
  ]);
  try {
    assert.deepEqual(failures, [], 'no 5xx, no reset, every write answered 200');
    for (const path of ['/call/upsert_batch', '/calls/delete', '/call/update', '/obj/create', '/obj/delete', '/objs/{object_id}/versions/{digest}/tags', '/table/create', '/file/create', '/feedback/create', '/feedback/replace', '/feedback/purge', '/cost/create', '/cost/purge', '/project/ttl_settings/update']) {
      assert.ok((counts.get(path) ?? 0) >= 2, `${path} ran under load (${counts.get(path) ?? 0} requests)`);
    }

    // Calls: exactly the acknowledged ones minus the deleted traces.
    const stream = await ok('/calls/stream_query', { project_id: P, columns: ['id', 'display_name'] });
    const live = new Map<string, string | null>(stream.text.split('\n').filter(Boolean).map((l) => JSON.parse(l)).map((c: any) => [c.id, c.display_name]));
    const expected = [...acked].filter((id) => !deleted.has(id));
    assert.equal(live.size, expected.length, 'live calls = acknowledged - deleted');
    for (const id of expected) assert.ok(live.has(id), `acknowledged call ${id} is readable`);
    for (const id of deleted) assert.equal((await ok('/call/read', { project_id: P, id })).body.call, null, `deleted call ${id} is gone`);
    for (const [id, name] of names) if (!deleted.has(id)) assert.equal(live.get(id), name, `display name of ${id}`);
    assert.equal((await ok('/calls/query_stats', { project_id: EXPIRING })).body.count, 0, 'expired calls are invisible');

    for (const o of objects) {
      const r = await post('/obj/read', { project_id: P, object_id: o.id, digest: o.digest });
      assert.equal(r.status, o.deleted ? 404 : 200, `object ${o.id}:${o.digest} ${o.deleted ? 'deleted' : 'readable'}`);
    }
    for (const digest of tables) assert.equal((await ok('/table/query_stats', { project_id: P, digest })).body.count, 20);
    for (const f of files) {
      const res = await fetch(`${url}/file/content`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: P, digest: f.digest }) });
      assert.equal(res.status, 200);
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(f.bytes), `file ${f.digest} reads back whole`);
    }
    const stored = new Map<string, unknown>((await ok('/feedback/query', { project_id: P })).body.result.map((r: any) => [r.id, r.payload]));
    for (const [id, payload] of feedback) {
      if (payload === undefined) assert.ok(!stored.has(id), `purged feedback ${id} is gone`);
      else assert.deepEqual(stored.get(id), payload, `feedback ${id}`);
    }
    const prices = new Set((await ok('/cost/query', { project_id: P, fields: ['id'] })).body.results.map((r: any) => r.id));
    for (const [id, kept] of costs) assert.equal(prices.has(id), kept, `price ${id} ${kept ? 'kept' : 'purged'}`);
  } finally {
    server.stop();
  }
});
