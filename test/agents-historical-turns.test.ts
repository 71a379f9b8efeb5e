// Weave's historical-turn import through HTTP (PUT / GET /agents/v1/historical-turns/{logical_key}):
// a committed turn reads and counts as a turn sent over OTLP; the same envelope again is replayed
// and changes nothing; another envelope for the key is a conflict; ids follow the spec's formulas
// (computed here with node:crypto); every invalid envelope or body is a 4xx that stores nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { bearer, startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { type Envelope, PyFloat, cloned, prepareTurn, pyJson, sealed, upsertBody } from './helpers/historical-turn.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const PATH = '/agents/v1/historical-turns';
const T0 = BigInt(Date.UTC(2026, 0, 15, 9)) * 1_000_000n + 123_456_789n; // nanoseconds, past 2^53
const MS = 1_000_000n;
const msgs = (role: string, text: string) => JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** A turn as log_turn / prepare_turn builds it: the root, a model call that asks for a tool, the tool, the answer. */
function turnOf(
  turnKey: string,
  { conversationId = 'conv-history', answer = 'Sunny, 21 °C.', agentName = 'archivist' } = {},
): Envelope {
  return prepareTurn({
    projectId: PROJECT,
    conversationId,
    turnKey,
    agentName,
    startNs: T0,
    endNs: T0 + 2000n * MS,
    attributes: {
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.input.messages': msgs('user', 'Weather in Lisbon?'),
      'gen_ai.output.messages': msgs('assistant', answer),
      'gen_ai.request.temperature': new PyFloat(1),
      'source.tags': ['import', 'backfill'],
    },
    children: [
      {
        kind: 'llm',
        name: 'chat gpt-4o',
        startNs: T0 + 10n * MS,
        endNs: T0 + 900n * MS,
        attributes: {
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.provider.name': 'openai',
          'gen_ai.usage.input_tokens': 120n,
          'gen_ai.usage.output_tokens': 12n,
          'gen_ai.input.messages': msgs('user', 'Weather in Lisbon?'),
          'gen_ai.output.messages': JSON.stringify([
            {
              role: 'assistant',
              parts: [
                { type: 'text', content: 'Let me check.' },
                { type: 'tool_call', id: 'call-1', name: 'get_weather', arguments: '{}' },
              ],
            },
          ]),
        },
      },
      {
        kind: 'tool',
        name: 'execute_tool get_weather',
        startNs: T0 + 1000n * MS,
        endNs: T0 + 1200n * MS,
        attributes: {
          'gen_ai.tool.name': 'get_weather',
          'gen_ai.tool.call.id': 'call-1',
          'gen_ai.tool.call.arguments': '{"city":"Lisbon"}',
          'gen_ai.tool.call.result': '{"temp":21}',
        },
      },
      {
        kind: 'llm',
        name: 'chat gpt-4o',
        startNs: T0 + 1300n * MS,
        endNs: T0 + 1900n * MS,
        attributes: {
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.provider.name': 'openai',
          'gen_ai.usage.input_tokens': 200n,
          'gen_ai.usage.output_tokens': 9n,
          'gen_ai.output.messages': msgs('assistant', answer),
        },
      },
    ],
  });
}

const put = async (key: string, payload: string, contentType = 'application/json') => {
  const r = await t.app.inject({
    method: 'PUT',
    url: `${PATH}/${key}`,
    payload,
    headers: { 'content-type': contentType },
  });
  return { status: r.statusCode, body: r.body.length > 0 ? JSON.parse(r.body) : undefined, text: r.body };
};
const putTurn = (turn: Envelope, extra = {}) => put(String(turn.logical_key), upsertBody(PROJECT, turn, extra));
const status = async (key: string) => {
  const r = await t.get(`${PATH}/${key}?project_id=${encodeURIComponent(PROJECT)}`);
  assert.equal(r.status, 200, r.text);
  return r.body;
};
const traceSpans = async (traceId: string) => {
  const r = await t.post('/agents/spans/query', {
    project_id: PROJECT,
    query: { $expr: { $eq: [{ $getField: 'trace_id' }, { $literal: traceId }] } },
    sort_by: [{ field: 'span_id', direction: 'asc' }],
    include_details: true,
  });
  assert.equal(r.status, 200, r.text);
  return r.body.spans;
};
const agent = async (name: string) => {
  const r = await t.post('/agents/query', { project_id: PROJECT, filters: { agent_name: name } });
  assert.equal(r.status, 200, r.text);
  return r.body.agents;
};

