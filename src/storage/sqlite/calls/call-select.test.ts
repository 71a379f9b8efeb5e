// Behaviour of the calls SQL on a real in-memory SQLite database: every operator,
// cast, filter field, wildcard, computed and feedback field, sort and paging picks
// exactly the expected calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { CALLS_SCHEMA_V1 } from '../engine/migrations/001-calls-objects-feedback.js';
import { CALLS_LIVE_INDEXES_V5 } from '../engine/migrations/005-call-live-indexes.js';
import { CALLS_KEYS_V8 } from '../engine/migrations/008-call-keys-v8.js';
import { CALLS_KEYS_V9 } from '../engine/migrations/009-call-keys.js';
import { CALL_IDS_V10 } from '../engine/migrations/010-call-ids.js';
import { buildCallsCount, buildCallsSelect } from './call-select.js';
import { compileCallsQuery, type CallsQueryInput } from '../../../query/compile-calls-query.js';

const P = 'e/p';
const BASE = Date.UTC(2024, 0, 1) * 1000; // micros
const at = (seconds: number) => BASE + Math.round(seconds * 1_000_000);
const iso = (seconds: number) => new Date(at(seconds) / 1000).toISOString();

interface Row {
  id: string;
  project_id?: string;
  trace_id?: string | null;
  parent_id?: string | null;
  op_name?: string | null;
  display_name?: string | null;
  started_at?: number | null;
  ended_at?: number | null;
  exception?: string | null;
  inputs?: unknown;
  output?: unknown;
  summary?: unknown;
  attributes?: unknown;
  input_refs?: string[];
  output_refs?: string[];
  wb_user_id?: string;
  wb_run_id?: string;
  thread_id?: string;
  turn_id?: string;
  wb_run_step?: number;
  wb_run_step_end?: number;
  deleted_at?: number;
  start_bytes?: number;
  end_bytes?: number;
}

const predict = (digest: string) => `weave:///e/p/op/predict:${digest}`;
const ended = (start: number, ms: number) => ({ started_at: at(start), ended_at: at(start) + ms * 1000 });

