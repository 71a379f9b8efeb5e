// POST /ui/api/call_paths through HTTP: every key path of the matching calls (not of a page
// of them), what is left out, the filter and query applied, the 1,000-path cap, the refusals.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, bearer, PROJECT as P, type TestApp } from './helpers/test-app.js';
import { end, endItem, start, startItem } from './helpers/calls.js';

const URL = '/ui/api/call_paths';
let t: TestApp;
let keyed: TestApp;
const T0 = Date.UTC(2026, 10, 1);

async function log(
  calls: { op?: string; inputs: Record<string, unknown>; output?: unknown; attributes?: Record<string, unknown> }[],
  project = P,
) {
  const batch = calls.flatMap((c, i) => {
    const s = start({
      project_id: project,
      op: c.op ?? 'predict',
      inputs: c.inputs,
      attributes: c.attributes ?? {},
      started_at: new Date(T0 + i).toISOString(),
    });
    return [startItem(s), endItem(end(s.id, { project_id: project, output: c.output ?? null }))];
  });
  const r = await t.post('/call/upsert_batch', { batch });
  assert.equal(r.status, 200, r.text);
}

before(async () => {
  t = await startTestApp();
  keyed = await startTestApp({ keys: [{ user: 'ann', entity: 'elsewhere', role: 'reader' }] });
  // 300 calls alike, then one old call whose keys no page of the newest calls would show.
  await log([
    {
      op: 'rare',
      inputs: { rare_key: { deep: 1, deeper: { x: 1 } }, 'dotted.key': 1, _type: 'X' },
      output: { answer: 'a', sources: [{ url: 'u' }] },
      attributes: { env: 'prod', nested: { no: 1 } },
    },
    ...Array.from({ length: 300 }, (_, i) => ({
      inputs: { question: `q${i}`, self: { _class_name: 'M', name: 'm' } },
      output: `answer ${i}`,
    })),
  ]);
  await log([{ inputs: { elsewhere_only: 1 } }], 'test-entity/other');
});
after(async () => {
  await t.close();
  await keyed.close();
});

test('every key path of the project: two levels of inputs and output, one of attributes', async () => {
  const r = await t.post(URL, { project_id: P });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, {
    paths: [
      'attributes.env',
      'attributes.nested',
      'inputs.question',
      'inputs.rare_key',
      'inputs.rare_key.deep',
      'inputs.rare_key.deeper',
      'inputs.self',
      'inputs.self.name',
      'output.answer',
      'output.sources',
    ],
    complete: true,
  });
});

test('the filter and the query narrow the calls read', async () => {
  const byOp = await t.post(URL, {
    project_id: P,
    query: { $expr: { $contains: { input: { $getField: 'op_name' }, substr: { $literal: 'rare' } } } },
  });
  assert.equal(byOp.status, 200, byOp.text);
  assert.ok(byOp.body.paths.includes('inputs.rare_key') && !byOp.body.paths.includes('inputs.question'));
  const none = await t.post(URL, { project_id: P, filter: { call_ids: ['no-such-call'] } });
  assert.deepEqual(none.body, { paths: [], complete: true });
});

test('more than 1,000 paths: the first 1,000 in code-point order, complete false', async () => {
  const project = 'test-entity/wide';
  const inputs = Object.fromEntries(Array.from({ length: 1100 }, (_, i) => [`k${String(i).padStart(4, '0')}`, i]));
  await log([{ inputs }], project);
  const r = await t.post(URL, { project_id: project });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.complete, false);
  assert.equal(r.body.paths.length, 1000);
  assert.equal(r.body.paths[0], 'inputs.k0000');
  assert.equal(r.body.paths[999], 'inputs.k0999');
});

test('malformed bodies and fields the query cannot name are 422 saying where', async () => {
  for (const body of [
    {},
    { project_id: 7 },
    { project_id: P, extra: 1 },
    { project_id: P, filter: { call_ids: 'x' } },
  ]) {
    const r = await t.post(URL, body);
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.ok(r.body.detail, r.text);
  }
  const r = await t.post(URL, {
    project_id: P,
    query: { $expr: { $eq: [{ $getField: 'nosuch' }, { $literal: 1 }] } },
  });
  assert.equal(r.status, 422, r.text);
  assert.match(r.text, /nosuch/);
});

test('keys mode: no key is 401; a key without a role on the project is 403', async () => {
  const body = { project_id: P };
  assert.equal((await keyed.post(URL, body)).status, 401);
  const r = await keyed.post(URL, body, bearer(keyed.keys[0]!.key));
  assert.equal(r.status, 403, r.text);
});
