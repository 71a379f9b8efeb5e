// POST /otel/v1/traces through HTTP: spans made by the real OpenTelemetry SDK, serialized by
// the exporters' own serializers, in protobuf and JSON, plain and compressed; the calls they
// become; projects, auth, bad bodies, retries and late parents.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { callsOf, postOtlp, PROTOBUF, record, SpanStatusCode, tree } from './helpers/otlp.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const agent = (project: string) =>
  record(
    { 'service.name': 'probe', 'wandb.entity': project.split('/')[0]!, 'wandb.project': project.split('/')[1]! },
    (tracer) =>
      tree(
        tracer,
        'agent.run',
        { 'wandb.display_name': 'Agent run' },
        (open) => {
          open('chat gpt-4o', {
            'gen_ai.request.model': 'gpt-4o',
            'gen_ai.usage.input_tokens': 12,
            'gen_ai.usage.output_tokens': 5,
            big: '9007199254740994',
          });
          open('tool search', {
            'input.value': '{"q":"weft"}',
            'input.mime_type': 'application/json',
            'output.value': 'found',
          });
        },
        (root) => {
          root.recordException(new TypeError('boom'));
          root.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
        },
      ),
  );

test('protobuf: one span is one call with its ids, times, tree, exception and the whole span kept', async () => {
  const rec = agent('e1/p1');
  const res = await postOtlp(t, rec.protobuf);
  assert.equal(res.status, 200, res.text);
  assert.match(String(res.headers['content-type']), /^application\/x-protobuf/);
  assert.deepEqual(ProtobufTraceSerializer.deserializeResponse(Buffer.from(res.text, 'latin1')), {});
  const calls = await callsOf(t, 'e1/p1');
  assert.equal(calls.length, 3);
  const root = rec.ids.get('agent.run')!;
  const byName = new Map(calls.map((c) => [c.op_name, c]));
  const r = byName.get('agent.run');
  assert.equal(r.id, root.spanId);
  assert.equal(r.trace_id, root.traceId);
  assert.equal(r.parent_id, null);
  assert.equal(r.display_name, 'Agent run');
  assert.equal(r.exception, 'TypeError: boom');
  assert.equal(r.summary.weave.status, 'error');
  assert.equal(r.attributes.otel_span.status.code, 'ERROR');
  assert.equal(r.attributes.otel_span.resource.attributes.service.name, 'probe');
  for (const name of ['chat gpt-4o', 'tool search']) {
    const c = byName.get(name);
    assert.equal(c.parent_id, root.spanId, name);
    assert.equal(c.trace_id, root.traceId, name);
    assert.equal(c.exception, null);
    assert.ok(Date.parse(c.ended_at) >= Date.parse(c.started_at));
  }
  const chat = byName.get('chat gpt-4o');
  assert.deepEqual(chat.summary.usage, {
    'gpt-4o': { requests: 1, prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
  });
  assert.equal(chat.attributes.model, 'gpt-4o');
  assert.equal(chat.attributes.otel_span.attributes.big, '9007199254740994');
  assert.equal(chat.attributes.otel_span.kind, 'INTERNAL');
  const tool = byName.get('tool search');
  assert.deepEqual(tool.inputs, { q: 'weft' });
  assert.equal(tool.output, 'found');
});

test('JSON, gzip, deflate and br bodies give the same calls as protobuf', async () => {
  const rec = agent('e2/p');
  const want = await (async () => {
    assert.equal((await postOtlp(t, rec.protobuf, { headers: { project_id: 'e2/base' } })).status, 200);
    return (await callsOf(t, 'e2/base')).map(({ project_id: _p, ...c }) => c);
  })();
  const variants: [string, Buffer, string, string | undefined][] = [
    ['json', rec.json, 'application/json', undefined],
    ['json-gzip', gzipSync(rec.json), 'application/json; charset=utf-8', 'gzip'],
    ['proto-gzip', gzipSync(rec.protobuf), PROTOBUF, 'gzip'],
    ['proto-deflate', deflateSync(rec.protobuf), PROTOBUF, 'deflate'],
    ['proto-raw-deflate', deflateRawSync(rec.protobuf), PROTOBUF, 'deflate'],
    ['json-br', brotliCompressSync(rec.json), 'application/json', 'br'],
  ];
  for (const [name, body, type, encoding] of variants) {
    const headers: Record<string, string> = { project_id: `e2/${name}` };
    if (encoding) headers['content-encoding'] = encoding;
    const res = await postOtlp(t, body, { type, headers });
    assert.equal(res.status, 200, `${name}: ${res.text}`);
    if (type.startsWith('application/json')) assert.deepEqual(res.body, {}, name);
    const got = (await callsOf(t, `e2/${name}`)).map(({ project_id: _p, ...c }) => c);
    assert.deepEqual(got, want, name);
  }
});

test('the aliases /v1/traces, /otel/v1/trace and the /traces prefix take exports too', async () => {
  for (const [i, path] of ['/v1/traces', '/otel/v1/trace', '/traces/otel/v1/traces', '/traces/v1/traces'].entries()) {
    const rec = agent(`alias/p${i}`);
    const res = await postOtlp(t, rec.protobuf, { path });
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    assert.equal((await callsOf(t, `alias/p${i}`)).length, 3, path);
  }
});

test('the project: the project_id header wins; else wandb.entity + wandb.project, or wandb.project as entity/project', async () => {
  const rec = agent('res/from-resource');
  assert.equal((await postOtlp(t, rec.protobuf, { headers: { project_id: 'hdr/wins' } })).status, 200);
  assert.equal((await callsOf(t, 'hdr/wins')).length, 3);
  assert.equal((await callsOf(t, 'res/from-resource')).length, 0);
  const slash = record({ 'wandb.project': 'ent/slashed' }, (tracer) => tracer.startSpan('one').end());
  assert.equal((await postOtlp(t, slash.protobuf)).status, 200);
  assert.equal((await callsOf(t, 'ent/slashed')).length, 1);
});

test('no project anywhere, or a malformed one, is 400 and stores nothing', async () => {
  const none = record({ 'service.name': 'x' }, (tracer) => tracer.startSpan('orphan').end());
  const res = await postOtlp(t, none.protobuf);
  assert.equal(res.status, 400);
  assert.match(res.body.reason, /project_id header .* wandb\.entity and wandb\.project/);
  for (const bad of ['no-slash', 'a/b/c', '/p']) {
    const r = await postOtlp(t, none.protobuf, { headers: { project_id: bad } });
    assert.equal(r.status, 400, bad);
    assert.match(r.body.reason, /<entity>\/<project>/);
  }
});

test('bad bodies: other media types 415, truncated protobuf and broken JSON 400, never a 500', async () => {
  const rec = agent('bad/p');
  const cases: [string, Buffer, string, Record<string, string>, number, RegExp][] = [
    ['text/plain', rec.json, 'text/plain', {}, 415, /application\/x-protobuf or application\/json/],
    ['zstd', rec.protobuf, PROTOBUF, { 'content-encoding': 'zstd' }, 415, /Content-Encoding "zstd"/],
    [
      'truncated',
      rec.protobuf.subarray(0, rec.protobuf.length - 7),
      PROTOBUF,
      {},
      400,
      /not an OTLP ExportTraceServiceRequest/,
    ],
    ['garbage', Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]), PROTOBUF, {}, 400, /protobuf/],
    ['not json', Buffer.from('{"resourceSpans": ['), 'application/json', {}, 400, /not JSON/],
    [
      'wrong shape',
      Buffer.from('{"resourceSpans": {"a": 1}}'),
      'application/json',
      {},
      400,
      /resourceSpans must be a list/,
    ],
    [
      'scope not a list',
      Buffer.from('{"resourceSpans": [{"scopeSpans": 3}]}'),
      'application/json',
      {},
      400,
      /scopeSpans must be a list/,
    ],
    ['json array', Buffer.from('[1,2]'), 'application/json', {}, 400, /must be an object/],
    ['bad gzip', Buffer.from('not gzip at all'), PROTOBUF, { 'content-encoding': 'gzip' }, 400, /Content-Encoding/],
  ];
  for (const [name, body, type, headers, status, reason] of cases) {
    const res = await postOtlp(t, body, { type, headers: { project_id: 'bad/p', ...headers } });
    assert.equal(res.status, status, `${name}: ${res.text}`);
    assert.match(res.body.reason, reason, name);
  }
  assert.equal((await callsOf(t, 'bad/p')).length, 0);
});