const ROWS: Row[] = [
  {
    id: 'c01',
    trace_id: 't1',
    op_name: predict('abc'),
    ...ended(1, 500),
    inputs: { s: 'hello', n: 5, f: 2.5, b: true, z: null, o: { k: 'v', deep: { x: 1 } }, l: [1, 'two', 3] },
    output: { answer: 'Yes' },
    summary: { usage: { m: { requests: 1 } } },
    attributes: { env: 'prod' },
    input_refs: ['weave:///e/p/object/ds:v1'],
    wb_user_id: 'u1',
    wb_run_id: 'r1',
    thread_id: 'th1',
    turn_id: 'tu1',
    wb_run_step: 1,
    start_bytes: 100,
    end_bytes: 50,
  },
  {
    id: 'c02',
    trace_id: 't1',
    parent_id: 'c01',
    op_name: 'weave:///e/p/op/score:def',
    display_name: 'My Score',
    ...ended(2, 250),
    inputs: { s: 'Hello World', n: 10, b: false, l: [4] },
    output: 0.9,
    summary: {},
    input_refs: ['weave:///e/p/object/ds:v2'],
    wb_user_id: 'u2',
    wb_run_id: 'r1',
    thread_id: 'th1',
    turn_id: 'tu2',
    start_bytes: 10,
    end_bytes: 20,
  },
  {
    id: 'c03',
    trace_id: 't2',
    op_name: predict('xyz'),
    started_at: at(3),
    inputs: { s: 'abc', n: '7', b: 'true', z: 'set' },
    wb_user_id: 'u1',
    wb_run_id: 'e/p/r2',
    start_bytes: 40,
  },
  {
    id: 'c04',
    trace_id: 't3',
    op_name: 'plain_op',
    display_name: '',
    ...ended(4, 1),
    exception: 'ValueError: boom',
    inputs: { n: -1, b: 'false', s: '' },
    output: null,
    summary: {},
    wb_user_id: 'u2',
    start_bytes: 7,
    end_bytes: 3,
  },
  {
    id: 'c05',
    trace_id: 't3',
    parent_id: 'c04',
    op_name: predict('abc'),
    ...ended(5, 2000),
    inputs: {},
    output: { answer: 'No' },
    summary: { status_counts: { error: 1, success: 0 } },
    output_refs: ['weave:///e/p/object/model:v2'],
    start_bytes: 5,
    end_bytes: 5,
  },
  {
    id: 'c06',
    trace_id: 't4',
    op_name: 'weave:///e/p/op/other:111',
    ...ended(6, 1000.999),
    inputs: '{"n":5.0,"list":[{"a":1},{"a":2}]}',
    attributes: { env: 'dev' },
    summary: { status_counts: { error: 0 } },
    wb_run_step: 3,
    wb_run_step_end: 4,
    start_bytes: 1,
    end_bytes: 1,
  },
  { id: 'c07', trace_id: 't5', op_name: predict('abc'), ...ended(7, 3000), inputs: { s: 'HELLO' } },
  { id: 'c08', trace_id: 't6', op_name: 'other', started_at: at(7), ended_at: at(8), inputs: { s: '% wildcard _' } },
  // Invisible: deleted, never started (an end part only), another project.
  {
    id: 'dl',
    trace_id: 't1',
    parent_id: 'c01',
    op_name: predict('abc'),
    started_at: at(1.5),
    deleted_at: at(9),
    inputs: { s: 'hello' },
    start_bytes: 1000,
  },
  { id: 'ns', ended_at: at(2), output: 1, summary: {} },
  {
    id: 'ot',
    project_id: 'e/other',
    trace_id: 't1',
    op_name: predict('abc'),
    started_at: at(1),
    inputs: { s: 'hello' },
  },
];
const ALL = ['c01', 'c02', 'c03', 'c04', 'c05', 'c06', 'c07', 'c08'];

const FEEDBACK: [string, string, string, unknown, number, string | null][] = [
  // project, call id, type, payload, created_at (s), runnable_ref
  [P, 'c01', 'wandb.reaction.1', { emoji: '👍' }, 1, null],
  [P, 'c01', 'wandb.note.1', { note: 'nice' }, 2, null],
  [P, 'c02', 'wandb.runnable.scorer', { output: { score: 0.8 } }, 3, 'weave:///e/p/op/scorer:1'],
  [P, 'c03', 'wandb.runnable.scorer', { output: { score: 0.3 } }, 4, 'weave:///e/p/op/scorer:1'],
  [P, 'c03', 'wandb.runnable.scorer', { output: { score: 0.6 } }, 5, 'weave:///e/p/op/scorer:1'],
  ['e/other', 'c04', 'wandb.reaction.1', { emoji: '👍' }, 6, null],
];

