// The ClickHouse engine's own plumbing, on chdb in process: the contract tests above really
// reach ClickHouse, migrations are recorded once and a newer schema is refused, values
// travel as typed parameters (never in the SQL text), and the dialect keeps the plan's
// semantics where the engines differ.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT } from '../helpers/test-app.js';
import { chdbClient } from '../helpers/clickhouse-engine.js';
import { CLICKHOUSE_MIGRATIONS, migrateClickHouse } from '../../src/storage/clickhouse/engine/migrations/index.js';
import { selectRows } from '../../src/storage/clickhouse/engine/client.js';
import { ChParams, printChExpr, printChOrderBy } from '../../src/storage/clickhouse/engine/dialect.js';

// Read when a test app starts: this file's apps run on ClickHouse.
process.env.WEFT_TEST_ENGINE = 'clickhouse';
const t = await startTestApp();
after(() => t.close());

test('a price created through HTTP is a row in ClickHouse, and /cost/query reads it back from there', async () => {
  const hostile = "x'); DROP TABLE llm_token_prices; --";
  const r = await t.post('/cost/create', {
    project_id: PROJECT,
    costs: { [hostile]: { prompt_token_cost: 1, completion_token_cost: 2 } },
  });
  assert.equal(r.status, 200, r.text);
  const rows = await selectRows<{ db: string; llm_id: string }>(
    chdbClient(),
    "SELECT _database AS db, llm_id FROM merge(REGEXP('^weft_test_'), '^llm_token_prices$') WHERE llm_id = {l:String}",
    { l: hostile },
  );
  assert.equal(rows.length, 1);
  assert.match(rows[0]!.db, new RegExp(`^weft_test_${process.pid}_`));
  const q = await t.post('/cost/query', {
    project_id: PROJECT,
    query: { $expr: { $eq: [{ $getField: 'llm_id' }, { $literal: hostile }] } },
  });
  assert.deepEqual(
    q.body.results.map((x: { llm_id: string }) => x.llm_id),
    [hostile],
  );
});

