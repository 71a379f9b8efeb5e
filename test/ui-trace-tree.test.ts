// POST /ui/api/trace_tree: one trace's calls as the UI's tree reads them, through HTTP; and
// the 401 answer a browser's fetch gets (no Basic challenge, so no login dialog).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, bearer, PROJECT, type TestApp } from './helpers/test-app.js';
import { end, endItem, jsonl, newId, opRef, start, startItem } from './helpers/calls.js';

let t: TestApp;
let keyed: TestApp;
const trace = newId();
const root = start({
  trace_id: trace,
  op: opRef('agent'),
  started_at: '2026-11-20T10:00:00.000Z',
  display_name: 'Agent run',
});
const llm = start({ trace_id: trace, parent_id: root.id, op: opRef('llm'), started_at: '2026-11-20T10:00:01.000Z' });
const tool = start({ trace_id: trace, parent_id: root.id, op: opRef('tool'), started_at: '2026-11-20T10:00:02.000Z' });
const running = start({
  trace_id: trace,
  parent_id: root.id,
  op: opRef('wait'),
  started_at: '2026-11-20T10:00:03.000Z',
});
const gone = start({ trace_id: trace, parent_id: root.id, op: opRef('gone'), started_at: '2026-11-20T10:00:04.000Z' });
before(async () => {
  t = await startTestApp();
  const usage = {
    usage: {
      'gpt-4o': { requests: 1, prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      'claude-x': { input_tokens: 7, output_tokens: 3 },
    },
  };
  const batch = [
    startItem(root),
    startItem(llm),
    startItem(tool),
    startItem(running),
    startItem(gone),
    endItem(end(llm.id, { ended_at: '2026-11-20T10:00:01.500Z', summary: usage })),
    endItem(end(tool.id, { ended_at: '2026-11-20T10:00:02.250Z', exception: 'boom' })),
    endItem(end(gone.id, { ended_at: '2026-11-20T10:00:04.100Z' })),
    endItem(end(root.id, { ended_at: '2026-11-20T10:00:05.000Z' })),
    startItem(start({ op: opRef('other') })),
  ];
  assert.equal((await t.post('/call/upsert_batch', { batch })).status, 200);
  assert.equal((await t.post('/calls/delete', { project_id: PROJECT, call_ids: [gone.id] })).status, 200);
  // gpt-4o at a project price (an old one, then the one in force at 10:00:01); claude-x has none.
  for (const [prompt, completion, effective_date] of [
    [1, 1, '2026-01-01T00:00:00Z'],
    [0.01, 0.02, '2026-11-20T09:00:00Z'],
  ] as const) {
    const r = await t.post('/cost/create', {
      project_id: PROJECT,
      costs: { 'gpt-4o': { prompt_token_cost: prompt, completion_token_cost: completion, effective_date } },
    });
    assert.equal(r.status, 200, r.text);
  }
  keyed = await startTestApp({ keys: [{ user: 'ann', entity: 'elsewhere', role: 'reader' }] });
});
after(async () => {
  await t.close();
  await keyed.close();
});

test('the live calls of the trace by start time, without payloads, with status, tokens, cost and models', async () => {
  const r = await t.post('/ui/api/trace_tree', { project_id: PROJECT, trace_id: trace });
  assert.equal(r.status, 200, r.text);
  assert.match(String(r.headers['content-type']), /^application\/jsonl/);
  assert.deepEqual(jsonl(r.text), [
    {
      id: root.id,
      parent_id: null,
      op_name: opRef('agent'),
      display_name: 'Agent run',
      started_at: '2026-11-20T10:00:00.000Z',
      ended_at: '2026-11-20T10:00:05.000Z',
      status: 'success',
      tokens: null,
      cost_usd: null,
      models: [],
    },
    {
      id: llm.id,
      parent_id: root.id,
      op_name: opRef('llm'),
      display_name: null,
      started_at: '2026-11-20T10:00:01.000Z',
      ended_at: '2026-11-20T10:00:01.500Z',
      status: 'success',
      tokens: 130,
      cost_usd: 100 * 0.01 + 20 * 0.02,
      models: ['gpt-4o', 'claude-x'],
    },
    {
      id: tool.id,
      parent_id: root.id,
      op_name: opRef('tool'),
      display_name: null,
      started_at: '2026-11-20T10:00:02.000Z',
      ended_at: '2026-11-20T10:00:02.250Z',
      status: 'error',
      tokens: null,
      cost_usd: null,
      models: [],
    },
    {
      id: running.id,
      parent_id: root.id,
      op_name: opRef('wait'),
      display_name: null,
      started_at: '2026-11-20T10:00:03.000Z',
      ended_at: null,
      status: 'running',
      tokens: null,
      cost_usd: null,
      models: [],
    },
  ]);
});

test('by the id of any call of the trace: the same rows; an unknown, deleted or foreign call is 404', async () => {
  const byTrace = await t.post('/ui/api/trace_tree', { project_id: PROJECT, trace_id: trace });
  const byCall = await t.post('/ui/api/trace_tree', { project_id: PROJECT, call_id: tool.id });
  assert.equal(byCall.status, 200, byCall.text);
  assert.equal(byCall.text, byTrace.text);
  for (const [project_id, call_id] of [
    [PROJECT, 'nope'],
    [PROJECT, gone.id],
    ['other/project', root.id],
  ]) {
    const r = await t.post('/ui/api/trace_tree', { project_id, call_id });
    assert.equal(r.status, 404, r.text);
    assert.equal(r.body.error_code, 'NOT_FOUND');
    assert.match(r.body.reason ?? r.body.message ?? JSON.stringify(r.body), new RegExp(call_id!));
  }
});

test('an unknown trace or another project is empty, not an error', async () => {
  assert.equal((await t.post('/ui/api/trace_tree', { project_id: PROJECT, trace_id: 'nope' })).text, '');
  assert.equal((await t.post('/ui/api/trace_tree', { project_id: 'other/project', trace_id: trace })).text, '');
});

test('malformed bodies are 422s naming the field', async () => {
  const bodies = [
    {},
    { project_id: PROJECT },
    { project_id: PROJECT, trace_id: '' },
    { project_id: PROJECT, trace_id: 5 },
    { project_id: PROJECT, trace_id: trace, extra: 1 },
    { project_id: PROJECT, call_id: '' },
    { project_id: PROJECT, trace_id: trace, call_id: root.id },
    { call_id: root.id },
  ];
  for (const body of bodies) {
    const r = await t.post('/ui/api/trace_tree', body);
    assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.text}`);
    assert.ok(Array.isArray(r.body.detail));
  }
  assert.equal((await t.postRaw('/ui/api/trace_tree', '{"project_id":')).status, 400);
});

test('keys mode: no key is 401; a key without a role on the project is 403', async () => {
  const body = { project_id: PROJECT, trace_id: trace };
  assert.equal((await keyed.post('/ui/api/trace_tree', body)).status, 401);
  const r = await keyed.post('/ui/api/trace_tree', body, bearer(keyed.keys[0]!.key));
  assert.equal(r.status, 403, r.text);
  assert.equal(r.body.error_code, 'FORBIDDEN');
});

test("a browser script's 401 carries no Basic challenge; an SDK's and a navigation's do", async () => {
  const sdk = await keyed.get('/ui/api/projects');
  assert.equal(sdk.status, 401);
  assert.equal(sdk.headers['www-authenticate'], 'Basic realm="weft"');
  const nav = await keyed.get('/ui/api/projects', { 'sec-fetch-mode': 'navigate' });
  assert.equal(nav.headers['www-authenticate'], 'Basic realm="weft"');
  for (const mode of ['cors', 'same-origin']) {
    const ui = await keyed.get('/ui/api/projects', { 'sec-fetch-mode': mode });
    assert.equal(ui.status, 401);
    assert.equal(ui.headers['www-authenticate'], undefined, mode);
    assert.equal(ui.body.error_code, 'UNAUTHORIZED');
  }
});

test('tokens count cached prompt tokens, as the bill does (Anthropic reports them beside input_tokens)', async () => {
  const c = start({ trace_id: newId(), op: opRef('cached'), started_at: '2026-11-20T11:00:00.000Z' });
  const usage = {
    usage: {
      'claude-opus-4-6': {
        requests: 1,
        input_tokens: 10,
        output_tokens: 2,
        cache_read_input_tokens: 100,
        cache_creation_input_tokens: 5,
      },
    },
  };
  await t.post('/call/upsert_batch', {
    batch: [startItem(c), endItem(end(c.id, { ended_at: '2026-11-20T11:00:01.000Z', summary: usage }))],
  });
  const r = await t.post('/ui/api/trace_tree', { project_id: PROJECT, call_id: c.id });
  assert.equal(jsonl(r.text)[0].tokens, 117);
});

test('a model without any price has no cost: null, not 0', async () => {
  const c = start({ trace_id: newId(), op: opRef('unpriced'), started_at: '2026-11-20T12:00:00.000Z' });
  const usage = { usage: { 'no-such-model': { prompt_tokens: 10, completion_tokens: 2 } } };
  await t.post('/call/upsert_batch', {
    batch: [startItem(c), endItem(end(c.id, { ended_at: '2026-11-20T12:00:01.000Z', summary: usage }))],
  });
  const [row] = jsonl((await t.post('/ui/api/trace_tree', { project_id: PROJECT, call_id: c.id })).text);
  assert.deepEqual([row.tokens, row.cost_usd, row.models], [12, null, ['no-such-model']]);
});
