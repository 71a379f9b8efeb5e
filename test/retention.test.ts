// Per-project time-to-live: the settings endpoints, expire_at on written calls, and
// expired calls hidden from every read and count.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { end, endItem, jsonl, start, startItem } from './helpers/calls.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const setTtl = async (project: string, days: number | null) => {
  const r = await t.post('/project/ttl_settings/update', { project_id: project, retention_days: days });
  assert.equal(r.status, 200, r.text);
  return r.body;
};
const read = async (project: string, id: string) => {
  const r = await t.post('/call/read', { project_id: project, id });
  assert.equal(r.status, 200, r.text);
  return r.body.call;
};
const writeCall = async (s: ReturnType<typeof start>) => {
  const r = await t.post('/call/upsert_batch', {
    batch: [startItem(s), endItem(end(s.id, { project_id: s.project_id }))],
  });
  assert.equal(r.status, 200, r.text);
  return s.id;
};

test('ttl settings: unset reads null; update echoes; read sees it; null clears', async () => {
  const p = 'ttl/settings';
  let r = await t.post('/project/ttl_settings/read', { project_id: p });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, { retention_days: null });
  assert.deepEqual(await setTtl(p, 30), { retention_days: 30 });
  r = await t.post('/project/ttl_settings/read', { project_id: p });
  assert.deepEqual(r.body, { retention_days: 30 });
  // Settings are per project.
  r = await t.post('/project/ttl_settings/read', { project_id: 'ttl/other' });
  assert.deepEqual(r.body, { retention_days: null });
  assert.deepEqual(await setTtl(p, null), { retention_days: null });
  r = await t.post('/project/ttl_settings/read', { project_id: p });
  assert.deepEqual(r.body, { retention_days: null });
  // The SDK's wb_user_id is accepted (and ignored); an absent retention_days clears.
  r = await t.post('/project/ttl_settings/update', { project_id: p, retention_days: 5, wb_user_id: 'someone' });
  assert.deepEqual(r.body, { retention_days: 5 });
  r = await t.post('/project/ttl_settings/update', { project_id: p });
  assert.deepEqual(r.body, { retention_days: null });
});

