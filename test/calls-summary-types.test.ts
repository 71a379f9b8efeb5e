// The typed parts of a call end's summary, as Weave's SummaryInsertMap has them: token counts
// in `usage` and counts in `status_counts` are whole numbers (or null), status_counts keys are
// trace statuses. Anything else is a 422 naming the field, and nothing of the request is written.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { end, endItem, newId, start, startItem } from './helpers/calls.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const read = async (id: string) => (await t.post('/call/read', { project_id: PROJECT, id })).body.call;

const BAD: readonly [string, Record<string, unknown>, (string | number)[]][] = [
  ['a string token count', { usage: { 'gpt-4o': { prompt_tokens: 'abc' } } }, ['usage', 'gpt-4o', 'prompt_tokens']],
  [
    'an array token count',
    { usage: { 'gpt-4o': { completion_tokens: [1] } } },
    ['usage', 'gpt-4o', 'completion_tokens'],
  ],
  ['an object token count', { usage: { m: { total_tokens: { n: 1 } } } }, ['usage', 'm', 'total_tokens']],
  ['a fractional token count', { usage: { m: { input_tokens: 1.5 } } }, ['usage', 'm', 'input_tokens']],
  ['a boolean request count', { usage: { m: { requests: true } } }, ['usage', 'm', 'requests']],
  ['a usage entry that is not an object', { usage: { m: 5 } }, ['usage', 'm']],
  ['usage that is not an object', { usage: [1, 2] }, ['usage']],
  ['a string status count', { status_counts: { success: 'abc' } }, ['status_counts', 'success']],
  ['an array status count', { status_counts: { error: [1] } }, ['status_counts', 'error']],
  ['an unknown status', { status_counts: { exploded: 1 } }, ['status_counts', 'exploded']],
];

for (const [what, summary, path] of BAD) {
  test(`/call/end: ${what} is a 422 naming summary.${path.join('.')}, and nothing is written`, async () => {
    const s = start();
    assert.equal((await t.post('/call/start', { start: s })).status, 200);
    const r = await t.post('/call/end', { end: end(s.id, { summary }) });
    assert.equal(r.status, 422, r.text);
    const locs = (r.body.detail as { loc: (string | number)[] }[]).map((d) => d.loc.join('.'));
    assert.ok(locs.includes(['body', 'end', 'summary', ...path].join('.')), `${JSON.stringify(locs)} names the field`);
    assert.equal((await read(s.id)).ended_at, null, 'the end was not written');
  });
}

test("/call/upsert_batch: one bad summary fails the whole batch with its item's path; nothing is written", async () => {
  const a = start();
  const b = start();
  const r = await t.post('/call/upsert_batch', {
    batch: [
      startItem(a),
      endItem(end(a.id)),
      startItem(b),
      endItem(end(b.id, { summary: { usage: { m: { prompt_tokens: '7' } } } })),
    ],
  });
  assert.equal(r.status, 422, r.text);
  const locs = (r.body.detail as { loc: (string | number)[] }[]).map((d) => d.loc.join('.'));
  assert.ok(locs.includes('body.batch.3.req.end.summary.usage.m.prompt_tokens'), JSON.stringify(locs));
  assert.equal(await read(a.id), null);
  assert.equal(await read(b.id), null);
});

test('well-typed summaries are stored as sent: nulls, extra keys, integral floats', async () => {
  const s = start();
  const summary = {
    usage: {
      'gpt-4o': {
        prompt_tokens: 11,
        completion_tokens: null,
        total_tokens: 11.0,
        prompt_tokens_details: { cached_tokens: 3 },
      },
    },
    status_counts: { success: 2, error: 0, running: 0, descendant_error: 1 },
    custom: { anything: ['goes'] },
  };
  assert.equal(
    (await t.post('/call/upsert_batch', { batch: [startItem(s), endItem(end(s.id, { summary }))] })).status,
    200,
  );
  const call = await read(s.id);
  assert.deepEqual(call.summary.usage, summary.usage);
  assert.deepEqual(call.summary.status_counts, summary.status_counts);
  assert.deepEqual(call.summary.custom, summary.custom);
});

test('the other typed fields of starts and ends are checked too', async () => {
  const s = start();
  const cases: [string, unknown][] = [
    ['/call/start', { start: { ...s, wb_run_step: 'one' } }],
    ['/call/start', { start: { ...s, started_at: 12 } }],
    ['/call/start', { start: { ...s, inputs: [1] } }],
    ['/call/start', { start: { ...s, attributes: 'x' } }],
    ['/call/start', { start: { ...s, otel_dump: 3 } }],
    ['/call/end', { end: { ...end(newId()), wb_run_step_end: 1.5 } }],
    ['/call/end', { end: { ...end(newId()), summary: 'done' } }],
    ['/call/end', { end: { ...end(newId()), exception: { message: 'x' } } }],
  ];
  for (const [path, body] of cases) {
    const r = await t.post(path, body);
    assert.equal(r.status, 422, `${path} ${JSON.stringify(body).slice(0, 120)}: ${r.text}`);
  }
  assert.equal(await read(s.id), null);
});
