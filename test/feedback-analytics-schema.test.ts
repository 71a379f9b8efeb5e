// /feedback/payload_schema through HTTP: the latest payload per trigger_ref is sampled (no
// trigger_ref is one group), its leaf paths typed as Weave's feedback_payload_schema.py does
// (keys with '.' or only spaces skipped, array scalars at the array's path, objects in arrays
// skipped), sorted; the window filters, sample_limit, another project, and the 400s.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { insertFeedback, poster } from './helpers/feedback-rows.js';

const P = 'fa-entity/schema';
const T0 = Date.UTC(2026, 10, 3);
const H = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const MON = 'weave:///e/p/object/mon';
let t: TestApp;
let schema: (body: Record<string, unknown>) => ReturnType<TestApp['post']>;

before(async () => {
  t = await startTestApp();
  schema = poster(t, '/feedback/payload_schema', { project_id: P, start: iso(T0), end: iso(T0 + 24 * H) });
  await insertFeedback(t, [
    {
      project_id: P,
      atMs: T0 + H,
      trigger_ref: `${MON}:v1`,
      payload: {
        output: { score: 0.5, passed: true, label: 'x', tags: ['a', 'b'], items: [{ k: 1 }], mixed: [1, 'one'] },
        'Low quality': true,
        'a.b': 1,
        ' ': 2,
        n: null,
        'bad-key': 3,
      },
    },
    {
      project_id: P,
      atMs: T0 + 2 * H,
      trigger_ref: `${MON}:v1`,
      payload: { output: { score: 1, passed: null, extra: 'y' } },
    },
    { project_id: P, atMs: T0 + 0.5 * H, payload: { older: 1 } },
    { project_id: P, atMs: T0 + 3 * H, payload: { other: 5, count: 2.5 } },
    { project_id: P, atMs: T0 + 4 * H, trigger_ref: `${MON}2:v1`, feedback_type: 'custom', payload: { z: 'q' } },
    { project_id: 'fa-entity/elsewhere', atMs: T0 + 4 * H, payload: { secret: 1 } },
  ]);
});
after(() => t.close());

const paths = async (body: Record<string, unknown>) => {
  const r = await schema(body);
  assert.equal(r.status, 200, r.text);
  return r.body.paths.map((p: { json_path: string; value_type: string }) => `${p.json_path}:${p.value_type}`);
};

test('the latest payload of each trigger_ref, its paths typed and sorted', async () => {
  assert.deepEqual(await paths({}), [
    'count:numeric',
    'other:numeric',
    'output.extra:categorical',
    'output.passed:boolean',
    'output.score:numeric',
    'z:categorical',
  ]);
});

test('leaf paths: nested keys, array scalars at the array path; skipped keys and objects in arrays', async () => {
  assert.deepEqual(await paths({ trigger_ref: `${MON}:v1`, end: iso(T0 + 1.5 * H) }), [
    'Low quality:boolean',
    'n:boolean',
    'output.label:categorical',
    'output.mixed:categorical',
    'output.passed:boolean',
    'output.score:numeric',
    'output.tags:categorical',
  ]);
});

test('feedback_type, trigger_ref prefix and sample_limit narrow the sample', async () => {
  assert.deepEqual(await paths({ feedback_type: 'custom' }), ['z:categorical']);
  assert.deepEqual(await paths({ trigger_ref: `${MON}:*` }), [
    'output.extra:categorical',
    'output.passed:boolean',
    'output.score:numeric',
    'z:categorical',
  ]);
  assert.deepEqual(await paths({ sample_limit: 1 }), ['z:categorical']);
  assert.deepEqual(await paths({ start: iso(T0 + 5 * H) }), []);
});

test('invalid requests answer 400, malformed ones 422', async () => {
  for (const [body, reason] of [
    [{ sample_limit: 0 }, /sample_limit must be between 1 and 5000/],
    [{ sample_limit: 5001 }, /sample_limit must be between 1 and 5000/],
    [{ end: iso(T0 + 32 * 24 * H) }, /31 days/],
    [{ end: iso(T0 - 1) }, /before start/],
  ] as const) {
    const r = await schema(body);
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.reason, reason);
  }
  for (const body of [{ sample_limit: 'all' }, { sample_limit: 1.5 }, { start: null }, { metrics: [] }]) {
    const r = await schema(body);
    assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.text}`);
  }
});
