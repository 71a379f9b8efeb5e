// Reading tables through HTTP: /table/query (order, duplicates, filter, paging, sort_by),
// /table/query_stream (JSON Lines), /table/query_stats and /table/query_stats_batch, and
// the TableStore reads the refs work depends on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT as P, type TestApp } from './helpers/test-app.js';
import { jsonl } from './helpers/calls.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

async function create(rows: unknown[], project = P) {
  const res = await t.post('/table/create', { table: { project_id: project, rows } });
  assert.equal(res.status, 200, res.text);
  return res.body as { digest: string; row_digests: string[] };
}
const query = (body: Record<string, unknown>) => t.post('/table/query', { project_id: P, ...body });
const indexes = (res: { body: any }) => (res.body.rows as any[]).map((r) => r.original_index);

const ROWS = [{ k: 'a' }, { k: 'b' }, { k: 'a' }, { k: 'c' }, { k: 'd' }, { k: 'a' }];

test('query: every row in insertion order with digest, val and original_index; duplicates at each position', async () => {
  const { digest, row_digests } = await create(ROWS);
  const res = await query({ digest });
  assert.equal(res.status, 200, res.text);
  assert.match(String(res.headers['content-type']), /application\/json/);
  assert.deepEqual(
    res.body.rows,
    ROWS.map((val, i) => ({ digest: row_digests[i], val, original_index: i })),
  );
  assert.equal(row_digests[0], row_digests[2]);
});

test('query: an unknown table (or another project\'s) is {"rows": []}', async () => {
  const { digest } = await create([{ only: 'here' }]);
  assert.deepEqual((await query({ digest: '0'.repeat(64) })).body, { rows: [] });
  assert.deepEqual((await t.post('/table/query', { project_id: 'some/other', digest })).body, { rows: [] });
});

