// /cost/create, /cost/query and /cost/purge through HTTP (weave-api.md §1.21-1.23).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';

const OTHER = 'test-entity/other-project';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const OUTPUT_KEYS = [
  'completion_token_cost',
  'completion_token_cost_unit',
  'effective_date',
  'id',
  'llm_id',
  'prompt_token_cost',
  'prompt_token_cost_unit',
  'provider_id',
];
let t: TestApp;

before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const create = (costs: Record<string, unknown>, project = PROJECT) =>
  t.post('/cost/create', { project_id: project, costs });
const query = (body: Record<string, unknown>, project = PROJECT) =>
  t.post('/cost/query', { project_id: project, ...body });
const idEq = (id: unknown) => ({ $eq: [{ $getField: 'id' }, { $literal: id }] });

async function results(body: Record<string, unknown>, project = PROJECT): Promise<any[]> {
  const r = await query(body, project);
  assert.equal(r.status, 200, r.text);
  return r.body.results;
}

test('cost/create answers [cost_id, llm_id] pairs; cost/query lists the project prices', async () => {
  const before = Date.now();
  const r = await create({
    'model-a': { prompt_token_cost: 0.01, completion_token_cost: 0.02 },
    'model-b': {
      prompt_token_cost: 1,
      completion_token_cost: 2,
      prompt_token_cost_unit: 'EUR',
      completion_token_cost_unit: 'EUR',
      effective_date: '2025-01-02T03:04:05',
      provider_id: 'acme',
    },
  });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.ids.length, 2);
  assert.deepEqual(
    r.body.ids.map((p: string[]) => p[1]),
    ['model-a', 'model-b'],
  );
  for (const [id] of r.body.ids) assert.match(id, UUID);

  const got = await results({
    query: { $expr: { $in: [{ $getField: 'llm_id' }, [{ $literal: 'model-a' }, { $literal: 'model-b' }]] } },
  });
  assert.equal(got.length, 2);
  for (const row of got) assert.deepEqual(Object.keys(row).sort(), OUTPUT_KEYS);
  const [a, b] = got;
  assert.equal(a.id, r.body.ids[0][0]);
  assert.deepEqual(
    [
      a.prompt_token_cost,
      a.completion_token_cost,
      a.prompt_token_cost_unit,
      a.completion_token_cost_unit,
      a.provider_id,
    ],
    [0.01, 0.02, 'USD', 'USD', 'default'],
  );
  assert.ok(Date.parse(a.effective_date) >= before - 1000, 'effective_date defaults to now');
  assert.deepEqual(
    [b.effective_date, b.provider_id, b.prompt_token_cost_unit],
    ['2025-01-02T03:04:05.000Z', 'acme', 'EUR'],
  );
});

test("a query never reaches another project's prices", async () => {
  const secret = 'third-entity/secret-project';
  await create({ 'model-secret': { prompt_token_cost: 7, completion_token_cost: 7 } }, secret);
  const probe = { query: { $expr: { $eq: [{ $getField: 'pricing_level_id' }, { $literal: secret }] } } };
  assert.deepEqual(await results(probe), []);
  assert.deepEqual(
    await results({ query: { $expr: { $eq: [{ $getField: 'llm_id' }, { $literal: 'model-secret' }] } } }),
    [],
  );
  assert.deepEqual(
    (await results(probe, secret)).map((r) => r.llm_id),
    ['model-secret'],
  );
});

test('without a query, only this project is listed, and default prices never are', async () => {
  await create({ 'model-other': { prompt_token_cost: 5, completion_token_cost: 5 } }, OTHER);
  const own = await results({});
  assert.ok(own.length >= 2);
  assert.ok(
    own.every((r) => r.llm_id !== 'model-other' && r.llm_id !== 'gpt-4o'),
    'neither another project nor the default list',
  );
  assert.deepEqual(
    (await results({}, OTHER)).map((r) => r.llm_id),
    ['model-other'],
  );
  assert.deepEqual(
    await results({ query: { $expr: { $eq: [{ $getField: 'llm_id' }, { $literal: 'gpt-4o' }] } } }),
    [],
    'defaults are not project prices',
  );
});

