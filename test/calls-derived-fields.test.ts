// summary.weave.status, latency_ms and trace_name are derived three times: in JavaScript for
// the answers (service/calls/call-summary.ts) and in each engine's SQL for filters and sorts
// (sqlite/calls/call-select.ts, clickhouse/calls/call-select.ts). One table of stored calls,
// read both ways: what a call shows is what filtering on it finds, on every engine.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { end, jsonl, newId, opRef, start } from './helpers/calls.js';
import { PROJECT, startTestApp } from './helpers/test-app.js';

const t = await startTestApp();
after(() => t.close());

const T0 = Date.UTC(2026, 10, 27, 10, 0, 0);
const at = (ms: number) => new Date(T0 + ms).toISOString();

/** [label, start options, end options or null (running)]. */
const CASES: readonly [string, Parameters<typeof start>[0], Parameters<typeof end>[1] | null][] = [
  ['running', {}, null],
  ['success, 1,234.9 ms', {}, { ended_at: '2026-11-27T10:00:01.234900Z' }],
  ['success in under a millisecond', {}, { ended_at: '2026-11-27T10:00:00.000900Z' }],
  ['error', {}, { ended_at: at(10), exception: 'boom' }],
  ['a descendant failed', {}, { ended_at: at(20), summary: { status_counts: { success: 1, error: 2 } } }],
  ['no descendant failed', {}, { ended_at: at(30), summary: { status_counts: { success: 3, error: 0 } } }],
  ['a display name', { display_name: 'my step' }, { ended_at: at(40) }],
  ['an op ref', { op: opRef('summarise') }, { ended_at: at(50) }],
  ['a plain op name', { op: 'plain-op' }, { ended_at: at(60) }],
  ['failed, and a descendant too', {}, { ended_at: at(70), exception: 'x', summary: { status_counts: { error: 1 } } }],
];

const ids: string[] = [];
for (const [label, s, e] of CASES) {
  const id = newId();
  ids.push(id);
  const st = start({ ...s, id, started_at: at(0), inputs: { label } });
  assert.equal((await t.post('/call/start', { start: st })).status, 200);
  if (e !== null) assert.equal((await t.post('/call/end', { end: end(id, e) })).status, 200);
}

const shown = async () => {
  const res = await t.post('/calls/stream_query', { project_id: PROJECT, filter: { call_ids: ids } });
  assert.equal(res.status, 200, res.text);
  return jsonl(res.text) as { id: string; summary: { weave: Record<string, unknown> } }[];
};

/** The ids among ours a filter on `field` = value finds, through the engine's SQL. */
async function found(field: string, value: unknown): Promise<string[]> {
  const res = await t.post('/calls/stream_query', {
    project_id: PROJECT,
    filter: { call_ids: ids },
    query: { $expr: { $eq: [{ $getField: field }, { $literal: value }] } },
  });
  assert.equal(res.status, 200, res.text);
  return (jsonl(res.text) as { id: string }[]).map((c) => c.id).sort();
}

const groups = (calls: { id: string }[], key: (c: any) => unknown) => {
  const out = new Map<unknown, string[]>();
  for (const c of calls) out.set(key(c), [...(out.get(key(c)) ?? []), c.id].sort());
  return out;
};

test('status: every call a filter finds shows that status, and the other way', async () => {
  const calls = await shown();
  const byStatus = groups(calls, (c) => c.summary.weave.status);
  assert.deepEqual([...byStatus.keys()].sort(), ['descendant_error', 'error', 'running', 'success']);
  for (const [status, want] of byStatus)
    assert.deepEqual(await found('summary.weave.status', status), want, String(status));
});

test('latency_ms: whole milliseconds, absent while running, found by filter and in sort order', async () => {
  const calls = await shown();
  for (const [ms, want] of groups(calls, (c) => c.summary.weave.latency_ms)) {
    if (ms === undefined) continue;
    assert.deepEqual(await found('summary.weave.latency_ms', ms), want, `latency ${String(ms)}`);
  }
  const latencies = calls.map((c) => c.summary.weave.latency_ms).filter((x) => x !== undefined);
  assert.ok(latencies.includes(1234) && latencies.includes(0), JSON.stringify(latencies));
  const sorted = await t.post('/calls/stream_query', {
    project_id: PROJECT,
    filter: { call_ids: ids },
    sort_by: [{ field: 'summary.weave.latency_ms', direction: 'asc' }],
  });
  const order = (jsonl(sorted.text) as { summary: { weave: { latency_ms?: number } } }[])
    .map((c) => c.summary.weave.latency_ms)
    .filter((x) => x !== undefined);
  assert.deepEqual(
    order,
    [...order].sort((a, b) => a! - b!),
  );
});

test('trace_name: the display name when there is one, else the op name (its name part for a ref)', async () => {
  const calls = await shown();
  const name = (c: { summary: { weave: Record<string, unknown> } }) =>
    c.summary.weave.display_name ?? c.summary.weave.trace_name;
  const byName = groups(calls, name);
  assert.ok(
    byName.has('my step') && byName.has('summarise') && byName.has('plain-op'),
    JSON.stringify([...byName.keys()]),
  );
  for (const [n, want] of byName) assert.deepEqual(await found('summary.weave.trace_name', n), want, String(n));
});