test('query: limit and offset page through table order; null means none', async () => {
  const { digest } = await create(ROWS);
  assert.deepEqual(indexes(await query({ digest, limit: 2 })), [0, 1]);
  assert.deepEqual(indexes(await query({ digest, offset: 4 })), [4, 5]);
  assert.deepEqual(indexes(await query({ digest, offset: 2, limit: 3 })), [2, 3, 4]);
  assert.deepEqual(indexes(await query({ digest, offset: 10 })), []);
  assert.deepEqual(indexes(await query({ digest, limit: 0 })), []);
  assert.deepEqual(
    indexes(await query({ digest, limit: null, offset: null, filter: null, sort_by: null })),
    [0, 1, 2, 3, 4, 5],
  );
  assert.deepEqual(indexes(await query({ digest, limit: Number.MAX_SAFE_INTEGER })), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(
    indexes(await query({ digest, offset: Number.MAX_SAFE_INTEGER, sort_by: [{ field: 'k', direction: 'asc' }] })),
    [],
  );
  // Past 2^53 a number is no longer an exact integer: a 422, like any out-of-range field.
  assert.equal((await t.post('/table/query', { project_id: P, digest, limit: 1e300 })).status, 422);
});

test('query: filter.row_digests keeps every position holding one of them; an empty list filters nothing', async () => {
  const { digest, row_digests } = await create(ROWS);
  const a = row_digests[0]!;
  const d = row_digests[4]!;
  assert.deepEqual(indexes(await query({ digest, filter: { row_digests: [a, d] } })), [0, 2, 4, 5]);
  assert.deepEqual(indexes(await query({ digest, filter: { row_digests: [a] }, offset: 1, limit: 1 })), [2]);
  assert.deepEqual(indexes(await query({ digest, filter: { row_digests: ['X'.repeat(43)] } })), []);
  assert.deepEqual(indexes(await query({ digest, filter: { row_digests: [] } })), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(indexes(await query({ digest, filter: {} })), [0, 1, 2, 3, 4, 5]);
});

const MIXED = [
  { v: 3, g: 1 }, // 0
  { v: 'b', g: 2 }, // 1
  { v: null, g: 1 }, // 2
  { v: 10, g: 2 }, // 3
  { g: 1 }, // 4: missing
  { v: 'a', g: 2 }, // 5
  { v: 2.5, g: 1 }, // 6
  { v: 3, g: 2 }, // 7
];

test('sort_by: numbers, then text, each in the direction; missing and null last; ties keep table order', async () => {
  const { digest } = await create(MIXED);
  assert.deepEqual(
    indexes(await query({ digest, sort_by: [{ field: 'v', direction: 'asc' }] })),
    [6, 0, 7, 3, 5, 1, 2, 4],
  );
  assert.deepEqual(
    indexes(await query({ digest, sort_by: [{ field: 'v', direction: 'desc' }] })),
    [3, 0, 7, 6, 1, 5, 2, 4],
  );
  assert.deepEqual(
    indexes(
      await query({
        digest,
        sort_by: [
          { field: 'g', direction: 'desc' },
          { field: 'v', direction: 'asc' },
        ],
      }),
    ),
    [7, 3, 5, 1, 6, 0, 2, 4],
  );
  assert.deepEqual(
    indexes(await query({ digest, sort_by: [{ field: 'nowhere', direction: 'desc' }] })),
    [0, 1, 2, 3, 4, 5, 6, 7],
  );
  // Paging applies after sorting; original_index still names the table position.
  assert.deepEqual(
    indexes(await query({ digest, sort_by: [{ field: 'v', direction: 'asc' }], offset: 2, limit: 3 })),
    [7, 3, 5],
  );
});

test('sort_by: dot paths reach nested keys and array items', async () => {
  const rows = [{ m: { d: 'hard', s: [5, 1] } }, { m: { d: 'easy', s: [2, 9] } }, { m: { d: 'mid' } }, { m: 'flat' }];
  const { digest } = await create(rows);
  assert.deepEqual(indexes(await query({ digest, sort_by: [{ field: 'm.d', direction: 'asc' }] })), [1, 0, 2, 3]);
  assert.deepEqual(indexes(await query({ digest, sort_by: [{ field: 'm.s.0', direction: 'desc' }] })), [0, 1, 2, 3]);
  assert.deepEqual(indexes(await query({ digest, sort_by: [{ field: 'm.s.1', direction: 'desc' }] })), [1, 0, 2, 3]);
});

test('sort_by: malformed fields are 400 on query and stream; a bad direction is a 422', async () => {
  const { digest } = await create([{ a: 1 }]);
  for (const field of ['', '  ', '.a', 'a.', 'a..b', 'a. .b']) {
    for (const path of ['/table/query', '/table/query_stream']) {
      const res = await t.post(path, { project_id: P, digest, sort_by: [{ field, direction: 'asc' }] });
      assert.equal(res.status, 400, `${path} ${JSON.stringify(field)}: ${res.text}`);
      assert.match(String(res.headers['content-type']), /application\/json/);
      assert.equal(res.body.error_code, 'INVALID_REQUEST');
    }
  }
  assert.equal((await query({ digest, sort_by: [{ field: 'a', direction: 'ASC' }] })).status, 422);
  assert.equal((await query({ digest, sort_by: [{ field: 'a' }] })).status, 422);
  assert.equal((await query({ digest, sort_by: [{ field: 'a', direction: 'asc', order: 1 }] })).status, 422);
});

test('query: malformed bodies are 422', async () => {
  const bodies: unknown[] = [
    { project_id: P },
    { digest: 'x' },
    { project_id: P, digest: 5 },
    { project_id: P, digest: 'x', limit: -1 },
    { project_id: P, digest: 'x', offset: 1.5 },
    { project_id: P, digest: 'x', limit: '10' },
    { project_id: P, digest: 'x', filter: { row_digests: 'a' } },
    { project_id: P, digest: 'x', filter: { other: [] } },
    { project_id: P, digest: 'x', extra: true },
  ];
  for (const path of ['/table/query', '/table/query_stream']) {
    for (const body of bodies) {
      const res = await t.post(path, body);
      assert.equal(res.status, 422, `${path} ${JSON.stringify(body)}: ${res.text}`);
      assert.ok(Array.isArray(res.body.detail));
    }
  }
});

test('query_stream: JSON Lines of the same rows, honouring filter, sort and paging', async () => {
  const { digest } = await create(MIXED);
  const cases: Record<string, unknown>[] = [
    {},
    { sort_by: [{ field: 'v', direction: 'desc' }], offset: 1, limit: 4 },
    { offset: 3 },
  ];
  for (const extra of cases) {
    const stream = await t.post('/table/query_stream', { project_id: P, digest, ...extra });
    assert.equal(stream.status, 200, stream.text);
    assert.match(String(stream.headers['content-type']), /application\/jsonl/);
    assert.ok(stream.text.endsWith('\n'));
    assert.deepEqual(jsonl(stream.text), (await query({ digest, ...extra })).body.rows);
  }
  const unknown = await t.post('/table/query_stream', { project_id: P, digest: '1'.repeat(64) });
  assert.equal(unknown.status, 200);
  assert.equal(unknown.text, '');
});

test('query_stats: number of positions, duplicates included; 0 for an unknown table', async () => {
  const { digest } = await create(ROWS);
  assert.deepEqual((await t.post('/table/query_stats', { project_id: P, digest })).body, { count: 6 });
  assert.deepEqual((await t.post('/table/query_stats', { project_id: P, digest: '2'.repeat(64) })).body, { count: 0 });
  assert.equal((await t.post('/table/query_stats', { project_id: P })).status, 422);
  assert.equal((await t.post('/table/query_stats', { project_id: P, digest, limit: 1 })).status, 422);
});

test('query_stats_batch: known tables in request order, storage size only when asked', async () => {
  const small = await create([{ s: 1 }, { s: 1 }]);
  const big = await create([{ s: 'x'.repeat(100) }]);
  const unknown = '3'.repeat(64);
  const plain = await t.post('/table/query_stats_batch', {
    project_id: P,
    digests: [big.digest, unknown, small.digest],
  });
  assert.equal(plain.status, 200, plain.text);
  assert.deepEqual(plain.body, {
    tables: [
      { digest: big.digest, count: 1, storage_size_bytes: null },
      { digest: small.digest, count: 2, storage_size_bytes: null },
    ],
  });
  const sized = await t.post('/table/query_stats_batch', {
    project_id: P,
    digests: [small.digest, big.digest],
    include_storage_size: true,
  });
  // Sizes are the stored canonical JSON per position: {"s": 1} is 8 bytes, twice.
  assert.deepEqual(
    sized.body.tables.map((x: any) => x.storage_size_bytes),
    [16, `{"s": "${'x'.repeat(100)}"}`.length],
  );
  for (const digests of [[], null, undefined]) {
    assert.deepEqual((await t.post('/table/query_stats_batch', { project_id: P, digests })).body, { tables: [] });
  }
  for (const body of [
    { digests: [] },
    { project_id: P, digests: 'x' },
    { project_id: P, include_storage_size: 'yes' },
    { project_id: P, x: 1 },
  ]) {
    assert.equal((await t.post('/table/query_stats_batch', body)).status, 422, JSON.stringify(body));
  }
});

test('TableStore reads for refs: row digests in order (null when unknown) and rows by digest as JSON text', async () => {
  const { digest, row_digests } = await create(ROWS);
  const store = t.store.tables;
  assert.deepEqual(await store.getTableRowDigests(P, digest), row_digests);
  assert.equal(await store.getTableRowDigests(P, '4'.repeat(64)), null);
  assert.equal(await store.getTableRowDigests('other/p', digest), null);
  const rows = await store.getRows(P, [row_digests[1]!, row_digests[0]!, 'missing', row_digests[0]!]);
  assert.deepEqual([...rows.keys()].sort(), [row_digests[0], row_digests[1]].sort());
  assert.deepEqual(JSON.parse(rows.get(row_digests[1]!)!), { k: 'b' });
  assert.equal((await store.getRows('other/p', row_digests)).size, 0);
  assert.equal((await store.getRows(P, [])).size, 0);
});