test('a body that inflates past the body limit is 413', async () => {
  const small = await startTestApp({ bodyLimit: 64 * 1024 });
  try {
    const res = await postOtlp(small, Buffer.alloc(1024 * 1024), { gzip: true, headers: { project_id: 'big/p' } });
    assert.equal(res.status, 413, res.text);
    assert.match(res.body.reason, /inflates to more than 65536 bytes/);
  } finally {
    await small.close();
  }
});

test('a span with a bad id is rejected in partialSuccess; the others are stored', async () => {
  const rec = agent('partial/p');
  const body = JSON.parse(rec.json.toString());
  const spans = body.resourceSpans[0].scopeSpans[0].spans;
  spans[0].spanId = 'abc';
  spans[1].startTimeUnixNano = '0';
  const res = await postOtlp(t, Buffer.from(JSON.stringify(body)), { type: 'application/json' });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.partialSuccess.rejectedSpans, '2');
  assert.match(
    res.body.partialSuccess.errorMessage,
    /Rejected span \(name="[^"]+" trace_id=[0-9a-f]{32} span_id=abc\): spanId must be 8 bytes/,
  );
  assert.match(res.body.partialSuccess.errorMessage, /startTimeUnixNano is missing/);
  assert.equal((await callsOf(t, 'partial/p')).length, 1);
});