test('ids follow the spec: logical key, trace id, root and child span ids', async () => {
  const turn = turnOf('ids-turn');
  const key = sha(`hivemind-weave-turn-v1\0${PROJECT}\0conv-history\0ids-turn`);
  const id = (domain: string, n: number) => sha(`weave-historical-turn-id-v1\0${domain}\0${key}`).slice(0, n);
  assert.equal(turn.logical_key, key);
  const r = await putTurn(turn);
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.body.trace_ids, [id('trace', 32)]);
  assert.deepEqual(r.body.root_span_ids, [id('root', 16)]);
  const spans = await traceSpans(id('trace', 32));
  assert.deepEqual(
    spans.map((s: { span_id: string; parent_span_id: string | null }) => [s.span_id, s.parent_span_id]).sort(),
    [
      [id('root', 16), null],
      [id('child:0:llm', 16), id('root', 16)],
      [id('child:1:tool', 16), id('root', 16)],
      [id('child:2:llm', 16), id('root', 16)],
    ].sort(),
  );
  assert.equal(r.body.commit_id, `htc1:${sha(`weave-historical-turn-commit-v1\0${PROJECT}\0${key}`)}`);
  assert.equal(r.body.storage_row_key, `htr1:${sha(`weave-historical-turn-row-v1\0${PROJECT}\0${key}`)}`);
});

test('a committed turn reads as a chat, counts once; the same envelope is replayed; another is a conflict', async () => {
  const turn = turnOf('turn-1', { conversationId: 'conv-commit', agentName: 'committer' });
  const key = String(turn.logical_key);
  const traceId = String(turn.trace_id);
  assert.deepEqual(await status(key), {
    logical_key: key,
    status: 'absent',
    wire_sha256: null,
    commit_id: null,
    storage_row_key: null,
    trace_ids: [],
    root_span_ids: [],
    span_count: 0,
    last_error: null,
  });

  const first = await putTurn(turn);
  assert.equal(first.status, 201, first.text);
  assert.equal(first.body.status, 'committed');
  assert.equal(first.body.wire_sha256, turn.wire_sha256);
  assert.equal(first.body.span_count, 4);
  assert.equal(first.body.existing_wire_sha256, null);
  const { existing_wire_sha256: _e, ...evidence } = first.body;
  assert.deepEqual(await status(key), { ...evidence, last_error: null });

  const chat = await t.post('/agents/traces/chat', { project_id: PROJECT, trace_id: traceId });
  assert.equal(chat.status, 200, chat.text);
  assert.deepEqual(
    chat.body.messages.map((m: { type: string }) => m.type),
    ['user_message', 'agent_start', 'assistant_message', 'tool_call', 'assistant_message'],
  );
  assert.equal(chat.body.messages[0].user_message.text, 'Weather in Lisbon?');
  assert.equal(chat.body.messages[2].assistant_message.text, 'Let me check.');
  assert.equal(chat.body.messages[3].tool_call.tool_result, '{"temp":21}');
  assert.equal(chat.body.messages[4].assistant_message.text, 'Sunny, 21 °C.');
  assert.equal(chat.body.total_duration_ms, 2000);
  assert.equal(chat.body.started_at, '2026-01-15T09:00:00.123456Z', 'to the microsecond');
  const conv = await t.post('/agents/conversations/chat', { project_id: PROJECT, conversation_id: 'conv-commit' });
  assert.equal(conv.status, 200, conv.text);
  assert.deepEqual(
    conv.body.turns.map((x: { trace_id: string }) => x.trace_id),
    [traceId],
  );
  const [counted] = await agent('committer');
  assert.equal(counted.invocation_count, 1);
  assert.equal(counted.span_count, 4);
  assert.equal(counted.total_input_tokens, 320);
  const spansBefore = await traceSpans(traceId);
  assert.equal(spansBefore.length, 4);
  const root = spansBefore.find((s: { parent_span_id: string | null }) => s.parent_span_id === null);
  assert.equal(root.request_temperature, 1);
  assert.deepEqual(root.custom_attrs_string['source.tags'], '["import","backfill"]');
  assert.equal(root.custom_attrs_string['historical_turn.logical_key'], key);

  const again = await putTurn(turn);
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(again.body, { ...first.body, status: 'replayed' });
  assert.deepEqual(await traceSpans(traceId), spansBefore, 'nothing rewritten');
  assert.deepEqual(await agent('committer'), [counted], 'counted once');

  const changed = turnOf('turn-1', { conversationId: 'conv-commit', agentName: 'committer', answer: 'Rainy, 12 °C.' });
  assert.equal(changed.logical_key, key);
  const conflict = await putTurn(changed);
  assert.equal(conflict.status, 409, conflict.text);
  assert.deepEqual(conflict.body, {
    logical_key: key,
    wire_sha256: changed.wire_sha256,
    status: 'conflict',
    commit_id: null,
    storage_row_key: null,
    trace_ids: [],
    root_span_ids: [],
    span_count: 0,
    existing_wire_sha256: turn.wire_sha256,
  });
  assert.deepEqual(await traceSpans(traceId), spansBefore, 'the conflicting envelope wrote nothing');
  assert.deepEqual(await status(key), { ...evidence, last_error: null });
});