test('ttl settings: invalid values are 400, malformed bodies 422, and nothing changes', async () => {
  const p = 'ttl/invalid';
  await setTtl(p, 3);
  for (const days of [0, -1, 36_501]) {
    const r = await t.post('/project/ttl_settings/update', { project_id: p, retention_days: days });
    assert.equal(r.status, 400, `${days}: ${r.text}`);
    assert.equal(r.body.error_code, 'INVALID_REQUEST');
    assert.match(r.body.reason, /retention_days/);
  }
  const malformed: [unknown, string][] = [
    [{ project_id: p, retention_days: 1.5 }, 'retention_days'],
    [{ project_id: p, retention_days: '7' }, 'retention_days'],
    [{ retention_days: 7 }, 'project_id'],
    [{ project_id: p, retention_days: 7, extra: 1 }, 'body'],
  ];
  for (const [body, field] of malformed) {
    const r = await t.post('/project/ttl_settings/update', body);
    assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.text}`);
    assert.ok(JSON.stringify(r.body.detail).includes(field), r.text);
  }
  assert.equal((await t.post('/project/ttl_settings/read', {})).status, 422);
  const r = await t.post('/project/ttl_settings/read', { project_id: p });
  assert.deepEqual(r.body, { retention_days: 3 });
});

test('expire_at is null without a TTL and started_at + TTL with one, on every write path', async () => {
  const p = 'ttl/expire-at';
  const startedMs = Date.now() - 1000;
  const a = await writeCall(start({ project_id: p, started_at: iso(startedMs) }));
  assert.equal((await read(p, a)).expire_at, null);

  await setTtl(p, 7);
  const b = await writeCall(start({ project_id: p, started_at: iso(startedMs) }));
  const c = start({ project_id: p, started_at: iso(startedMs) });
  assert.equal((await t.post('/call/start', { start: c })).status, 200);
  const want = iso(startedMs + 7 * DAY_MS);
  assert.equal((await read(p, b)).expire_at, want);
  assert.equal((await read(p, c.id)).expire_at, want, 'a call with only its start part');
  // The end part alone does not touch expire_at.
  assert.equal((await t.post('/call/end', { end: end(c.id, { project_id: p }) })).status, 200);
  assert.equal((await read(p, c.id)).expire_at, want);
  // Queries return it too.
  const r = await t.post('/calls/stream_query', {
    project_id: p,
    sort_by: [{ field: 'started_at', direction: 'asc' }],
  });
  const byId = new Map(jsonl(r.text).map((x) => [x.id, x.expire_at]));
  assert.deepEqual([byId.get(a), byId.get(b), byId.get(c.id)], [null, want, want]);
});

test('changing the TTL does not change the expire_at of calls already written, even on a retried start', async () => {
  const p = 'ttl/change';
  const startedMs = Date.now();
  await setTtl(p, 7);
  const s = start({ project_id: p, started_at: iso(startedMs) });
  await writeCall(s);
  await setTtl(p, 2);
  const later = await writeCall(start({ project_id: p, started_at: iso(startedMs) }));
  assert.equal((await read(p, s.id)).expire_at, iso(startedMs + 7 * DAY_MS));
  assert.equal((await read(p, later)).expire_at, iso(startedMs + 2 * DAY_MS));
  // The SDK resends an identical start on retry: the expiry stays what it was.
  assert.equal((await t.post('/call/start', { start: s })).status, 200);
  assert.equal((await read(p, s.id)).expire_at, iso(startedMs + 7 * DAY_MS));
  await setTtl(p, null);
  assert.equal((await read(p, s.id)).expire_at, iso(startedMs + 7 * DAY_MS));
  assert.equal((await read(p, await writeCall(start({ project_id: p })))).expire_at, null);
});

test('expired calls vanish from read, stream_query, query and query_stats; live ones stay', async () => {
  const p = 'ttl/hidden';
  await setTtl(p, 1);
  const old = await writeCall(start({ project_id: p, started_at: iso(Date.now() - 3 * DAY_MS) }));
  const fresh = await writeCall(start({ project_id: p, started_at: iso(Date.now()) }));
  await setTtl(p, null);
  const forever = await writeCall(start({ project_id: p, started_at: iso(Date.now() - 300 * DAY_MS) }));

  assert.equal(await read(p, old), null);
  assert.equal((await read(p, fresh)).id, fresh);
  assert.equal((await read(p, forever)).id, forever);
  const r = await t.post('/call/read', {
    project_id: p,
    id: old,
    include_storage_size: true,
    include_total_storage_size: true,
  });
  assert.deepEqual(r.body, { call: null }, 'the point read with size flags too');

  const stream = await t.post('/calls/stream_query', { project_id: p });
  assert.deepEqual(
    jsonl(stream.text)
      .map((c) => c.id)
      .sort(),
    [fresh, forever].sort(),
  );
  const filtered = await t.post('/calls/stream_query', { project_id: p, filter: { call_ids: [old] } });
  assert.deepEqual(jsonl(filtered.text), []);
  const json = await t.post('/calls/query', { project_id: p, limit: 10 });
  assert.deepEqual(json.body.calls.map((c: { id: string }) => c.id).sort(), [fresh, forever].sort());

  const stats = await t.post('/calls/query_stats', { project_id: p });
  assert.equal(stats.body.count, 2);
  const oneTrace = await t.post('/calls/query_stats', {
    project_id: p,
    filter: { call_ids: [old] },
    include_total_storage_size: true,
  });
  assert.deepEqual(oneTrace.body, { count: 0, total_storage_size_bytes: 0 });
});

test('storage totals of a trace leave its expired calls out (and are set on the trace root only)', async () => {
  const p = 'ttl/sizes';
  await setTtl(p, 1);
  const root = start({ project_id: p, started_at: iso(Date.now()) });
  const old = start({
    project_id: p,
    trace_id: root.trace_id,
    parent_id: root.id,
    started_at: iso(Date.now() - 3 * DAY_MS),
    inputs: { big: 'x'.repeat(5000) },
  });
  await writeCall(root);
  await writeCall(old);
  const r = await t.post('/call/read', {
    project_id: p,
    id: root.id,
    include_storage_size: true,
    include_total_storage_size: true,
  });
  assert.equal(r.body.call.total_storage_size_bytes, r.body.call.storage_size_bytes);
  const rows = jsonl(
    (
      await t.post('/calls/stream_query', {
        project_id: p,
        include_storage_size: true,
        include_total_storage_size: true,
      })
    ).text,
  );
  assert.deepEqual(
    rows.map((c) => [c.id, c.total_storage_size_bytes]),
    [[root.id, r.body.call.storage_size_bytes]],
  );
  const stats = await t.post('/calls/query_stats', { project_id: p, include_total_storage_size: true });
  assert.deepEqual(stats.body, { count: 1, total_storage_size_bytes: r.body.call.storage_size_bytes });
});

test('other projects are unaffected by a project TTL', async () => {
  await setTtl('ttl/short', 1);
  const s = start({ started_at: iso(Date.now() - 3 * DAY_MS) });
  await writeCall(s);
  assert.equal((await read(PROJECT, s.id)).expire_at, null);
});