test('times: nanoseconds become exact microseconds from a protobuf Long, JSON text or a JSON number; past the year 9999 is rejected', async () => {
  const rec = record({ 'wandb.entity': 'times', 'wandb.project': 'p' }, (tracer) => {
    tracer.startSpan('exact', { startTime: [1_700_000_000, 123_456_789] }).end([1_700_000_001, 999_999_999]);
  });
  assert.equal((await postOtlp(t, rec.protobuf)).status, 200);
  const [fromProto] = await callsOf(t, 'times/p');
  assert.equal(fromProto.started_at, '2023-11-14T22:13:20.123456Z');
  assert.equal(fromProto.ended_at, '2023-11-14T22:13:21.999999Z');

  const body = JSON.parse(rec.json.toString());
  const [span] = body.resourceSpans[0].scopeSpans[0].spans;
  body.resourceSpans[0].resource.attributes = [{ key: 'wandb.project', value: { stringValue: 'times/json' } }];
  const late = {
    ...span,
    spanId: 'aaaaaaaaaaaaaaaa',
    name: 'late',
    startTimeUnixNano: '253402300800000000000',
    endTimeUnixNano: '253402300800000000001',
  };
  const number = {
    ...span,
    spanId: 'bbbbbbbbbbbbbbbb',
    name: 'number',
    startTimeUnixNano: 1_700_000_000_123_456_000,
    endTimeUnixNano: 1_700_000_000_123_457_000,
  };
  body.resourceSpans[0].scopeSpans[0].spans = [span, late, number];
  const res = await postOtlp(t, Buffer.from(JSON.stringify(body)), { type: 'application/json' });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.partialSuccess.rejectedSpans, '1');
  assert.match(res.body.partialSuccess.errorMessage, /name="late".*startTimeUnixNano is after the year 9999/);
  const byName = new Map((await callsOf(t, 'times/json')).map((c) => [c.op_name, c]));
  assert.deepEqual([...byName.keys()].sort(), ['exact', 'number']);
  assert.equal(byName.get('exact').started_at, fromProto.started_at);
  assert.equal(byName.get('exact').ended_at, fromProto.ended_at);
  assert.equal(byName.get('number').started_at, '2023-11-14T22:13:20.123456Z');
  assert.equal(byName.get('number').ended_at, '2023-11-14T22:13:20.123457Z');
});