function openDb(): Database.Database {
  const db = new Database(':memory:');
  db.exec(CALLS_SCHEMA_V1 + CALLS_LIVE_INDEXES_V5 + CALLS_KEYS_V8 + CALLS_KEYS_V9);
  // The columns of the feedback table the calls SQL reads (its real schema is the feedback engine's).
  db.exec(`CREATE TABLE feedback (id TEXT, project_id TEXT, weave_ref TEXT, wb_user_id TEXT, creator TEXT, created_at INTEGER,
    feedback_type TEXT, payload TEXT, annotation_ref TEXT, runnable_ref TEXT, call_ref TEXT, trigger_ref TEXT)`);
  const json = (v: unknown) => (v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));
  const ins =
    db.prepare(`INSERT INTO calls (project_id, id, trace_id, parent_id, thread_id, turn_id, op_name, display_name,
    started_at, ended_at, attributes, inputs, output, exception, summary, input_refs, output_refs, wb_user_id, wb_run_id,
    wb_run_step, wb_run_step_end, deleted_at, start_bytes, end_bytes) VALUES (${Array(24).fill('?').join(', ')})`);
  for (const r of ROWS) {
    ins.run(
      r.project_id ?? P,
      r.id,
      r.trace_id ?? null,
      r.parent_id ?? null,
      r.thread_id ?? null,
      r.turn_id ?? null,
      r.op_name ?? null,
      r.display_name ?? null,
      r.started_at ?? null,
      r.ended_at ?? null,
      json(r.attributes ?? {}),
      json(r.inputs ?? {}),
      r.ended_at === undefined ? null : json(r.output ?? null),
      r.exception ?? null,
      json(r.summary),
      JSON.stringify(r.input_refs ?? []),
      JSON.stringify(r.output_refs ?? []),
      r.wb_user_id ?? null,
      r.wb_run_id ?? null,
      r.wb_run_step ?? null,
      r.wb_run_step_end ?? null,
      r.deleted_at ?? null,
      r.start_bytes ?? 0,
      r.end_bytes ?? 0,
    );
  }
  db.exec(CALL_IDS_V10); // after the rows: the migration keys the calls already there
  const fb = db.prepare(
    'INSERT INTO feedback (id, project_id, weave_ref, wb_user_id, created_at, feedback_type, payload, runnable_ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  FEEDBACK.forEach(([project, call, type, payload, t, runnable], i) => {
    fb.run(`fb${i}`, project, `weave:///${project}/call/${call}`, 'u1', at(t), type, JSON.stringify(payload), runnable);
  });
  return db;
}

const db = openDb();
const rows = (req: Omit<CallsQueryInput, 'project_id'> & { project_id?: string }) => {
  const { sql, params } = buildCallsSelect(compileCallsQuery({ project_id: P, ...req }));
  return db.prepare(sql).all(...params) as Record<string, unknown>[];
};
const ids = (req: Omit<CallsQueryInput, 'project_id'>) => rows(req).map((r) => r.id);
const where = ($expr: Record<string, unknown>) => ids({ query: { $expr } });
const f = (name: string) => ({ $getField: name });
const l = (value: unknown) => ({ $literal: value });
const eq = (name: string, value: unknown) => where({ $eq: [f(name), l(value)] });
const without = (...out: string[]) => ALL.filter((id) => !out.includes(id));

test('only live calls of the project, in started_at order with an id tiebreak', () => {
  assert.deepEqual(ids({}), ALL);
  assert.deepEqual(
    rows({ project_id: 'e/other' }).map((r) => r.id),
    ['ot'],
  );
});

test('comparisons on dynamic fields follow JSON_VALUE, with inferred casts', () => {
  assert.deepEqual(eq('inputs.s', 'hello'), ['c01']);
  assert.deepEqual(where({ $gt: [f('inputs.n'), l(4)] }), ['c01', 'c02', 'c03', 'c06']);
  assert.deepEqual(where({ $lte: [l(5), f('inputs.n')] }), ['c01', 'c02', 'c03', 'c06']);
  assert.deepEqual(eq('inputs.n', 5), ['c01', 'c06']);
  assert.deepEqual(eq('inputs.n', '5'), ['c01', 'c06']);
  assert.deepEqual(where({ $lt: [f('inputs.n'), l(0)] }), ['c04']);
  assert.deepEqual(eq('inputs.b', true), ['c01', 'c03']);
  assert.deepEqual(eq('inputs.b', false), ['c02', 'c04']);
  assert.deepEqual(eq('inputs.o.deep.x', 1), ['c01']);
  assert.deepEqual(eq('inputs.l.1', 'two'), ['c01']);
  assert.deepEqual(eq('inputs.list.1.a', 2), ['c06']);
  assert.deepEqual(eq('inputs.o', '{"k":"v","deep":{"x":1}}'), ['c01']);
  assert.deepEqual(eq('inputs.s', ''), ['c04', 'c05', 'c06']);
  assert.deepEqual(eq('output.answer', 'Yes'), ['c01']);
  assert.deepEqual(eq('output', '0.9'), ['c02']);
  assert.deepEqual(eq('attributes.env', 'prod'), ['c01']);
  assert.deepEqual(eq('summary.usage.m.requests', 1), ['c01']);
  assert.deepEqual(where({ $in: [f('inputs.n'), [l(10), l(-1)]] }), ['c02', 'c04']);
  assert.deepEqual(where({ $in: [f('inputs.s'), [l('abc'), l('HELLO')]] }), ['c03', 'c07']);
});

