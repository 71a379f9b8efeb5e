// JSON bodies: prototype-poisoning keys are a 400 and nothing is written, whether the key
// sits at the top or deep inside; text that merely mentions the names parses as usual; a
// body that is not JSON is a 400 with Fastify's message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { end, endItem, start, startItem } from './helpers/calls.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const count = async () => (await t.post('/calls/query_stats', { project_id: PROJECT })).body.count as number;

test('__proto__ and constructor.prototype keys are a 400, nothing written', async () => {
  const before = await count();
  const s = start();
  const body = JSON.stringify({ batch: [startItem(s)] });
  for (const poisoned of [
    body.replace('"inputs":{', '"inputs":{"__proto__":{"admin":true},'),
    body.replace('"inputs":{', '"inputs":{"constructor":{"prototype":{"admin":true}},'),
  ]) {
    const r = await t.postRaw('/call/upsert_batch', poisoned);
    assert.equal(r.status, 400, r.text);
    assert.equal(typeof r.body.reason, 'string');
  }
  assert.equal(await count(), before);
});

test('values that mention the names are ordinary text', async () => {
  const s = start({ inputs: { code: 'class A { constructor() {} }', note: 'obj.__proto__ is legacy' } });
  const r = await t.post('/call/upsert_batch', {
    batch: [startItem(s), endItem(end(s.id, { output: 'constructor' }))],
  });
  assert.equal(r.status, 200, r.text);
  const call = (await t.post('/call/read', { project_id: PROJECT, id: s.id })).body.call;
  assert.deepEqual(call.inputs, s.inputs);
  assert.equal(call.output, 'constructor');
});

test('malformed and empty JSON bodies are a 400 with a JSON answer', async () => {
  for (const raw of ['{"batch": [', '', 'nul', '{"a":1}}']) {
    const r = await t.postRaw('/call/upsert_batch', raw);
    assert.equal(r.status, 400, `${JSON.stringify(raw)}: ${r.text}`);
    assert.equal(typeof r.body.reason, 'string');
  }
});
