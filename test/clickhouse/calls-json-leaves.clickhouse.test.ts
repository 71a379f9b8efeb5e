// ClickHouse only: filters and sorts on input paths read the inputs' leaves (inputs_leaves)
// instead of the JSON text when no row of the project keeps the path from them, and answer
// exactly as the text does. Two projects hold the same calls; the second also holds one call
// whose document ClickHouse cannot parse (a lone surrogate), which sends every path of that
// project to the text. Every query must answer alike in both, that call aside.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { chdbClient, clickhouseDatabase } from '../helpers/clickhouse-engine.js';
import { end, endItem, jsonl, start, startItem } from '../helpers/calls.js';
import { compileCallsQuery, type CallsQueryInput } from '../../src/query/compile-calls-query.js';
import { streamWithLeaves, usableLeaves, withLeaves } from '../../src/storage/clickhouse/calls/call-leaves.js';
import { buildCallsSelect, type LeafReads } from '../../src/storage/clickhouse/calls/call-select.js';
import { selectRows } from '../../src/storage/clickhouse/engine/client.js';

process.env.WEFT_TEST_ENGINE = 'clickhouse';

const LEAVES = 'leaves-entity/leaves';
const TEXT = 'leaves-entity/text';
const MISSING = Symbol('missing');
const LONG = 'long '.repeat(80);
const VALUES: unknown[] = [
  'gpt-4o-mini',
  'GPT',
  '',
  'null',
  'true',
  '1',
  '1.5',
  '1e-7',
  'a"b',
  'back\\slash',
  'tab\there',
  'line\nbreak',
  'café',
  'émoji 😀',
  'e\u2028s',
  0,
  -0,
  1,
  -3,
  1.5,
  0.1,
  1e-7,
  1e21,
  123456789012,
  2 ** 53 + 2,
  1.7976931348623157e308,
  true,
  false,
  null,
  MISSING,
];
const value = (i: number) => VALUES[i % VALUES.length];
/** Call i's inputs: the same scalars at several depths and under a key holding a dot. */
function inputs(i: number): Record<string, unknown> {
  const doc: Record<string, unknown> = { tag: `c${i}`, o: { y: {} }, d1: { d2: { d3: { d4: value(i + 5) } } } };
  const set = (o: Record<string, unknown>, k: string, v: unknown) => {
    if (v !== MISSING) o[k] = v;
  };
  set(doc, 'v', value(i));
  set(doc.o as Record<string, unknown>, 'x', value(i + 3));
  set((doc.o as { y: Record<string, unknown> }).y, 'z', value(i + 7));
  set(doc, 'k.dot', value(i + 11));
  // Beyond the leaves: a long string, an array, an object below the depth kept.
  doc.long = i % 3 === 0 ? LONG : 'short';
  doc.arr = [value(i)];
  doc.d1 = { d2: { d3: { d4: { d5: value(i + 13) } } } };
  return doc;
}

let t: TestApp;
let database: string;
before(async () => {
  t = await startTestApp();
  database = clickhouseDatabase(t.store)!;
  for (const project of [LEAVES, TEXT]) {
    const items = [];
    const n = VALUES.length * 2 + (project === TEXT ? 1 : 0);
    for (let i = 0; i < n; i++) {
      const doc = i === VALUES.length * 2 ? { tag: 'spoiler', v: 'lone \ud800', o: { x: 1 } } : inputs(i);
      const s = start({
        project_id: project,
        inputs: doc,
        started_at: new Date(Date.UTC(2026, 10, 24, 9, 0, 0, i)).toISOString(),
      });
      items.push(startItem(s), endItem(end(s.id, { project_id: project, ended_at: '2026-11-24T10:00:00.000Z' })));
    }
    const r = await t.post('/call/upsert_batch', { batch: items });
    assert.equal(r.status, 200, r.text);
  }
});
after(() => t.close());

const PATHS = [
  'inputs.v',
  'inputs.o.x',
  'inputs.o.y.z',
  'inputs.k\\.dot',
  'inputs.d1.d2.d3.d4.d5',
  'inputs.long',
  'inputs.arr',
  'inputs.o',
  'inputs.arr.0',
  'inputs.nope',
];
/** The paths whose every value the leaves hold in the first project (the others read the text there too). */
const LEAF_PATHS = ['inputs.v', 'inputs.o.x', 'inputs.o.y.z', 'inputs.k\\.dot'];

async function tags(project: string, req: Omit<CallsQueryInput, 'project_id'>): Promise<string[]> {
  const r = await t.post('/calls/stream_query', { project_id: project, ...req });
  assert.equal(r.status, 200, r.text);
  return jsonl(r.text)
    .map((c) => c.inputs.tag as string)
    .filter((tag) => tag !== 'spoiler');
}