test('explicit casts, exists and IS NULL', () => {
  const conv = (name: string, to: string) => ({ $convert: { input: f(name), to } });
  assert.deepEqual(where({ $eq: [conv('inputs.n', 'int'), l(7)] }), ['c03']);
  assert.deepEqual(where({ $eq: [conv('inputs.f', 'int'), l(2)] }), []);
  assert.deepEqual(where({ $gt: [conv('inputs.f', 'double'), l(2)] }), ['c01']);
  assert.deepEqual(where({ $eq: [conv('inputs.b', 'bool'), l(true)] }), ['c01', 'c03']);
  assert.deepEqual(where({ $eq: [conv('inputs.n', 'string'), l('7')] }), ['c03']);
  assert.deepEqual(where({ $eq: [conv('inputs.z', 'exists'), l(true)] }), ['c03']);
  assert.deepEqual(where({ $eq: [conv('inputs.s', 'exists'), l(false)] }), ['c05', 'c06']);
  assert.deepEqual(eq('inputs.z', null), without('c03'));
  assert.deepEqual(where({ $not: [{ $eq: [f('inputs.s'), l(null)] }] }), without('c05', 'c06'));
  assert.deepEqual(eq('parent_id', null), ['c01', 'c03', 'c04', 'c06', 'c07', 'c08']);
  assert.deepEqual(where({ $not: [{ $eq: [f('ended_at'), l(null)] }] }), without('c03'));
});

test('logic: NOT of a comparison with NULL excludes the row (as Weave); AND, OR, IN on columns', () => {
  // parent_id is NULL on roots: c05 is the only call with a parent other than c01.
  assert.deepEqual(where({ $not: [{ $eq: [f('parent_id'), l('c01')] }] }), ['c05']);
  // A missing JSON field compares as '', so its negation is true: rows without inputs.s come back.
  assert.ok(where({ $not: [{ $eq: [f('inputs.s'), l('hello')] }] }).includes('c05'));
  assert.deepEqual(where({ $and: [{ $eq: [f('trace_id'), l('t1')] }, { $eq: [f('wb_user_id'), l('u2')] }] }), ['c02']);
  assert.deepEqual(where({ $or: [{ $eq: [f('id'), l('c08')] }, { $eq: [f('thread_id'), l('th1')] }] }), [
    'c01',
    'c02',
    'c08',
  ]);
  assert.deepEqual(where({ $in: [f('op_name'), [l('plain_op'), l('other')]] }), ['c04', 'c08']);
  assert.deepEqual(where({ $gt: [f('wb_run_step'), l(2)] }), ['c06']);
  assert.deepEqual(where({ $eq: [f('id'), l("c01' OR 1=1 --")] }), []);
});

test('$contains: substring, case-sensitive unless asked, no LIKE wildcards', () => {
  const contains = (name: string, substr: string, ci?: boolean) =>
    where({ $contains: { input: f(name), substr: l(substr), ...(ci === undefined ? {} : { case_insensitive: ci }) } });
  assert.deepEqual(contains('inputs.s', 'hello'), ['c01']);
  assert.deepEqual(contains('inputs.s', 'hello', true), ['c01', 'c02', 'c07']);
  assert.deepEqual(contains('inputs.s', '%'), ['c08']);
  assert.deepEqual(contains('inputs.s', '_', true), ['c08']);
  assert.deepEqual(contains('op_name', '/op/predict:'), ['c01', 'c03', 'c05', 'c07']);
  assert.deepEqual(contains('display_name', 'score', true), ['c02']);
});

