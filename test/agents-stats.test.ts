// /agents/spans/stats through HTTP: rows per time bucket (every bucket, empty ones 0 or null),
// per kept group, aggregations and exact percentiles over fields, derived figures and custom
// attributes, buckets aligned to the time zone, and Weave's validation as 4xx.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { hexId, otlpJson, type TestSpan } from './helpers/agent-spans.js';

let t: TestApp;
const NAME = `stats-${hexId(4)}`;
const PROJECT = `acme/${NAME}`;
const DAY1 = Date.UTC(2026, 10, 1);
const H = 3_600_000;

/** An agent turn at `at`: invoke_agent, a model call (custom attributes), a tool. */
function turn(agent: string, at: number, o: { tokens: [number, number]; ms: number; score: number; error?: boolean }) {
  const traceId = hexId(16);
  const root = hexId(8);
  const spans: TestSpan[] = [
    {
      traceId,
      spanId: root,
      name: `invoke_agent ${agent}`,
      startMs: at,
      endMs: at + 1000,
      status: o.error ? 2 : 1,
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': agent },
    },
    {
      traceId,
      spanId: hexId(8),
      parentSpanId: root,
      name: 'chat',
      startMs: at + 10,
      endMs: at + 10 + o.ms,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': o.tokens[0],
        'gen_ai.usage.output_tokens': o.tokens[1],
        'app.score': o.score,
        'app.cached': o.score > 5,
      },
    },
    {
      traceId,
      spanId: hexId(8),
      parentSpanId: root,
      name: 'execute_tool lookup',
      startMs: at + 500,
      endMs: at + 600,
      attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup' },
    },
  ];
  return spans;
}

before(async () => {
  t = await startTestApp();
  const spans = [
    ...turn('alpha', DAY1 + 10 * H, { tokens: [100, 10], ms: 400, score: 3 }),
    ...turn('alpha', DAY1 + 11 * H, { tokens: [300, 30], ms: 200, score: 7 }),
    ...turn('beta', DAY1 + 24 * H + 10 * H, { tokens: [50, 5], ms: 100, score: 9, error: true }),
  ];
  const r = await t.postRaw(
    '/agents/otel/v1/traces',
    otlpJson({ 'wandb.entity': 'acme', 'wandb.project': NAME }, spans),
    'application/json',
  );
  assert.equal(r.status, 200, r.text);
});
after(async () => {
  await t.close();
});

