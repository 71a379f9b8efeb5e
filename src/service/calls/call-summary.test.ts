import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StoredCall } from '../../storage/calls/call-store.js';
import { deriveSummary, opNameOf, renderSummary } from './call-summary.js';

const call = (over: Partial<StoredCall>): StoredCall => ({
  project_id: 'e/p',
  id: 'c',
  trace_id: 't',
  parent_id: null,
  thread_id: null,
  turn_id: null,
  op_name: 'weave:///e/p/op/my op/v1:abc',
  display_name: null,
  started_at: 1_000_000,
  ended_at: 3_500_000,
  attributes: '{}',
  inputs: '{}',
  output: 'null',
  exception: null,
  summary: '{}',
  wb_user_id: null,
  wb_run_id: null,
  wb_run_step: null,
  wb_run_step_end: null,
  deleted_at: null,
  expire_at: null,
  storage_size_bytes: null,
  total_storage_size_bytes: null,
  ...over,
});

test('renderSummary equals JSON.stringify(deriveSummary(...)) in every shape', () => {
  const cases: Partial<StoredCall>[] = [
    {},
    { summary: null },
    { ended_at: null },
    { summary: JSON.stringify({ usage: { m: { requests: 1 } } }) },
    { summary: JSON.stringify({ status_counts: { error: 2, success: 1 } }) },
    { summary: JSON.stringify({ weave: { custom: 1, status: 'client-said' }, x: 1 }) },
    { summary: JSON.stringify({ note: 'weave' }), exception: 'boom' },
    { display_name: 'Shown' },
  ];
  for (const c of cases) {
    for (const extras of [
      {},
      { feedback: [] },
      { costs: '{"m":{"prompt_tokens":1}}' },
      { feedback: [], costs: '{"m":{}}' },
    ]) {
      const s = call(c);
      assert.deepEqual(
        JSON.parse(renderSummary(s, extras)),
        JSON.parse(JSON.stringify(deriveSummary(s, extras))),
        JSON.stringify(c),
      );
    }
  }
  assert.deepEqual(JSON.parse(renderSummary(call({}))).weave, {
    status: 'success',
    latency_ms: 2500,
    trace_name: 'my op/v1',
  });
});

test('opNameOf takes the name out of op refs, internal or external', () => {
  assert.equal(opNameOf('weave:///e/p/op/Evaluation.evaluate:abc'), 'Evaluation.evaluate');
  assert.equal(opNameOf('weave-trace-internal:///pid/op/f:abc'), 'f');
  assert.equal(opNameOf('plain_name'), 'plain_name');
  assert.equal(opNameOf('weave:///e/p/object/thing:abc'), 'weave:///e/p/object/thing:abc');
});