test('datetime columns compare with ISO strings and unix seconds', () => {
  assert.deepEqual(where({ $gt: [f('started_at'), l(iso(5))] }), ['c06', 'c07', 'c08']);
  assert.deepEqual(where({ $gte: [f('started_at'), l(at(5) / 1e6)] }), ['c05', 'c06', 'c07', 'c08']);
  assert.deepEqual(where({ $lt: [f('ended_at'), l(iso(2))] }), ['c01']);
  assert.deepEqual(where({ $eq: [f('started_at'), l('2024-01-01T00:00:07')] }), ['c07', 'c08']);
});

test('computed fields: status, latency_ms, trace_name', () => {
  assert.deepEqual(eq('summary.weave.status', 'running'), ['c03']);
  assert.deepEqual(eq('summary.weave.status', 'error'), ['c04']);
  assert.deepEqual(eq('summary.weave.status', 'descendant_error'), ['c05']);
  assert.deepEqual(eq('summary.weave.status', 'success'), ['c01', 'c02', 'c06', 'c07', 'c08']);
  assert.deepEqual(where({ $gt: [f('summary.weave.latency_ms'), l(999)] }), ['c05', 'c06', 'c07', 'c08']);
  assert.deepEqual(eq('summary.weave.latency_ms', 1000), ['c06', 'c08']);
  assert.deepEqual(eq('summary.weave.latency_ms', 1), ['c04']);
  assert.deepEqual(eq('summary.weave.trace_name', 'predict'), ['c01', 'c03', 'c05', 'c07']);
  assert.deepEqual(eq('summary.weave.trace_name', 'My Score'), ['c02']);
  assert.deepEqual(eq('summary.weave.trace_name', 'plain_op'), ['c04']);
  assert.deepEqual(eq('summary.weave.trace_name', 'other'), ['c06', 'c08']);
});

test('feedback fields: the most recent matching row of the call, by type or any', () => {
  const score = 'feedback.[wandb.runnable.scorer].payload.output.score';
  assert.deepEqual(where({ $gt: [f(score), l(0.5)] }), ['c02', 'c03']);
  assert.deepEqual(where({ $gt: [f(score), l(0.7)] }), ['c02']);
  assert.deepEqual(eq('feedback.[*].payload.emoji', '👍'), ['c01']);
  assert.deepEqual(eq('feedback.[wandb.reaction.1].payload.emoji', '👍'), ['c01']);
  assert.deepEqual(eq('feedback.[wandb.note.1].payload.emoji', '👍'), []);
  assert.deepEqual(where({ $eq: [{ $convert: { input: f('feedback.[*].payload.note'), to: 'exists' } }, l(true)] }), [
    'c01',
  ]);
  assert.deepEqual(eq('feedback.[*].runnable_ref', 'weave:///e/p/op/scorer:1'), ['c02', 'c03']);
  assert.deepEqual(eq('feedback.[*].payload', null), without('c01', 'c02', 'c03'));
  assert.deepEqual(eq('feedback.[*].runnable_ref', null), without('c02', 'c03'));
});

