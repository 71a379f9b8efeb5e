// Replays the /feedback/create requests the TS SDK sent in the recorded sessions
// (test/fixtures/sdk-captures): EvaluationLogger scores (object runnable_ref + call_ref,
// sent before the calls exist) and client.addScore with op and object scorers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, LOCAL_USER, type TestApp } from './helpers/test-app.js';

const CAPTURES = join(import.meta.dirname, 'fixtures', 'sdk-captures');

interface Captured {
  path: string;
  body: Record<string, unknown>;
  fault_injected?: boolean;
  response: { status: number; body: Record<string, unknown> };
}

function feedbackCreates(file: string): Captured[] {
  return readFileSync(join(CAPTURES, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Captured)
    .filter((c) => c.path === '/feedback/create' && !c.fault_injected);
}

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

for (const file of ['08-evaluation-logger.jsonl', '09-feedback.jsonl']) {
  const captured = feedbackCreates(file);
  test(`${file}: every recorded feedback/create is accepted and stored as sent`, async () => {
    assert.ok(captured.length >= 2, 'the capture holds feedback requests');
    if (file.startsWith('08')) assert.equal(captured.length, 4);
    for (const c of captured) {
      const r = await t.post('/feedback/create', c.body);
      assert.equal(r.status, 200, `${JSON.stringify(c.body)} -> ${r.text}`);
      // The SDK reads response.data.id; the recorded answers had these keys too.
      assert.deepEqual(Object.keys(r.body).sort(), Object.keys(c.response.body).sort());
      assert.equal(r.body.wb_user_id, LOCAL_USER);
      assert.deepEqual(r.body.payload, c.body.payload);
      const q = await t.post('/feedback/query', {
        project_id: c.body.project_id,
        fields: ['weave_ref', 'feedback_type', 'payload', 'runnable_ref', 'call_ref', 'wb_user_id'],
        query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: r.body.id }] } },
      });
      assert.equal(q.status, 200, q.text);
      assert.deepEqual(q.body.result, [
        {
          weave_ref: c.body.weave_ref,
          feedback_type: c.body.feedback_type,
          payload: c.body.payload,
          runnable_ref: c.body.runnable_ref,
          call_ref: c.body.call_ref,
          wb_user_id: LOCAL_USER,
        },
      ]);
    }
  });
}

test('the scores of one predict call are all found by its call ref (include_feedback path)', async () => {
  const captured = feedbackCreates('08-evaluation-logger.jsonl');
  const first = captured[0]!.body;
  const rows = await t.store.feedback.findByWeaveRefs(String(first.project_id), [String(first.weave_ref)]);
  const expected = captured.filter((c) => c.body.weave_ref === first.weave_ref).map((c) => c.body.feedback_type);
  assert.deepEqual(
    rows.map((r) => r.feedback_type),
    expected,
  );
});