async function same(req: Omit<CallsQueryInput, 'project_id'>, what: string): Promise<string[]> {
  const a = await tags(LEAVES, req);
  assert.deepEqual(a, await tags(TEXT, req), what);
  return a;
}

test('the leaves answer the scalar paths of the first project, and none of the second', async () => {
  const q = (path: string) => compileCallsQuery({ project_id: LEAVES, sort_by: [{ field: path, direction: 'asc' }] });
  const leafKeys = async (project: string, path: string) => [
    ...(await usableLeaves(chdbClient(), database, { ...q(path), projectId: project })).keys,
  ];
  for (const path of LEAF_PATHS) {
    assert.equal((await leafKeys(LEAVES, path)).length, 1, path);
    assert.deepEqual(await leafKeys(TEXT, path), [], path);
  }
  for (const path of ['inputs.long', 'inputs.arr', 'inputs.o', 'inputs.d1.d2.d3.d4.d5', 'inputs.arr.0'])
    assert.deepEqual(await leafKeys(LEAVES, path), [], path);
});

test('sorts on input paths order alike from the leaves and from the text', async () => {
  for (const path of PATHS) {
    for (const direction of ['asc', 'desc'] as const) {
      const order = await same(
        {
          sort_by: [
            { field: path, direction },
            { field: 'started_at', direction: 'asc' },
          ],
        },
        `${path} ${direction}`,
      );
      assert.equal(order.length, VALUES.length * 2);
    }
  }
});

test('filters on input paths match alike from the leaves and from the text', async () => {
  const literals: unknown[] = [
    'gpt-4o-mini',
    '',
    'null',
    'true',
    'false',
    '1',
    '1.5',
    '1e-07',
    '1e-7',
    '0',
    '-0',
    '1e+21',
    '1e21',
    '0.1',
    'a"b',
    'back\\slash',
    'café',
    'short',
    LONG,
    1,
    1.5,
    0,
    true,
  ];
  const sort = [{ field: 'started_at', direction: 'asc' as const }];
  let matched = 0;
  for (const path of PATHS) {
    const f = { $getField: path };
    for (const lit of literals)
      matched += (
        await same(
          { query: { $expr: { $eq: [f, { $literal: lit }] } }, sort_by: sort },
          `${path} = ${JSON.stringify(lit)}`,
        )
      ).length;
    await same(
      { query: { $expr: { $in: [f, [{ $literal: 'GPT' }, { $literal: 'café' }, { $literal: '1' }]] } }, sort_by: sort },
      `${path} in`,
    );
    for (const part of ['a', 'é', '"', 'ort', '😀'])
      await same(
        {
          query: { $expr: { $contains: { input: f, substr: { $literal: part }, case_insensitive: part === 'a' } } },
          sort_by: sort,
        },
        `${path} contains ${part}`,
      );
    await same(
      { query: { $expr: { $gt: [{ $convert: { input: f, to: 'double' } }, { $literal: 1 }] } }, sort_by: sort },
      `${path} > 1`,
    );
    await same({ query: { $expr: { $not: [{ $eq: [f, { $literal: 'GPT' }] }] } }, sort_by: sort }, `not ${path} = GPT`);
    const missing = await same(
      { query: { $expr: { $eq: [f, { $literal: null }] } }, sort_by: sort },
      `${path} is null`,
    );
    const present = await same(
      { query: { $expr: { $not: [{ $eq: [f, { $literal: null }] }] } }, sort_by: sort },
      `${path} is not null`,
    );
    assert.equal(missing.length + present.length, VALUES.length * 2, path);
  }
  assert.ok(matched > 20, `the literals match some calls (${matched})`);
  // A value the leaves do not hold is still found, from the text.
  assert.deepEqual(
    await tags(LEAVES, {
      query: { $expr: { $eq: [{ $getField: 'inputs.long' }, { $literal: LONG }] } },
      sort_by: sort,
    }),
    Array.from({ length: VALUES.length * 2 }, (_, i) => i)
      .filter((i) => i % 3 === 0)
      .map((i) => `c${i}`),
  );
});