test('CallsFilter fields, wildcards and empty lists', () => {
  const filter = (filter: CallsQueryInput['filter']) => ids({ filter });
  assert.deepEqual(filter({ op_names: ['weave:///e/p/op/predict:*'] }), ['c01', 'c03', 'c05', 'c07']);
  assert.deepEqual(filter({ op_names: [predict('abc')] }), ['c01', 'c05', 'c07']);
  assert.deepEqual(filter({ op_names: ['plain_op', 'other', 'weave:///e/p/op/score:*'] }), ['c02', 'c04', 'c08']);
  const all = ['c01', 'c02', 'c03', 'c04', 'c05', 'c06', 'c07', 'c08'];
  assert.deepEqual(filter({ op_names: [] }), all, 'an empty list is no constraint');
  assert.deepEqual(filter({ input_refs: ['weave:///e/p/object/ds:v1'] }), ['c01']);
  assert.deepEqual(filter({ input_refs: ['weave:///e/p/object/ds:*'] }), ['c01', 'c02']);
  assert.deepEqual(filter({ input_refs: [] }), all);
  assert.deepEqual(filter({ output_refs: ['weave:///e/p/object/model:*'] }), ['c05']);
  assert.deepEqual(filter({ output_refs: ['weave:///e/p/object/model:v1'] }), []);
  assert.deepEqual(filter({ parent_ids: ['c01', 'c04'] }), ['c02', 'c05']);
  assert.deepEqual(filter({ trace_ids: ['t3'] }), ['c04', 'c05']);
  assert.deepEqual(filter({ call_ids: ['c03', 'dl', 'ns', 'ot'] }), ['c03']);
  assert.deepEqual(filter({ call_ids: [] }), all);
  assert.deepEqual(filter({ thread_ids: ['th1'] }), ['c01', 'c02']);
  assert.deepEqual(filter({ turn_ids: ['tu2'] }), ['c02']);
  assert.deepEqual(filter({ wb_user_ids: ['u2'] }), ['c02', 'c04']);
  assert.deepEqual(filter({ wb_run_ids: ['r1'] }), ['c01', 'c02']);
  assert.deepEqual(filter({ wb_run_ids: ['r2'] }), ['c03'], 'a bare run id also matches <entity>/<project>/<run id>');
  assert.deepEqual(filter({ trace_roots_only: true }), ['c01', 'c03', 'c04', 'c06', 'c07', 'c08']);
  assert.deepEqual(filter({ trace_roots_only: true, op_names: ['weave:///e/p/op/predict:*'], wb_user_ids: ['u1'] }), [
    'c01',
    'c03',
  ]);
  assert.deepEqual(
    ids({ filter: { trace_roots_only: true }, query: { $expr: { $eq: [f('summary.weave.status'), l('error')] } } }),
    ['c04'],
  );
});

test('sorting: dynamic fields by presence, number, text; NULLs last both ways; multi-key', () => {
  // Ties are broken by id in the direction of the last sort term.
  const sorted = (field: string, direction: 'asc' | 'desc') => ids({ sort_by: [{ field, direction }] });
  assert.deepEqual(sorted('inputs.n', 'asc'), ['c04', 'c01', 'c06', 'c03', 'c02', 'c05', 'c07', 'c08']);
  assert.deepEqual(sorted('inputs.n', 'desc'), ['c02', 'c03', 'c06', 'c01', 'c04', 'c08', 'c07', 'c05']);
  assert.deepEqual(sorted('inputs.s', 'asc'), ['c04', 'c08', 'c07', 'c02', 'c03', 'c01', 'c05', 'c06']);
  assert.deepEqual(sorted('display_name', 'asc'), ['c04', 'c02', 'c01', 'c03', 'c05', 'c06', 'c07', 'c08']);
  assert.deepEqual(sorted('display_name', 'desc'), ['c02', 'c04', 'c08', 'c07', 'c06', 'c05', 'c03', 'c01']);
  assert.deepEqual(sorted('ended_at', 'desc'), ['c07', 'c08', 'c06', 'c05', 'c04', 'c02', 'c01', 'c03']);
  assert.deepEqual(sorted('ended_at', 'asc'), ['c01', 'c02', 'c04', 'c05', 'c06', 'c08', 'c07', 'c03']);
  assert.deepEqual(sorted('summary.weave.latency_ms', 'asc'), ['c04', 'c02', 'c01', 'c06', 'c08', 'c05', 'c07', 'c03']);
  assert.deepEqual(sorted('started_at', 'desc'), ['c08', 'c07', 'c06', 'c05', 'c04', 'c03', 'c02', 'c01']);
  assert.deepEqual(sorted('feedback.[wandb.runnable.scorer].payload.output.score', 'desc'), [
    'c02',
    'c03',
    'c08',
    'c07',
    'c06',
    'c05',
    'c04',
    'c01',
  ]);
  assert.deepEqual(
    ids({
      sort_by: [
        { field: 'summary.weave.status', direction: 'desc' },
        { field: 'started_at', direction: 'desc' },
      ],
    }),
    ['c08', 'c07', 'c06', 'c02', 'c01', 'c03', 'c04', 'c05'],
  );
  assert.deepEqual([...ids({ sort_by: [] })].sort(), ALL);
});