test('the capabilities route states the contract and its limits', async () => {
  const r = await t.get(`${PATH}/capabilities?project_id=${encodeURIComponent(PROJECT)}`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.capability_version, 'historical-turn-v1');
  assert.equal(r.body.max_envelope_bytes, 16 * 1024 * 1024);
  assert.equal(r.body.max_spans, 512);
  assert.equal(r.body.supported, true);
});

test('numbers keep their text: a float 1.0 and an integer 1 digest differently, timestamps exactly', async () => {
  const turn = turnOf('float-turn');
  // The envelope digests the temperature as the float 1.0; the same body with the integer 1 is
  // another payload, which the server tells apart (JSON.parse alone would not).
  const body = upsertBody(PROJECT, turn).replace('"gen_ai.request.temperature":1.0', '"gen_ai.request.temperature":1');
  assert.notEqual(body, upsertBody(PROJECT, turn));
  const wrong = await put(String(turn.logical_key), body);
  assert.equal(wrong.status, 422, wrong.text);
  assert.match(wrong.text, /does not match its canonical payload/);
  // Nanosecond times may come as digits in text (a JavaScript client's 19-digit integers).
  const spans = turn.spans.map((s) => ({
    ...s,
    start_time_unix_nano: String(s.start_time_unix_nano),
    end_time_unix_nano: String(s.end_time_unix_nano),
  }));
  const asText = await put(String(turn.logical_key), upsertBody(PROJECT, { ...turn, spans }));
  assert.equal(asText.status, 201, asText.text);
  const [root] = (await traceSpans(String(turn.trace_id))).filter(
    (x: { parent_span_id: unknown }) => !x.parent_span_id,
  );
  assert.equal(root.started_at, '2026-01-15T09:00:00.123456Z');
});

/** Posts a broken envelope (or body) and checks its status, its message, and that nothing is stored. */
async function refused(turn: Envelope, payload: string, want: number, message: RegExp, key = String(turn.logical_key)) {
  const r = await put(key, payload);
  assert.equal(r.status, want, r.text);
  assert.match(r.text, message);
  if (/^[0-9a-f]{64}$/.test(key)) assert.equal((await status(key)).status, 'absent');
  assert.deepEqual(await traceSpans(String(turn.trace_id)), [], 'no span stored');
}

const edited = (turn: Envelope, edit: (t: Envelope) => void): Envelope => {
  const copy = cloned(turn);
  edit(copy);
  return sealed(copy);
};