test('keys holding quotes, backslashes and regular expression syntax are stored and read back from the leaves', async () => {
  const project = 'leaves-entity/keys';
  const odd = "it's \\ (odd) [x]*";
  const s = start({ project_id: project, inputs: { [odd]: [1], fine: 'x', o: { [odd]: 'deep', 'a.b': 'dotted' } } });
  assert.equal((await t.post('/call/upsert_batch', { batch: [startItem(s)] })).status, 200);
  const usable = async (path: string) =>
    (
      await usableLeaves(chdbClient(), database, {
        ...compileCallsQuery({ project_id: project, sort_by: [{ field: path, direction: 'asc' }] }),
        projectId: project,
      })
    ).keys.size === 1;
  const escaped = odd.replaceAll('.', '\\.');
  assert.equal(
    await usable(`inputs.${escaped}`),
    false,
    'an array at a key with a quote: opaque, found by the question',
  );
  assert.equal(await usable('inputs.fine'), true);
  assert.equal(await usable(`inputs.o.${escaped}`), true);
  assert.equal(await usable('inputs.o.a\\.b'), true);
  const eq = async (path: string, value: string) =>
    (await tags(project, { query: { $expr: { $eq: [{ $getField: path }, { $literal: value }] } } })).length;
  assert.equal(await eq(`inputs.o.${escaped}`, 'deep'), 1);
  assert.equal(await eq('inputs.o.a\\.b', 'dotted'), 1);
  assert.equal(await eq('inputs.fine', 'x'), 1);
});

test('counts and the calls query stats agree too', async () => {
  const query = { $expr: { $eq: [{ $getField: 'inputs.o.x' }, { $literal: 'GPT' }] } };
  const a = await t.post('/calls/query_stats', { project_id: LEAVES, query });
  const b = await t.post('/calls/query_stats', { project_id: TEXT, query });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.count, 2);
  assert.equal(b.body.count, 2);
});

test('a call written between the question and the read sends the read back to the text, for a result and for a stream', async () => {
  /** A project whose leaves answer inputs.v, a query for a v too long for them, and a write of a call holding it. */
  async function race(project: string) {
    const s = start({ project_id: project, inputs: { v: 'a' } });
    assert.equal((await t.post('/call/upsert_batch', { batch: [startItem(s)] })).status, 200);
    const q = {
      ...compileCallsQuery({
        project_id: project,
        query: { $expr: { $eq: [{ $getField: 'inputs.v' }, { $literal: LONG }] } },
      }),
      projectId: project,
    };
    const read = async (leaves: LeafReads) => {
      const { sql, params } = buildCallsSelect(database, q, Date.now() * 1000, null, leaves);
      return (await selectRows<{ id: string }>(chdbClient(), sql, params)).map((r) => r.id);
    };
    const write = async () => {
      const late = start({ project_id: project, inputs: { v: LONG } });
      assert.equal((await t.post('/call/upsert_batch', { batch: [startItem(late)] })).status, 200);
      return late.id;
    };
    return { q, read, write };
  }

  const plain = await race('leaves-entity/race-plain');
  const stale = await usableLeaves(chdbClient(), database, plain.q);
  assert.equal(stale.keys.size, 1);
  const late = await plain.write();
  assert.deepEqual(await plain.read(stale), [], 'read from leaves found usable before the write, the call is missed');
  assert.deepEqual(await plain.read(await usableLeaves(chdbClient(), database, plain.q)), [late]);

  const result = await race('leaves-entity/race-result');
  const sizes: number[] = [];
  let written = '';
  const ids = await withLeaves(chdbClient(), database, result.q, async (leaves) => {
    sizes.push(leaves.keys.size);
    if (sizes.length === 1) written = await result.write();
    return result.read(leaves);
  });
  assert.deepEqual(sizes, [1, 0]);
  assert.deepEqual(ids, [written]);

  const stream = await race('leaves-entity/race-stream');
  const streamed: string[] = [];
  const runs: number[] = [];
  written = '';
  for await (const id of streamWithLeaves(chdbClient(), database, stream.q, async function* (leaves) {
    runs.push(leaves.keys.size);
    if (runs.length === 1) written = await stream.write();
    yield* await stream.read(leaves);
  }))
    streamed.push(id);
  assert.deepEqual(runs, [1, 0]);
  assert.deepEqual(streamed, [written]);
});

test('a stream read from leaves is closed when its reader stops early', async () => {
  const q = {
    ...compileCallsQuery({ project_id: LEAVES, sort_by: [{ field: 'inputs.v', direction: 'asc' }] }),
    projectId: LEAVES,
  };
  let closed = false;
  let usedLeaves = 0;
  for await (const item of streamWithLeaves(chdbClient(), database, q, async function* (leaves) {
    usedLeaves = leaves.keys.size;
    try {
      for (let i = 0; i < 3; i++) yield i;
    } finally {
      closed = true;
    }
  })) {
    assert.equal(item, 0);
    break;
  }
  assert.equal(usedLeaves, 1);
  assert.equal(closed, true);
});