test('a string with invalid UTF-8 is kept with U+FFFD in its place, in protobuf as in JSON (not a 400 for the export)', async () => {
  const rec = record({ 'wandb.entity': 'utf8', 'wandb.project': 'p' }, (tracer) => {
    tracer.startSpan('bytes', { attributes: { note: 'abc<X>def' } }).end();
  });
  const broken = (body: Buffer) => {
    const at = body.indexOf('<X>');
    assert.ok(at > 0);
    const out = Buffer.from(body);
    out[at + 1] = 0xff; // never valid in UTF-8
    return out;
  };
  assert.equal((await postOtlp(t, broken(rec.protobuf))).status, 200);
  const json = broken(rec.json);
  const res = await postOtlp(t, json, { type: 'application/json', headers: { project_id: 'utf8/json' } });
  assert.equal(res.status, 200, res.text);
  for (const project of ['utf8/p', 'utf8/json']) {
    const [call] = await callsOf(t, project);
    assert.equal(call.attributes.otel_span.attributes.note, 'abc<\uFFFD>def', project);
  }
});

test('the protobuf answer carries partial_success when spans were rejected', async () => {
  const none = record({ 'wandb.entity': 'pp', 'wandb.project': 'p' }, (tracer) => {
    tracer.startSpan('fine').end();
    tracer.startSpan('late').end();
  });
  // A span id of all zeros is invalid in OTLP: flip one span's id in the wire bytes.
  const spanId = Buffer.from(none.ids.get('late')!.spanId, 'hex');
  const at = none.protobuf.indexOf(spanId);
  assert.ok(at > 0);
  const body = Buffer.from(none.protobuf);
  body.fill(0, at, at + 8);
  const res = await postOtlp(t, body);
  assert.equal(res.status, 200, res.text);
  const decoded = ProtobufTraceSerializer.deserializeResponse(Buffer.from(res.text, 'latin1')) as {
    partialSuccess?: { rejectedSpans?: unknown; errorMessage?: string };
  };
  assert.equal(Number(decoded.partialSuccess?.rejectedSpans), 1);
  assert.match(decoded.partialSuccess?.errorMessage ?? '', /spanId is all zeros/);
  assert.deepEqual(
    (await callsOf(t, 'pp/p')).map((c) => c.op_name),
    ['fine'],
  );
});

test('re-sent spans (exporter retries) are idempotent', async () => {
  const rec = agent('retry/p');
  assert.equal((await postOtlp(t, rec.protobuf)).status, 200);
  const first = await callsOf(t, 'retry/p');
  for (let i = 0; i < 3; i++)
    assert.equal(
      (await postOtlp(t, i % 2 ? rec.json : rec.protobuf, { type: i % 2 ? 'application/json' : PROTOBUF })).status,
      200,
    );
  assert.deepEqual(await callsOf(t, 'retry/p'), first);
  assert.equal((await t.post('/calls/query_stats', { project_id: 'retry/p' })).body.count, 3);
});

test('a span whose parent arrives later, in another request, joins its tree', async () => {
  const rec = agent('late/p');
  const body = JSON.parse(rec.json.toString());
  const spans: any[] = body.resourceSpans[0].scopeSpans[0].spans;
  const rootAt = spans.findIndex((s) => s.name === 'agent.run');
  const [root] = spans.splice(rootAt, 1);
  assert.equal((await postOtlp(t, Buffer.from(JSON.stringify(body)), { type: 'application/json' })).status, 200);
  const roots = async () => (await callsOf(t, 'late/p', { filter: { trace_roots_only: true } })).map((c) => c.op_name);
  assert.deepEqual(await roots(), []);
  body.resourceSpans[0].scopeSpans[0].spans = [root];
  assert.equal((await postOtlp(t, Buffer.from(JSON.stringify(body)), { type: 'application/json' })).status, 200);
  assert.deepEqual(await roots(), ['agent.run']);
  const children = await callsOf(t, 'late/p', { filter: { parent_ids: [root.spanId] } });
  assert.deepEqual(children.map((c) => c.op_name).sort(), ['chat gpt-4o', 'tool search']);
  const tree = await t.post('/ui/api/trace_tree', { project_id: 'late/p', trace_id: root.traceId });
  assert.equal(tree.status, 200, tree.text);
});