test('fields select output keys; the others are null', async () => {
  const got = await results({
    fields: ['id', 'llm_id'],
    query: { $expr: { $eq: [{ $getField: 'llm_id' }, { $literal: 'model-a' }] } },
  });
  assert.equal(got.length, 1);
  assert.equal(typeof got[0].id, 'string');
  assert.equal(got[0].llm_id, 'model-a');
  for (const k of OUTPUT_KEYS.filter((k) => k !== 'id' && k !== 'llm_id')) assert.equal(got[0][k], null, k);
});

test('sort_by, limit and offset; filters on numbers and dates', async () => {
  await create({
    's-1': { prompt_token_cost: 3, completion_token_cost: 0 },
    's-2': { prompt_token_cost: 1, completion_token_cost: 0 },
    's-3': { prompt_token_cost: 2, completion_token_cost: 0 },
  });
  const onlyS = { $contains: { input: { $getField: 'llm_id' }, substr: { $literal: 's-' } } };
  const sorted = await results({
    query: { $expr: onlyS },
    sort_by: [{ field: 'prompt_token_cost', direction: 'desc' }],
  });
  assert.deepEqual(
    sorted.map((r) => r.llm_id),
    ['s-1', 's-3', 's-2'],
  );
  const page = await results({
    query: { $expr: onlyS },
    sort_by: [{ field: 'llm_id', direction: 'asc' }],
    limit: 1,
    offset: 1,
  });
  assert.deepEqual(
    page.map((r) => r.llm_id),
    ['s-2'],
  );
  const cheap = await results({
    query: { $expr: { $and: [onlyS, { $gt: [{ $getField: 'prompt_token_cost' }, { $literal: 1.5 }] }] } },
  });
  assert.deepEqual(cheap.map((r) => r.llm_id).sort(), ['s-1', 's-3']);
  const old = await results({
    query: { $expr: { $lt: [{ $getField: 'effective_date' }, { $literal: '2025-06-01T00:00:00Z' }] } },
  });
  assert.deepEqual(
    old.map((r) => r.llm_id),
    ['model-b'],
  );
});

test('unknown fields are 422, bad queries 400', async () => {
  for (const body of [
    { fields: ['nope'] },
    { sort_by: [{ field: 'nope', direction: 'asc' }] },
    { query: { $expr: { $eq: [{ $getField: 'payload.x' }, { $literal: 1 }] } } },
  ]) {
    assert.equal((await query(body)).status, 422, JSON.stringify(body));
  }
  assert.equal((await query({ query: { $expr: { $and: [] } } })).status, 400);
  assert.equal((await query({ query: { $expr: { $bogus: [] } } })).status, 400);
});

