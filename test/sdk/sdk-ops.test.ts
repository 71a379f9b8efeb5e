// The real weave SDK end to end: op call trees, object inputs, getCalls / getCall.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { assertRanCleanly, eventually, runSdk, startWeftServer, type WeftServer } from './sdk-harness.js';
import { jsonl } from '../helpers/calls.js';

let w: WeftServer;
before(async () => {
  w = await startWeftServer();
});
after(async () => {
  await w.close();
});

const callsOf = async (project: string, body: Record<string, unknown> = {}) =>
  jsonl((await w.t.post('/calls/stream_query', { project_id: project, ...body })).text);

test('nested ops with an exception caught by the parent: tree, statuses, exception, latency', async () => {
  const project = 'sdk-e2e/nested';
  const run = await runSdk(
    w.url,
    project,
    `
  const childA = weave.op(async function childA(x) { await sleep(20); return x * 2; });
  const childB = weave.op(async function childB(x) { throw new Error('childB failed on ' + x); });
  const parent = weave.op(async function parent(x, label) {
    const a = await childA(x);
    let caught = null;
    try { await childB(x); } catch (e) { caught = e.message; }
    return { a, caught, label };
  }, { parameterNames: ['x', 'label'] });
  out.result = await parent(21, 'first');
  `,
  );
  assertRanCleanly(run);
  assert.deepEqual(run.result.result, { a: 42, caught: 'childB failed on 21', label: 'first' });
  const calls = await eventually(async () => {
    const c = await callsOf(project);
    return c.length === 3 && c.every((x) => x.ended_at) ? c : null;
  }, 'three ended calls');
  const byName = new Map(calls.map((c) => [c.summary.weave.trace_name, c]));
  const parent = byName.get('parent')!;
  const a = byName.get('childA')!;
  const b = byName.get('childB')!;
  assert.equal(parent.parent_id, null);
  assert.equal(a.parent_id, parent.id);
  assert.equal(b.parent_id, parent.id);
  assert.equal(new Set(calls.map((c) => c.trace_id)).size, 1);
  assert.deepEqual(parent.inputs, { x: 21, label: 'first' });
  assert.deepEqual(parent.output, { a: 42, caught: 'childB failed on 21', label: 'first' });
  assert.equal(parent.summary.weave.status, 'success');
  assert.equal(a.summary.weave.status, 'success');
  assert.equal(a.output, 42);
  assert.ok(a.summary.weave.latency_ms >= 15, `latency ${a.summary.weave.latency_ms}`);
  assert.equal(b.summary.weave.status, 'error');
  assert.equal(b.exception, 'childB failed on 21');
  assert.match(parent.op_name, /^weave:\/\/\/sdk-e2e\/nested\/op\/parent:[A-Za-z0-9]{43}$/);
  assert.equal(parent.attributes.weave.source, 'js-sdk');
  // The op objects were saved and resolve.
  const ops = (await w.t.post('/objs/query', { project_id: project, filter: { is_op: true } })).body.objs;
  assert.deepEqual(ops.map((o: { object_id: string }) => o.object_id).sort(), ['childA', 'childB', 'parent']);
});

test('object inputs and WeaveObjects: inputs hold refs that resolve through /refs/read_batch', async () => {
  const project = 'sdk-e2e/objects';
  const run = await runSdk(
    w.url,
    project,
    `
  class MyModel extends weave.WeaveObject {
    constructor(params) { super(params); this.temperature = params.temperature; this.tags = params.tags; this.predict = weave.op(this, this.predict); }
    async predict(q) { return q.toUpperCase() + '!'; }
  }
  const model = new MyModel({ name: 'my-model', description: 'a test model', temperature: 0.7, tags: ['x'] });
  const useModel = weave.op(async function useModel(m, config) { return await m.predict(config.q); }, { parameterNames: ['m', 'config'] });
  out.answer = await useModel(model, { q: 'hello', nested: { list: [1, 2, 3] } });
  `,
  );
  assertRanCleanly(run);
  assert.equal(run.result.answer, 'HELLO!');
  const calls = await eventually(async () => {
    const c = await callsOf(project);
    return c.length >= 2 && c.every((x) => x.ended_at) ? c : null;
  }, 'calls of the object scenario');
  const use = calls.find((c) => c.summary.weave.trace_name === 'useModel')!;
  assert.deepEqual(use.inputs.config, { q: 'hello', nested: { list: [1, 2, 3] } });
  const modelRef: string = use.inputs.m;
  assert.match(modelRef, /^weave:\/\/\/sdk-e2e\/objects\/object\/my-model:[A-Za-z0-9]{43}$/);
  const predict = calls.find((c) => c.summary.weave.trace_name === 'MyModel.predict')!;
  assert.equal(predict.parent_id, use.id);
  assert.equal(predict.inputs.self, modelRef);
  const r = await w.t.post('/refs/read_batch', {
    refs: [modelRef, `${modelRef}/attr/tags/index/0`, `${modelRef}/attr/temperature`],
  });
  assert.equal(r.status, 200, r.text);
  const [val, tag, temp] = r.body.vals;
  assert.equal(val._class_name, 'MyModel');
  assert.equal(val.name, 'my-model');
  assert.equal(val.description, 'a test model');
  assert.match(val.predict, /^weave:\/\/\/sdk-e2e\/objects\/op\/MyModel.predict:/);
  assert.equal(tag, 'x');
  assert.equal(temp, 0.7);
  const expanded = await callsOf(project, { filter: { call_ids: [use.id] }, expand_columns: ['inputs.m'] });
  assert.equal(expanded[0].inputs.m.name, 'my-model');
  assert.equal(expanded[0].inputs.m._ref, modelRef);
});

test('getCalls and getCall with filters read what Weft stores', async () => {
  const project = 'sdk-e2e/get-calls';
  const run = await runSdk(
    w.url,
    project,
    `
  const leaf = weave.op(async function leaf(n) { return n + 1; });
  const root = weave.op(async function root(n) { return (await leaf(n)) + (await leaf(n + 10)); });
  out.value = await root(1);
  for (let i = 0; i < 3; i++) { await client.waitForBatchProcessing(); await sleep(300); }
  const all = await client.getCalls();
  const roots = await client.getCalls({ trace_roots_only: true });
  const leafRef = all.find((c) => c.op_name.includes('/op/leaf:')).op_name;
  const leaves = await client.getCalls({ op_names: [leafRef] });
  const one = await client.getCall(roots[0].id);
  out.all = all.length;
  out.roots = roots.map((c) => c.id);
  out.leaves = leaves.map((c) => c.output);
  out.one = { id: one.id, output: one.output, status: one.summary.weave.status };
  `,
  );
  assertRanCleanly(run);
  assert.equal(run.result.value, 14);
  assert.equal(run.result.all, 3);
  assert.equal(run.result.roots.length, 1);
  assert.deepEqual(
    run.result.leaves.sort((x: number, y: number) => x - y),
    [2, 12],
  );
  assert.deepEqual(run.result.one, { id: run.result.roots[0], output: 14, status: 'success' });
});