test('with keys: a writer exports to its project (Authorization or wandb-api-key); elsewhere 403, none 401, nothing stored', async () => {
  const keyed = await startTestApp({
    keys: [
      { user: 'writer', entity: 'team', role: 'writer' },
      { user: 'reader', entity: 'team', role: 'reader' },
      { user: 'other', entity: 'elsewhere', role: 'reader' },
    ],
  });
  try {
    const [writer, reader, other] = keyed.keys;
    const basic = (key: string) => ({ authorization: `Basic ${Buffer.from(`api:${key}`).toString('base64')}` });
    const rec = agent('team/app');
    assert.equal((await postOtlp(keyed, rec.protobuf, { headers: basic(writer!.key) })).status, 200);
    assert.equal(
      (await postOtlp(keyed, rec.protobuf, { headers: { project_id: 'team/other', 'wandb-api-key': writer!.key } }))
        .status,
      200,
    );
    const denied = await postOtlp(keyed, rec.protobuf, {
      headers: { project_id: 'elsewhere/app', ...basic(writer!.key) },
    });
    assert.equal(denied.status, 403);
    assert.match(denied.body.reason, /No write access to project elsewhere\/app/);
    assert.equal(
      (await postOtlp(keyed, rec.protobuf, { headers: { project_id: 'team/ro', ...basic(reader!.key) } })).status,
      403,
    );
    // One resource of a request the key may not write refuses the whole request.
    const mixed = JSON.parse(rec.json.toString());
    mixed.resourceSpans.push({
      ...mixed.resourceSpans[0],
      resource: { attributes: [{ key: 'wandb.project', value: { stringValue: 'elsewhere/x' } }] },
    });
    assert.equal(
      (
        await postOtlp(keyed, Buffer.from(JSON.stringify(mixed)), {
          type: 'application/json',
          headers: basic(writer!.key),
        })
      ).status,
      403,
    );
    const empty = Buffer.from('{"resourceSpans":[]}');
    assert.equal(
      (
        await postOtlp(keyed, empty, {
          type: 'application/json',
          headers: { project_id: 'elsewhere/app', ...basic(writer!.key) },
        })
      ).status,
      403,
    );
    assert.equal(
      (
        await postOtlp(keyed, empty, {
          type: 'application/json',
          headers: { project_id: 'team/app', ...basic(writer!.key) },
        })
      ).status,
      200,
    );
    assert.equal((await postOtlp(keyed, rec.protobuf)).status, 401);
    assert.equal((await postOtlp(keyed, rec.protobuf, { headers: { 'wandb-api-key': 'not-a-key' } })).status, 401);
    const count = async (p: string, key = writer!.key) =>
      (await keyed.post('/calls/query_stats', { project_id: p }, { authorization: `Bearer ${key}` })).body.count;
    assert.equal(await count('team/app'), 3);
    assert.equal(await count('team/other'), 3);
    assert.equal(await count('team/ro'), 0);
    assert.equal(await count('elsewhere/app', other!.key), 0);
    assert.equal(await count('elsewhere/x', other!.key), 0);
  } finally {
    await keyed.close();
  }
});

test('OpenAPI documents the export route with both encodings', async () => {
  const doc = (await t.get('/openapi.json')).body;
  const op = doc.paths['/otel/v1/traces'].post;
  assert.deepEqual(Object.keys(op.requestBody.content).sort(), ['application/json', 'application/x-protobuf']);
  assert.ok(op.responses['415']);
});