test('limit and offset', () => {
  assert.deepEqual(ids({ limit: 3, offset: 2 }), ['c03', 'c04', 'c05']);
  assert.deepEqual(ids({ offset: 6 }), ['c07', 'c08']);
  assert.deepEqual(ids({ limit: 2 }), ['c01', 'c02']);
  assert.deepEqual(ids({ limit: 0 }), []);
  assert.deepEqual(
    ids({
      limit: 2,
      sort_by: [{ field: 'started_at', direction: 'desc' }],
      filter: { op_names: ['weave:///e/p/op/predict:*'] },
    }),
    ['c07', 'c05'],
  );
});

test('columns: unselected ones come back NULL; storage sizes only when asked', () => {
  const [c01] = rows({ columns: ['inputs.s'], filter: { call_ids: ['c01'] } });
  assert.equal(c01!.id, 'c01');
  assert.equal(c01!.op_name, predict('abc'));
  assert.equal(c01!.started_at, at(1));
  assert.equal(JSON.parse(c01!.inputs as string).s, 'hello');
  for (const c of [
    'output',
    'summary',
    'attributes',
    'ended_at',
    'exception',
    'display_name',
    'storage_size_bytes',
    'total_storage_size_bytes',
  ]) {
    assert.equal(c01![c], null, c);
  }
  const full = rows({
    filter: { call_ids: ['c01', 'c04'] },
    include_storage_size: true,
    include_total_storage_size: true,
  });
  assert.deepEqual(
    full.map((r) => [r.id, r.storage_size_bytes, r.total_storage_size_bytes]),
    [
      ['c01', 150, 180],
      ['c04', 10, 20],
    ],
  );
  assert.deepEqual(Object.keys(full[0]!).sort(), [
    'attributes',
    'deleted_at',
    'display_name',
    'ended_at',
    'exception',
    'expire_at',
    'id',
    'inputs',
    'op_name',
    'output',
    'parent_id',
    'project_id',
    'started_at',
    'storage_size_bytes',
    'summary',
    'thread_id',
    'total_storage_size_bytes',
    'trace_id',
    'turn_id',
    'wb_run_id',
    'wb_run_step',
    'wb_run_step_end',
    'wb_user_id',
  ]);
  assert.equal(full[1]!.exception, 'ValueError: boom');
  assert.equal(full[1]!.output, 'null');
});

test('count honours filters and limit, and sums the storage of the matched traces', () => {
  const count = (req: Omit<CallsQueryInput, 'project_id'>) => {
    const { sql, params } = buildCallsCount(compileCallsQuery({ project_id: P, sort_by: [], ...req }));
    return db.prepare(sql).get(...params);
  };
  assert.deepEqual(count({}), { count: 8, total_storage_size_bytes: null });
  assert.deepEqual(count({ limit: 3 }), { count: 3, total_storage_size_bytes: null });
  assert.deepEqual(count({ query: { $expr: { $eq: [f('summary.weave.status'), l('error')] } } }), {
    count: 1,
    total_storage_size_bytes: null,
  });
  assert.deepEqual(count({ filter: { trace_ids: ['t1', 't3'] }, include_total_storage_size: true }), {
    count: 4,
    total_storage_size_bytes: 200,
  });
  assert.deepEqual(count({ filter: { call_ids: [] } }), count({}), 'an empty list is no constraint');
  assert.deepEqual(count({ limit: 1, sort_by: null, include_total_storage_size: true }), {
    count: 1,
    total_storage_size_bytes: 180,
  });
});