test('each invalid envelope is a clear 4xx and stores nothing', async () => {
  const turn = turnOf('bad-turn');
  const body = (x: Envelope, extra = {}) => upsertBody(PROJECT, x, extra);
  const bad = await t.get(`${PATH}/not-a-key?project_id=${encodeURIComponent(PROJECT)}`);
  assert.equal(bad.status, 422, bad.text);
  await refused(turn, body(turn), 422, /logical_key/, 'a'.repeat(64));
  await refused(turn, body(turn), 422, /logical_key/, 'not-hex');
  await refused(turn, body(turn, { capability_version: 'historical-turn-v2' }), 412, /capability mismatch/);
  const older = edited(turn, (x) => (x.capability_version = 'historical-turn-v0'));
  await refused(turn, body(older), 412, /CAPABILITY_MISMATCH/);
  const tampered = cloned(turn);
  (tampered.spans[0]!.attributes as Record<string, string>)['gen_ai.agent.name'] = 'ARCHIVIST'; // same length
  await refused(turn, body(tampered), 422, /wire_sha256.*does not match/);
  const unzoned = edited(turn, (x) => (x.spans[1]!.start_time_unix_nano = '2026-01-15T09:00:00'));
  await refused(turn, body(unzoned), 422, /nanoseconds since the Unix epoch.*zone/);
  const reserved = edited(
    turn,
    (x) => ((x.spans[2]!.attributes as Record<string, string>)['historical_turn.note'] = 'x'),
  );
  await refused(turn, body(reserved), 422, /reserved/);
  const rootReserved = edited(
    turn,
    (x) => ((x.spans[0]!.attributes as Record<string, string>)['historical_turn.extra'] = 'x'),
  );
  await refused(turn, body(rootReserved), 422, /reserved/);
  const nested = edited(turn, (x) => ((x.spans[1]!.attributes as Record<string, unknown>).nested = { a: 1n } as never));
  await refused(turn, body(nested), 422, /OTel scalar/);
  const mixed = edited(turn, (x) => ((x.spans[1]!.attributes as Record<string, unknown>).mixed = ['a', 1n] as never));
  await refused(turn, body(mixed), 422, /one type/);
  const op = edited(
    turn,
    (x) => ((x.spans[2]!.attributes as Record<string, string>)['gen_ai.operation.name'] = 'chat'),
  );
  await refused(turn, body(op), 422, /execute_tool for kind tool/);
  const elsewhere = edited(turn, (x) => (x.destination_project_id = 'other/project'));
  await refused(turn, body(elsewhere), 422, /project_id/);
  const rekeyed = edited(turn, (x) => (x.turn_key = 'another-key'));
  await refused(turn, body(rekeyed), 422, /turn key|certificate|match/);
  const outside = edited(turn, (x) => (x.spans[1]!.end_time_unix_nano = T0 + 5000n * MS));
  await refused(turn, body(outside), 422, /within the turn root/);
  const sizes = edited(turn, () => undefined);
  sizes.uncompressed_bytes = 1n;
  await refused(turn, body(sealedHash(sizes)), 422, /uncompressed_bytes/);
  const refs = edited(turn, (x) => (x.reference_count = 1n));
  await refused(turn, body(refs), 422, /content references/);
  const schema = edited(turn, (x) => (x.schema_version = '2'));
  await refused(turn, body(schema), 422, /schema_version/);
});

/** wire_sha256 over the envelope as it is, sizes untouched (to test the size check alone). */
function sealedHash(turn: Envelope): Envelope {
  const { wire_sha256: _w, ...hashed } = turn;
  return { ...turn, wire_sha256: sha(pyJson(hashed)) };
}

