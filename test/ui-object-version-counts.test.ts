// POST /ui/api/object_version_counts through HTTP: live versions per object, not the latest
// version's index + 1 (a re-published digest keeps its index; deleted versions leave gaps),
// the refusals (malformed bodies, keys without a role).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApp, bearer, PROJECT as P, type TestApp } from './helpers/test-app.js';

const URL = '/ui/api/object_version_counts';
let t: TestApp;
let keyed: TestApp;
before(async () => {
  t = await startTestApp();
  keyed = await startTestApp({ keys: [{ user: 'ann', entity: 'elsewhere', role: 'reader' }] });
});
after(async () => {
  await t.close();
  await keyed.close();
});

async function create(objectId: string, val: unknown, project = P): Promise<string> {
  const r = await t.post('/obj/create', { obj: { project_id: project, object_id: objectId, val } });
  assert.equal(r.status, 200, r.text);
  await sleep(2);
  return r.body.digest;
}

test('counts live versions: a re-published v0 adds none, deleted versions drop out, unknown ids are 0', async () => {
  await create('prompt', { text: 'a' });
  await create('prompt', { text: 'b' });
  await create('prompt', { text: 'a' }); // v0 again: latest once more, still two versions
  const latest = (await t.post('/obj/read', { project_id: P, object_id: 'prompt', digest: 'latest' })).body.obj;
  assert.equal(latest.version_index, 0, 'the latest is v0 again, so index + 1 would read 1');

  await create('model', { n: 0 });
  const m1 = await create('model', { n: 1 });
  await create('model', { n: 2 });
  assert.equal((await t.post('/obj/delete', { project_id: P, object_id: 'model', digests: [m1] })).status, 200);
  await create('gone', { n: 0 });
  assert.equal((await t.post('/obj/delete', { project_id: P, object_id: 'gone' })).status, 200);
  await create('prompt', { text: 'elsewhere' }, 'test-entity/other');

  const r = await t.post(URL, { project_id: P, object_ids: ['prompt', 'model', 'gone', 'never', 'prompt'] });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, { counts: { prompt: 2, model: 2, gone: 0, never: 0 } });
});

test('malformed bodies are 422 saying where', async () => {
  for (const body of [
    {},
    { project_id: P },
    { project_id: P, object_ids: [] },
    { project_id: P, object_ids: [''] },
    { project_id: P, object_ids: 'prompt' },
    { project_id: P, object_ids: ['prompt'], extra: 1 },
  ]) {
    const r = await t.post(URL, body);
    assert.equal(r.status, 422, JSON.stringify(body).slice(0, 80));
    assert.ok(Array.isArray(r.body.detail) && r.body.detail.length > 0, r.text);
  }
});

test('more than 1,000 ids is 400 with a message', async () => {
  const r = await t.post(URL, { project_id: P, object_ids: Array.from({ length: 1001 }, (_, i) => `o${i}`) });
  assert.equal(r.status, 400, r.text);
  assert.match(JSON.stringify(r.body), /1000/);
});

test('keys mode: no key is 401; a key without a role on the project is 403', async () => {
  const body = { project_id: P, object_ids: ['prompt'] };
  assert.equal((await keyed.post(URL, body)).status, 401);
  const r = await keyed.post(URL, body, bearer(keyed.keys[0]!.key));
  assert.equal(r.status, 403, r.text);
});