test('migrations are recorded once; a database of a newer schema is refused', async () => {
  const c = chdbClient();
  const db = `weft_test_${process.pid}_mig`;
  await migrateClickHouse(c, db);
  await migrateClickHouse(c, db);
  assert.deepEqual(
    await selectRows(c, `SELECT toUInt32(version) AS v FROM ${db}.weft_migrations ORDER BY v`),
    CLICKHOUSE_MIGRATIONS.map((m) => ({ v: m.version })),
  );
  await c.insert({ table: `${db}.weft_migrations`, values: [{ version: 99 }], format: 'JSONEachRow' });
  await assert.rejects(migrateClickHouse(c, db), /newer Weft \(schema 99/);
  await c.command({ query: `DROP DATABASE ${db}` });
});

test("migration 8 folds each span's message list into first occurrences per settled conversation", async () => {
  const c = chdbClient();
  const db = `weft_test_${process.pid}_mig8`;
  await migrateClickHouse(
    c,
    db,
    undefined,
    CLICKHOUSE_MIGRATIONS.filter((m) => m.version <= 7),
  );
  const span = (trace: string, id: string, at: number, conversation: string | null) => ({
    project_id: 'e/p',
    trace_id: trace,
    span_id: id,
    span_name: 'chat',
    span_kind: 'CLIENT',
    started_at: at,
    status_code: 'OK',
    conversation_id: conversation,
    input_messages: '[]',
    output_messages: '[]',
    system_instructions: '[]',
    custom_attrs_string: '{}',
    custom_attrs_int: '{}',
    custom_attrs_float: '{}',
    custom_attrs_bool: '{}',
    tokens_counted: 1,
    raw_span_dump: '{}',
    seq: 1,
  });
  // The second span inherited the conversation after its message list was written without one.
  await c.insert({
    table: `${db}.spans`,
    values: [span('t1', 'a1', 1, 'conv-1'), span('t2', 'b2', 2, 'conv-1'), span('t3', 'c3', 3, null)],
    format: 'JSONEachRow',
  });
  const list = (trace: string, id: string, at: number, roles: string[], digests: string[]) => ({
    project_id: 'e/p',
    trace_id: trace,
    span_id: id,
    conversation_id: null,
    started_at: at,
    roles,
    digests,
    seq: 1,
  });
  await c.insert({
    table: `${db}.span_messages`,
    values: [
      list('t1', 'a1', 1, ['user'], ['d1']),
      list('t2', 'b2', 2, ['user', 'assistant'], ['d1', 'd2']),
      list('t3', 'c3', 3, ['user'], ['d1']),
    ],
    format: 'JSONEachRow',
  });
  await migrateClickHouse(c, db);
  assert.deepEqual(
    await selectRows(
      c,
      `SELECT scope, role, digest, span_id, toInt32(ord) AS ord, toInt32(started_at) AS at, conversation_id
       FROM ${db}.span_first_messages FINAL ORDER BY scope, role`,
    ),
    [
      { scope: 'c:conv-1', role: 'assistant', digest: 'd2', span_id: 'b2', ord: 1, at: 2, conversation_id: 'conv-1' },
      { scope: 'c:conv-1', role: 'user', digest: 'd1', span_id: 'a1', ord: 0, at: 1, conversation_id: 'conv-1' },
      { scope: 't:t3', role: 'user', digest: 'd1', span_id: 'c3', ord: 0, at: 3, conversation_id: null },
    ],
  );
  assert.equal((await selectRows<{ result: number }>(c, `EXISTS TABLE ${db}.span_messages`))[0]!.result, 0);
  await c.command({ query: `DROP DATABASE ${db}` });
});

test('the dialect binds every value as a typed parameter and sorts NULLs last both ways', async () => {
  const params = new ChParams();
  const field = { kind: 'field', field: { kind: 'column', name: 'v', type: 'string' } } as const;
  const where = printChExpr(
    {
      kind: 'or',
      items: [
        { kind: 'compare', op: 'eq', left: field, right: { kind: 'literal', value: "it's" } },
        { kind: 'contains', input: field, substr: { kind: 'literal', value: 'B' }, caseInsensitive: true },
        { kind: 'in', left: { kind: 'convert', input: field, to: 'int' }, items: [{ kind: 'literal', value: 2 }] },
      ],
    },
    (f) => ({ sql: (f as { name: string }).name, type: 'String' }),
    params,
  );
  assert.doesNotMatch(where, /it's|'B'/);
  const order = printChOrderBy(
    [{ field: { kind: 'column', name: 'v', type: 'string' }, direction: 'desc' }],
    (f) => ({ sql: (f as { name: string }).name, type: 'String' }),
    params,
  );
  const rows = await selectRows<{ v: string | null }>(
    chdbClient(),
    `SELECT v FROM values('v Nullable(String)', ('it''s'), ('abc'), (NULL), ('2'), ('zzz')) WHERE ${where} OR v IS NULL ${order}`,
    params.values,
  );
  assert.deepEqual(
    rows.map((r) => r.v),
    ["it's", 'abc', '2', null],
  );
});

test('an object version and its re-assertion are rows in ClickHouse: the value once, a state row, latest pointers', async () => {
  const body = { obj: { project_id: PROJECT, object_id: 'ch-probe', val: { x: 1 } } };
  const first = await t.post('/obj/create', body);
  assert.equal(first.status, 200, first.text);
  await t.post('/obj/create', { obj: { ...body.obj, val: { x: 2 } } });
  assert.equal((await t.post('/obj/create', body)).body.digest, first.body.digest);
  const count = async (table: string) =>
    Number(
      (
        await selectRows<{ n: string }>(
          chdbClient(),
          `SELECT count() AS n FROM merge(REGEXP('^weft_test_${process.pid}_'), '^${table}$') WHERE object_id = 'ch-probe'`,
        )
      )[0]!.n,
    );
  assert.deepEqual(
    [await count('object_values'), await count('object_versions'), await count('object_latest')],
    [2, 2, 3],
  );
  const read = await t.post('/obj/read', { project_id: PROJECT, object_id: 'ch-probe', digest: 'latest' });
  assert.deepEqual(read.body.obj.val, { x: 1 });
});

test('text against a number, and numbers beyond 2^53, compare as on SQLite instead of failing', async () => {
  const { start, end, startItem, endItem } = await import('../helpers/calls.js');
  const sqlite = await (async () => {
    process.env.WEFT_TEST_ENGINE = 'sqlite';
    try {
      return await startTestApp();
    } finally {
      process.env.WEFT_TEST_ENGINE = 'clickhouse';
    }
  })();
  try {
    const values = ['abc', '5', 7, 12.5, null, true];
    const calls = values.map((v) => start({ inputs: v === null ? {} : { v } }));
    const batch = { batch: calls.flatMap((s) => [startItem(s), endItem(end(s.id))]) };
    for (const app of [t, sqlite]) assert.equal((await app.post('/call/upsert_batch', batch)).status, 200);
    const ids = calls.map((c) => c.id);
    const matching = async (app: typeof t, expr: unknown) => {
      const r = await app.post('/calls/query', {
        project_id: PROJECT,
        filter: { call_ids: ids },
        query: { $expr: expr },
        columns: ['id'],
      });
      assert.equal(r.status, 200, r.text);
      return (r.body.calls as { id: string }[]).map((c) => values[ids.indexOf(c.id)]).sort();
    };
    const v = { $getField: 'inputs.v' };
    for (const expr of [
      { $gt: [v, { $literal: 6 }] },
      { $lt: [v, { $literal: 6 }] },
      { $eq: [v, { $literal: 5 }] },
      { $gte: [{ $literal: 10 }, v] },
      { $eq: [v, { $literal: 9223372036854775807 }] },
      { $lt: [v, { $literal: 1e300 }] },
      { $gt: [{ $getField: 'started_at' }, { $literal: -1e20 }] },
      { $eq: [{ $getField: 'op_name' }, { $literal: 5 }] },
      { $in: [v, [{ $literal: 'abc' }, { $literal: 7 }]] },
    ]) {
      assert.deepEqual(await matching(t, expr), await matching(sqlite, expr), JSON.stringify(expr));
    }
  } finally {
    await sqlite.close();
  }
});

test('pages sorted by start time read a window of the newest (or oldest) rows, and answer as SQLite does', async () => {
  const { start, end, startItem, endItem } = await import('../helpers/calls.js');
  process.env.WEFT_TEST_ENGINE = 'sqlite';
  const sqlite = await startTestApp().finally(() => (process.env.WEFT_TEST_ENGINE = 'clickhouse'));
  const P = 'window/project';
  try {
    const t0 = Date.parse('2026-11-01T00:00:00Z');
    // 900 calls, some sharing a start time; a trace root every third; a third of them ended later.
    const calls = Array.from({ length: 900 }, (_, i) =>
      start({ project_id: P, started_at: new Date(t0 + Math.floor(i / 2) * 1000).toISOString(), inputs: { i } }),
    );
    const roots = new Set(calls.filter((_, i) => i % 3 === 0).map((c) => c.id));
    for (const c of calls)
      if (!roots.has(c.id))
        Object.assign(c, {
          parent_id: calls[Math.floor(calls.indexOf(c) / 3) * 3]!.id,
          trace_id: calls[Math.floor(calls.indexOf(c) / 3) * 3]!.trace_id,
        });
    const first = calls.flatMap((c, i) =>
      i % 3 === 1 ? [startItem(c)] : [startItem(c), endItem(end(c.id, { project_id: P }))],
    );
    const later = calls.filter((_, i) => i % 3 === 1).map((c) => endItem(end(c.id, { project_id: P, output: 'late' })));
    const doomed = calls.filter((_, i) => i % 7 === 0 && i > 700).map((c) => c.id);
    for (const app of [t, sqlite]) {
      assert.equal((await app.post('/call/upsert_batch', { batch: first })).status, 200);
      assert.equal((await app.post('/call/upsert_batch', { batch: later })).status, 200);
      for (const id of calls.filter((_, i) => i % 11 === 0).map((c) => c.id))
        assert.equal(
          (await app.post('/call/update', { project_id: P, call_id: id, display_name: 'renamed' })).status,
          200,
        );
      assert.equal((await app.post('/calls/delete', { project_id: P, call_ids: doomed })).status, 200);
    }
    const page = async (app: typeof t, body: object) => {
      const r = await app.post('/calls/query', { project_id: P, columns: ['id', 'display_name', 'output'], ...body });
      assert.equal(r.status, 200, r.text);
      return r.body.calls.map((c: { id: string; display_name: string | null; output: unknown }) => [
        c.id,
        c.display_name,
        c.output,
      ]);
    };
    for (const body of [
      { sort_by: [{ field: 'started_at', direction: 'desc' }], limit: 100 },
      { sort_by: [{ field: 'started_at', direction: 'desc' }], limit: 100, offset: 150 },
      { sort_by: [{ field: 'started_at', direction: 'asc' }], limit: 50, offset: 10 },
      { sort_by: [{ field: 'started_at', direction: 'desc' }], limit: 100, filter: { trace_roots_only: true } },
      {
        sort_by: [{ field: 'started_at', direction: 'desc' }],
        limit: 40,
        query: { $expr: { $eq: [{ $getField: 'output' }, { $literal: 'late' }] } },
      },
      { sort_by: [{ field: 'started_at', direction: 'desc' }], limit: 1000 },
    ]) {
      const want = await page(sqlite, body);
      assert.ok(want.length > 0);
      assert.deepEqual(await page(t, body), want, JSON.stringify(body));
    }
  } finally {
    await sqlite.close();
  }
});

test("every statement runs with Weft's settings (on chdb set once in the session, not before each statement)", async () => {
  const [row] = await selectRows<Record<string, unknown>>(
    chdbClient(),
    `SELECT toInt64(1) AS n, getSetting('async_insert') AS async_insert, getSetting('mutations_sync') AS mutations_sync,
      getSetting('function_json_value_return_type_allow_complex') AS complex, getSetting('input_format_json_throw_on_bad_escape_sequence') AS bad_escape`,
  );
  assert.deepEqual(row, { n: '1', async_insert: false, mutations_sync: 2, complex: true, bad_escape: false });
});