test('too many spans is a 422, too large an envelope a 413, and neither stores anything', async () => {
  const many = prepareTurn({
    projectId: PROJECT,
    conversationId: 'conv-limits',
    turnKey: 'many',
    agentName: 'archivist',
    startNs: T0,
    endNs: T0 + 1000n * MS,
    children: Array.from({ length: 512 }, (_, i) => ({
      kind: 'tool' as const,
      name: `execute_tool t${i}`,
      startNs: T0 + 1n,
      endNs: T0 + 2n,
      attributes: { 'gen_ai.tool.name': `t${i}` },
    })),
  });
  assert.equal(many.spans.length, 513);
  await refused(many, upsertBody(PROJECT, many), 422, /513 spans; at most 512/);

  const huge = prepareTurn({
    projectId: PROJECT,
    conversationId: 'conv-limits',
    turnKey: 'huge',
    agentName: 'archivist',
    startNs: T0,
    endNs: T0 + 1000n * MS,
    attributes: { 'gen_ai.output.messages': msgs('assistant', 'x'.repeat(16 * 1024 * 1024)) },
  });
  await refused(huge, upsertBody(PROJECT, huge), 413, /at most 16777216/);
});

test('malformed bodies are a 4xx and store nothing', async () => {
  const turn = turnOf('malformed-turn');
  const key = String(turn.logical_key);
  const cases: [string, number][] = [
    ['{"project_id":', 400],
    ['', 400],
    ['[]', 422],
    ['{"project_id":"test-entity/test-project"}', 422],
    [upsertBody(PROJECT, turn).replace('{"capability_version"', '{"__proto__":{"x":1},"capability_version"'), 400],
    [upsertBody(PROJECT, turn, { extra: 1n }), 422],
    [upsertBody(PROJECT, { ...turn, unknown_field: 'x' }), 422],
    [upsertBody(PROJECT, { ...turn, spans: [] }), 422],
    [upsertBody(PROJECT, { ...turn, compressed_bytes: -1n }), 422],
  ];
  for (const [payload, want] of cases) await refused(turn, payload, want, /./, key);
  const r = await put(key, upsertBody(PROJECT, turn), 'text/plain');
  assert.ok(r.status >= 400 && r.status < 500, r.text);
  assert.equal((await status(key)).status, 'absent');
});

test('an attempt that failed leaves the key committing; the next attempt with the envelope commits it', async () => {
  let failures = 1;
  const flaky = await startTestApp({
    wrapStore: (store) => ({
      ...store,
      spans: {
        ...store.spans,
        write: async (rows) => {
          if (failures-- > 0) throw new Error('disk hiccup');
          return store.spans.write(rows);
        },
      },
    }),
  });
  try {
    const turn = turnOf('flaky-turn');
    const key = String(turn.logical_key);
    const send = () =>
      flaky.app.inject({
        method: 'PUT',
        url: `${PATH}/${key}`,
        payload: upsertBody(PROJECT, turn),
        headers: { 'content-type': 'application/json' },
      });
    assert.equal((await send()).statusCode, 500);
    const pending = await flaky.get(`${PATH}/${key}?project_id=${encodeURIComponent(PROJECT)}`);
    assert.equal(pending.body.status, 'committing');
    assert.equal(pending.body.last_error, 'commit_attempt_failed');
    assert.equal(pending.body.storage_row_key, null);
    const retry = await send();
    assert.equal(retry.statusCode, 201, retry.body);
    assert.equal(JSON.parse(retry.body).status, 'committed');
  } finally {
    await flaky.close();
  }
});

test('access is as on every route: a reader reads the status but cannot import', async () => {
  const keyed = await startTestApp({ keys: [{ user: 'reader', entity: PROJECT.split('/')[0]!, role: 'reader' }] });
  try {
    const turn = turnOf('reader-turn');
    const key = String(turn.logical_key);
    const headers = { ...bearer(keyed.keys[0]!.key), 'content-type': 'application/json' };
    const r = await keyed.app.inject({
      method: 'PUT',
      url: `${PATH}/${key}`,
      payload: upsertBody(PROJECT, turn),
      headers,
    });
    assert.equal(r.statusCode, 403, r.body);
    const s = await keyed.get(`${PATH}/${key}?project_id=${encodeURIComponent(PROJECT)}`, bearer(keyed.keys[0]!.key));
    assert.equal(s.status, 200, s.text);
    assert.equal(s.body.status, 'absent');
  } finally {
    await keyed.close();
  }
});