test("cost/purge deletes this project's prices by id: $eq, $in, $or", async () => {
  const r = await create(
    Object.fromEntries(
      ['p-1', 'p-2', 'p-3', 'p-4', 'p-5'].map((m) => [m, { prompt_token_cost: 1, completion_token_cost: 1 }]),
    ),
  );
  const ids: string[] = r.body.ids.map((p: string[]) => p[0]);
  const purge = async (expr: unknown, project = PROJECT) => {
    const res = await t.post('/cost/purge', { project_id: project, query: { $expr: expr } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {});
  };
  const remaining = async () =>
    (
      await results({ query: { $expr: { $contains: { input: { $getField: 'llm_id' }, substr: { $literal: 'p-' } } } } })
    ).map((x) => x.llm_id);
  await purge(idEq(ids[0]), OTHER);
  assert.deepEqual(await remaining(), ['p-1', 'p-2', 'p-3', 'p-4', 'p-5'], 'another project cannot purge these');
  await purge(idEq(ids[0]));
  await purge({ $in: [{ $getField: 'id' }, [{ $literal: ids[1] }, { $literal: ids[2] }]] });
  await purge({ $or: [idEq(ids[3]), idEq('no-such-id')] });
  assert.deepEqual(await remaining(), ['p-5']);
});

test('cost/purge accepts nothing but id selections', async () => {
  const bad = [
    { $eq: [{ $getField: 'llm_id' }, { $literal: 'p-5' }] },
    { $eq: [{ $literal: 'x' }, { $getField: 'id' }] },
    idEq(5),
    { $in: [{ $getField: 'id' }, [{ $getField: 'llm_id' }]] },
    { $in: [{ $getField: 'id' }, []] },
    { $or: [idEq('x'), { $eq: [{ $getField: 'llm_id' }, { $literal: 'p-5' }] }] },
    { $or: [] },
    { $and: [idEq('x')] },
    { $not: [idEq('x')] },
    { $eq: [{ $getField: 'id' }, { $literal: 'x' }], $or: [] },
  ];
  for (const expr of bad) {
    const r = await t.post('/cost/purge', { project_id: PROJECT, query: { $expr: expr } });
    assert.equal(r.status, 400, JSON.stringify(expr));
    assert.equal(r.body.reason, 'Can only purge costs by specifying one or more cost ids');
  }
});

test('malformed bodies are 422', async () => {
  const cases: [string, unknown][] = [
    ['/cost/create', { project_id: PROJECT }],
    ['/cost/create', { project_id: PROJECT, costs: [] }],
    ['/cost/create', { project_id: PROJECT, costs: { m: { completion_token_cost: 1 } } }],
    ['/cost/create', { project_id: PROJECT, costs: { m: { prompt_token_cost: '1', completion_token_cost: 1 } } }],
    [
      '/cost/create',
      {
        project_id: PROJECT,
        costs: { m: { prompt_token_cost: 1, completion_token_cost: 1, effective_date: 'yesterday' } },
      },
    ],
    ['/cost/create', { project_id: PROJECT, costs: {}, extra: 1 }],
    ['/cost/query', { project_id: PROJECT, limit: -1 }],
    ['/cost/query', { project_id: PROJECT, fields: 'id' }],
    ['/cost/query', { project_id: PROJECT, query: { $expr: {}, extra: 1 } }],
    ['/cost/query', { project_id: PROJECT, sort_by: [{ field: 'id', direction: 'ASC' }] }],
    ['/cost/query', { project_id: PROJECT, unknown: true }],
    ['/cost/purge', { project_id: PROJECT }],
    ['/cost/purge', { project_id: PROJECT, query: { $expr: idEq('x') }, extra: 1 }],
  ];
  for (const [path, body] of cases) {
    const r = await t.post(path, body);
    assert.equal(r.status, 422, `${path} ${JSON.stringify(body)}: ${r.text}`);
    assert.ok(Array.isArray(r.body.detail));
  }
});

test('optional fields accept null; an empty costs map creates nothing', async () => {
  const r = await create({
    'null-model': {
      prompt_token_cost: 1,
      completion_token_cost: 2,
      prompt_token_cost_unit: null,
      completion_token_cost_unit: null,
      effective_date: null,
      provider_id: null,
    },
  });
  assert.equal(r.status, 200, r.text);
  const [row] = await results({
    query: { $expr: { $eq: [{ $getField: 'llm_id' }, { $literal: 'null-model' }] } },
    fields: null,
    sort_by: null,
    limit: null,
    offset: null,
  });
  assert.deepEqual([row.prompt_token_cost_unit, row.provider_id], ['USD', 'default']);
  assert.deepEqual((await t.post('/cost/create', { project_id: PROJECT, costs: {}, wb_user_id: 'ignored' })).body, {
    ids: [],
  });
});
