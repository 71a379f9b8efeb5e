// Span content sent as JSON text (OpenInference's input.value / output.value, Traceloop's
// entity input / output, the Vercel AI SDK's ai.prompt), through HTTP: text already in the
// form JSON.stringify writes is stored as it came; text in any other form (a Python
// sender's separators, \u escapes, 1.0, repeated keys, keys of digits, a lone surrogate) is
// stored as JSON.stringify writes its value. Either way the stored bytes, the answers' text
// and the filters on those fields are the same as for the value sent by an SDK.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { postOtlp, PROTOBUF, record } from './helpers/otlp.js';

const PROJECT = 'json-text/spans';
const ON_CLICKHOUSE = process.env.WEFT_TEST_ENGINE === 'clickhouse';

/** [span name, input.value text, output.value text]. */
const CASES: [string, string, string][] = [
  [
    'stored',
    '{"q":"café","n":3,"deep":{"list":[1,2.5,-0.25,1e+21,true,null]},"esc":"tab\\tq\\"\\\\\\u0001"}',
    '{"answer":"Paris","score":0.75}',
  ],
  ['python', '{"q": "caf\\u00e9", "n": 3}', '[1.0, 2, {"ok": true}]'],
  ['repeated', '{"q":"first","n":1,"q":"last"}', '{"a":1,"a":2}'],
  ['digits', '{"b":1,"10":2,"2":3}', '{"z":0,"0":"zero"}'],
  ['numbers', '{"big":12345678901234567890,"e":1E3,"neg":-0,"frac":0.50}', '[1e-7,100000000000000000000]'],
  ['escapes', '{"slash":"a\\/b","pair":"\\ud83d\\ude00","ctl":"\\u000A"}', '"plain text"'],
  ['lone', '{"lone":"x\\ud800y","k":"v"}', '{}'],
  ['list input', '[1,"two",{"three":3}]', '[]'],
  ['ref', '{"model":"weave:///json-text/spans/object/m:abc"}', '{"used":"weave:///json-text/spans/object/ds:def"}'],
];

/** What an SDK sending the parsed value stores: JSON.stringify of it (inputs that are not objects under "input"). */
const storedInputs = (text: string) => {
  const v = JSON.parse(text);
  return JSON.stringify(v !== null && typeof v === 'object' && !Array.isArray(v) ? v : { input: v });
};

let t: TestApp;
const lines = new Map<string, string>();
before(async () => {
  t = await startTestApp();
  const rec = record({ 'service.name': 'json-text' }, (tracer) => {
    for (const [name, input, output] of CASES) {
      const s = tracer.startSpan(name, {
        attributes: {
          'input.value': input,
          'input.mime_type': 'application/json',
          'output.value': output,
          'output.mime_type': 'application/json',
        },
      });
      s.end();
    }
  });
  const res = await postOtlp(t, rec.protobuf, { type: PROTOBUF, headers: { project_id: PROJECT } });
  assert.equal(res.status, 200, res.text);
  const q = await t.post('/calls/stream_query', { project_id: PROJECT });
  assert.equal(q.status, 200, q.text);
  for (const line of q.text.split('\n').filter(Boolean)) lines.set(JSON.parse(line).op_name, line);
  assert.equal(lines.size, CASES.length);
});
after(() => t.close());

test('inputs and output are stored as JSON.stringify writes their value, byte for byte, whatever form the text came in', () => {
  for (const [name, input, output] of CASES) {
    const line = lines.get(name)!;
    assert.ok(line.includes(`"inputs":${storedInputs(input)},"ended_at"`), `${name}: ${line}`);
    // A string output.value that is not an object or list stays the text it is.
    const out =
      output.startsWith('{') || output.startsWith('[') ? JSON.stringify(JSON.parse(output)) : JSON.stringify(output);
    assert.ok(line.includes(`"output":${out},"summary"`), `${name}: ${line}`);
  }
  // Text already in that form is kept as it came.
  assert.ok(lines.get('stored')!.includes(`"inputs":${CASES[0]![1]}`));
});

test('filters see the value: the last of repeated keys, decoded escapes, numbers by value', async () => {
  const ids = async (expr: unknown) => {
    const r = await t.post('/calls/stream_query', { project_id: PROJECT, query: { $expr: expr } });
    assert.equal(r.status, 200, r.text);
    return r.text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).op_name)
      .sort();
  };
  const eq = (field: string, literal: unknown) => ({ $eq: [{ $getField: field }, { $literal: literal }] });
  assert.deepEqual(await ids(eq('inputs.q', 'last')), ['repeated']);
  assert.deepEqual(await ids(eq('inputs.q', 'first')), []);
  assert.deepEqual(await ids(eq('inputs.q', 'café')), ['python', 'stored']);
  assert.deepEqual(await ids(eq('inputs.slash', 'a/b')), ['escapes']);
  assert.deepEqual(await ids(eq('inputs.pair', '😀')), ['escapes']);
  assert.deepEqual(await ids({ $contains: { input: { $getField: 'inputs.esc' }, substr: { $literal: 'q"\\' } } }), [
    'stored',
  ]);
  assert.deepEqual(
    await ids({ $gte: [{ $convert: { input: { $getField: 'inputs.e' }, to: 'double' } }, { $literal: 1000 }] }),
    ['numbers'],
  );
  assert.deepEqual(
    await ids({ $eq: [{ $convert: { input: { $getField: 'inputs.n' }, to: 'double' } }, { $literal: 3 }] }),
    ['python', 'stored'],
  );
  assert.deepEqual(await ids(eq('inputs.ctl', '\n')), ['escapes']);
  // A lone surrogate is kept as its escape; ClickHouse cannot read such a document (docs/clickhouse.md).
  assert.deepEqual(await ids(eq('inputs.k', 'v')), ON_CLICKHOUSE ? [] : ['lone']);
});

test('refs inside JSON text are found, stored form or not', async () => {
  const r = await t.post('/calls/stream_query', {
    project_id: PROJECT,
    filter: { input_refs: [`weave:///${PROJECT}/object/m:abc`], output_refs: [`weave:///${PROJECT}/object/ds:def`] },
  });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(
    r.text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).op_name),
    ['ref'],
  );
});