const iso = (ms: number) => new Date(ms).toISOString();
async function stats(body: Record<string, unknown>) {
  const r = await t.post('/agents/spans/stats', { project_id: PROJECT, ...body });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

test('one row per bucket: counts, sums, exact percentiles, derived figures; empty buckets 0 or null', async () => {
  const r = await stats({
    start: iso(DAY1),
    end: iso(DAY1 + 72 * H),
    granularity: 86_400,
    metrics: [
      {
        alias: 'spans',
        value_type: 'boolean',
        value: { source: 'derived', key: 'is_invocation' },
        aggregations: ['count', 'count_true'],
      },
      { alias: 'tokens', value_type: 'number', value: { source: 'derived', key: 'total_tokens' } },
      {
        alias: 'latency',
        value_type: 'number',
        value: { source: 'derived', key: 'duration_ms' },
        aggregations: ['max'],
        percentiles: [50, 90],
      },
      {
        alias: 'errors',
        value_type: 'boolean',
        value: { source: 'derived', key: 'is_error' },
        aggregations: ['count_true'],
      },
      { alias: 'first', value_type: 'datetime', value: { key: 'started_at' }, aggregations: ['min'] },
      {
        alias: 'input',
        value_type: 'number',
        value: { key: 'gen_ai.usage.input_tokens' },
        aggregations: ['avg', 'count'],
      },
    ],
  });
  assert.equal(r.granularity, 86_400);
  assert.equal(r.bucket_type, 'time');
  assert.deepEqual(
    r.columns.map((c: { name: string; role: string; value_type: string; aggregation: string | null }) => [
      c.name,
      c.role,
      c.value_type,
      c.aggregation,
    ]),
    [
      ['timestamp', 'time', 'datetime', null],
      ['count_spans', 'metric', 'number', 'count'],
      ['count_true_spans', 'metric', 'number', 'count_true'],
      ['sum_tokens', 'metric', 'number', 'sum'],
      ['max_latency', 'metric', 'number', 'max'],
      ['p50_latency', 'metric', 'number', 'p50'],
      ['p90_latency', 'metric', 'number', 'p90'],
      ['count_true_errors', 'metric', 'number', 'count_true'],
      ['min_first', 'metric', 'datetime', 'min'],
      ['avg_input', 'metric', 'number', 'avg'],
      ['count_input', 'metric', 'number', 'count'],
    ],
  );
  assert.deepEqual(r.rows, [
    {
      timestamp: iso(DAY1),
      count_spans: 6,
      count_true_spans: 2,
      sum_tokens: 440,
      max_latency: 1000,
      // durations 1000, 400, 100, 1000, 200, 100: sorted 100 100 200 400 1000 1000
      p50_latency: 300,
      p90_latency: 1000,
      count_true_errors: 0,
      min_first: iso(DAY1 + 10 * H),
      avg_input: 200,
      count_input: 2,
    },
    {
      timestamp: iso(DAY1 + 24 * H),
      count_spans: 3,
      count_true_spans: 1,
      sum_tokens: 55,
      max_latency: 1000,
      p50_latency: 100,
      p90_latency: 820,
      count_true_errors: 1,
      min_first: iso(DAY1 + 34 * H),
      avg_input: 50,
      count_input: 1,
    },
    {
      timestamp: iso(DAY1 + 48 * H),
      count_spans: 0,
      count_true_spans: 0,
      sum_tokens: 0,
      max_latency: null,
      p50_latency: null,
      p90_latency: null,
      count_true_errors: 0,
      min_first: null,
      avg_input: 0,
      count_input: 0,
    },
  ]);
});

test('groups: the top groups by span count, every bucket each; custom attributes; filters', async () => {
  const r = await stats({
    start: iso(DAY1),
    end: iso(DAY1 + 48 * H),
    granularity: 86_400,
    group_by: [{ key: 'owner_agent_name', alias: 'agent' }],
    metrics: [
      {
        alias: 'score',
        value_type: 'number',
        value: { source: 'custom_attrs_int', key: 'app.score' },
        aggregations: ['avg', 'count'],
      },
      {
        alias: 'cached',
        value_type: 'boolean',
        value: { source: 'custom_attrs_bool', key: 'app.cached' },
        aggregations: ['count_true', 'count_false'],
      },
    ],
  });
  assert.deepEqual(r.columns[1], {
    name: 'agent',
    role: 'group',
    value_type: 'string',
    metric: null,
    aggregation: null,
  });
  assert.deepEqual(
    r.rows.map((x: Record<string, unknown>) => [
      x.timestamp,
      x.agent,
      x.avg_score,
      x.count_score,
      x.count_true_cached,
      x.count_false_cached,
    ]),
    [
      [iso(DAY1), 'alpha', 5, 2, 1, 1],
      [iso(DAY1), 'beta', 0, 0, 0, 0],
      [iso(DAY1 + 24 * H), 'alpha', 0, 0, 0, 0],
      [iso(DAY1 + 24 * H), 'beta', 9, 1, 1, 0],
    ],
  );
  const top = await stats({
    start: iso(DAY1),
    end: iso(DAY1 + 48 * H),
    granularity: 172_800,
    group_by: [{ key: 'agent.name' }],
    group_limit: 1,
    query: { $expr: { $eq: [{ $getField: 'operation_name' }, { $literal: 'invoke_agent' }] } },
    metrics: [{ alias: 'n', value_type: 'string', value: { key: 'span_id' }, aggregations: ['count'] }],
  });
  assert.deepEqual(
    top.rows,
    [{ timestamp: iso(DAY1), agent_name: 'alpha', count_n: 2 }],
    'the alias defaults to the column',
  );
});

test('buckets start at local midnight in the time zone; granularity chosen from the range', async () => {
  const r = await stats({
    start: iso(DAY1),
    end: iso(DAY1 + 48 * H),
    granularity: 86_400,
    timezone: 'America/New_York',
    metrics: [
      { alias: 'x', value_type: 'boolean', value: { source: 'derived', key: 'is_error' }, aggregations: ['count'] },
    ],
  });
  assert.deepEqual(
    r.rows.map((x: Record<string, unknown>) => [x.timestamp, x.count_x]),
    [
      [iso(DAY1 - 20 * H), 0],
      [iso(DAY1 + 4 * H), 6],
      [iso(DAY1 + 28 * H), 3],
    ],
    'November 1st in New York is UTC-4 until 2 am, and the buckets are 24 h wide from the offset at start',
  );
  const whole = await stats({
    start: iso(DAY1 + 10 * H + 1),
    end: iso(DAY1 + 40 * H),
    granularity: 30 * 3600,
    metrics: [{ alias: 'x', value_type: 'boolean', value: { source: 'derived', key: 'is_error' } }],
  });
  assert.deepEqual(
    whole.rows,
    [{ timestamp: iso(DAY1 + 10 * H + 1), count_x: 8 }],
    'a granularity covering the range is one bucket from start',
  );
  const auto = await stats({
    start: iso(DAY1 + 10 * H),
    end: iso(DAY1 + 11 * H),
    metrics: [{ alias: 'x', value_type: 'boolean', value: { source: 'derived', key: 'is_error' } }],
  });
  assert.equal(auto.granularity, 300);
  assert.equal(auto.rows.length, 12);
  assert.equal(auto.rows[0].count_x, 3);
});

test('mistakes answer 4xx with what is wrong', async () => {
  const m = { alias: 'x', value_type: 'number', value: { source: 'derived', key: 'duration_ms' } };
  const base = { project_id: PROJECT, start: iso(DAY1), end: iso(DAY1 + H), metrics: [m] };
  const bad = async (body: unknown, status: number, pattern: RegExp) => {
    const r = await t.post('/agents/spans/stats', body);
    assert.equal(r.status, status, r.text);
    assert.match(JSON.stringify(r.body), pattern);
  };
  await bad({ ...base, metrics: [] }, 400, /at least one metric/);
  await bad({ ...base, metrics: [m, m] }, 400, /duplicate metric aliases: x/);
  await bad({ ...base, metrics: [{ ...m, value_type: 'string' }] }, 400, /value_type number, not string/);
  await bad({ ...base, metrics: [{ ...m, aggregations: ['count_true'] }] }, 400, /count_true not valid for number/);
  await bad(
    { ...base, metrics: [{ alias: 's', value_type: 'string', value: { key: 'span_name' }, percentiles: [50] }] },
    400,
    /percentiles are only valid for number/,
  );
  await bad({ ...base, metrics: [{ ...m, value: { source: 'derived', key: 'speed' } }] }, 400, /unknown derived/);
  await bad({ ...base, metrics: [{ ...m, value: { key: 'no_such_field' } }] }, 422, /no_such_field/);
  await bad({ ...base, end: iso(DAY1 - H) }, 400, /end must be after start/);
  await bad({ ...base, end: iso(DAY1 + 32 * 24 * H), group_by: [{ key: 'agent_name' }] }, 400, /31 days/);
  await bad({ ...base, timezone: 'Mars/Olympus' }, 400, /unknown time zone/);
  await bad({ ...base, group_filters: [{}] }, 422, /measure/);
  await bad({ ...base, bucket_by: { type: 'number' } }, 400, /exactly one of value or group_by\/measure/);
  await bad({ ...base, metrics: [{ ...m, alias: 'not an alias' }] }, 422, /alias/);
  await bad({ project_id: PROJECT, metrics: [m] }, 422, /start/);
  const raw = await t.postRaw('/agents/spans/stats', '{"project_id":', 'application/json');
  assert.equal(raw.status, 400, raw.text);
});
