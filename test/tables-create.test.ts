// POST /table/create and /table/create_from_digests through HTTP: digests, content
// addressing and idempotency, expected_digest, atomicity, malformed bodies, and the TS
// SDK's Dataset flow replayed from the recorded captures.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { chdbClient, clickhouseDatabase } from './helpers/clickhouse-engine.js';
import { selectRows } from '../src/storage/clickhouse/engine/client.js';
import { startTestApp, PROJECT as P, type TestApp } from './helpers/test-app.js';
import { valDigest } from '../src/service/json/digest.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const EMPTY_TABLE = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const hex = (s: string) => createHash('sha256').update(s).digest('hex');

async function create(rows: unknown[], extra: Record<string, unknown> = {}, project = P) {
  const r = await t.post('/table/create', { table: { project_id: project, rows, ...extra } });
  assert.equal(r.status, 200, r.text);
  return r.body as { digest: string; row_digests: string[] };
}
const count = async (digest: string, project = P) =>
  (await t.post('/table/query_stats', { project_id: project, digest })).body.count as number;
/** How many rows / tables / entries the engine stores, read straight from its tables. */
async function stored(): Promise<{ rows: number; tables: number; entries: number }> {
  const ch = clickhouseDatabase(t.store);
  if (ch !== null) {
    const n = async (table: string) =>
      Number((await selectRows<{ n: string }>(chdbClient(), `SELECT count() AS n FROM ${ch}.${table}`))[0]!.n);
    return { rows: await n('table_rows'), tables: await n('tables'), entries: await n('table_entries') };
  }
  const db = new Database(join(t.dataDir, 'weft.sqlite'), { readonly: true });
  try {
    const n = (sql: string) => db.prepare(sql).pluck().get() as number;
    return {
      rows: n('SELECT COUNT(*) FROM table_rows'),
      tables: n('SELECT COUNT(*) FROM tables'),
      entries: n('SELECT COUNT(*) FROM table_entries'),
    };
  } finally {
    db.close();
  }
}

test('create: row digests are object digests of the rows, the table digest is hex SHA-256 of their concatenation', async () => {
  const rows = [{ b: 2, a: 'x' }, { nested: { z: [1, 2.5, null], y: true } }];
  const res = await create(rows);
  assert.deepEqual(Object.keys(res).sort(), ['digest', 'row_digests']);
  assert.deepEqual(res.row_digests, rows.map(valDigest));
  assert.equal(res.digest, hex(res.row_digests.join('')));
  assert.match(res.digest, /^[0-9a-f]{64}$/);
});

test('create: the empty table has the digest of SHA-256("")', async () => {
  const res = await create([]);
  assert.deepEqual(res, { digest: EMPTY_TABLE, row_digests: [] });
  assert.equal(await count(EMPTY_TABLE), 0);
  assert.deepEqual((await t.post('/table/query', { project_id: P, digest: EMPTY_TABLE })).body, { rows: [] });
});

test('create: idempotent; identical rows are stored once per project; duplicates keep their positions', async () => {
  const before = await stored();
  const rows = [{ q: 'dup' }, { q: 'other' }, { q: 'dup' }];
  const a = await create(rows);
  assert.equal(a.row_digests[0], a.row_digests[2]);
  const after1 = await stored();
  assert.deepEqual(
    [after1.rows - before.rows, after1.tables - before.tables, after1.entries - before.entries],
    [2, 1, 3],
  );
  const b = await create([{ q: 'dup' }, { q: 'other' }, { q: 'dup' }]);
  assert.deepEqual(b, a);
  assert.deepEqual(await stored(), after1, 'a retried create writes nothing');
  // Another table sharing rows stores only its new row.
  await create([{ q: 'other' }, { q: 'new' }]);
  assert.equal((await stored()).rows, after1.rows + 1);
  assert.equal(await count(a.digest), 3);
});

test('create: key order does not change a digest; the same rows in another project are another table', async () => {
  const a = await create([{ x: 1, y: 2 }]);
  const b = await create([{ y: 2, x: 1 }]);
  assert.deepEqual(b, a);
  const before = await stored();
  const other = await create([{ x: 1, y: 2 }], {}, 'other/project');
  assert.equal(other.digest, a.digest);
  assert.equal((await stored()).rows, before.rows + 1, 'rows are content-addressed per project');
  assert.equal(await count(a.digest, 'third/project'), 0);
});

test('create: expected_digest must match (409, nothing written); a matching or null one is accepted', async () => {
  const rows = [{ expected: 'check' }];
  const digest = hex(valDigest(rows[0]));
  const before = await stored();
  const bad = await t.post('/table/create', { table: { project_id: P, rows, expected_digest: 'f'.repeat(64) } });
  assert.equal(bad.status, 409, bad.text);
  assert.equal(bad.body.error_code, 'DIGEST_MISMATCH');
  assert.match(bad.body.reason, new RegExp(digest));
  assert.deepEqual(await stored(), before);
  assert.equal((await create(rows, { expected_digest: digest })).digest, digest);
  assert.equal((await create(rows, { expected_digest: null })).digest, digest);
});

test('create: rows must be JSON objects (422 with the row position)', async () => {
  for (const bad of [[1], ['row'], [null], [[1, 2]], [{ ok: 1 }, true]]) {
    const r = await t.post('/table/create', { table: { project_id: P, rows: bad } });
    assert.equal(r.status, 422, `${JSON.stringify(bad)}: ${r.text}`);
    assert.ok(Array.isArray(r.body.detail));
    assert.deepEqual(r.body.detail[0].loc.slice(0, 3), ['body', 'table', 'rows']);
  }
});

test('create: malformed bodies are 422 {"detail": [...]}; unknown keys inside `table` are ignored', async () => {
  const cases: unknown[] = [
    {},
    { table: {} },
    { table: { project_id: P } },
    { table: { rows: [] } },
    { table: { project_id: P, rows: {} } },
    { table: { project_id: 5, rows: [] } },
    { table: { project_id: P, rows: [], expected_digest: 5 } },
    { table: { project_id: P, rows: [] }, extra: 1 },
    { table: 'x' },
  ];
  for (const body of cases) {
    const r = await t.post('/table/create', body);
    assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.text}`);
    assert.ok(Array.isArray(r.body.detail) && r.body.detail.length > 0, r.text);
  }
  const extra = await t.post('/table/create', {
    table: { project_id: P, rows: [{ a: 'lenient' }], unknown_nested: true },
  });
  assert.equal(extra.status, 200, extra.text);
  const unknownTop = await t.post('/table/create', { table: { project_id: P, rows: [] }, wat: 1 });
  assert.deepEqual(unknownTop.body.detail[0], {
    loc: ['body', 'wat'],
    msg: 'Extra inputs are not permitted',
    type: 'extra_forbidden',
  });
});

test('create_from_digests: a table of rows the project already has; same digest as table/create', async () => {
  const made = await create([{ f: 1 }, { f: 2 }, { f: 3 }]);
  const order = [made.row_digests[2]!, made.row_digests[0]!, made.row_digests[2]!];
  const r = await t.post('/table/create_from_digests', { project_id: P, row_digests: order });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, { digest: hex(order.join('')) });
  const rows = (await t.post('/table/query', { project_id: P, digest: r.body.digest })).body.rows;
  assert.deepEqual(
    rows.map((x: any) => [x.val.f, x.original_index]),
    [
      [3, 0],
      [1, 1],
      [3, 2],
    ],
  );
  // Same rows through table/create: same digest, nothing new.
  assert.equal((await create([{ f: 3 }, { f: 1 }, { f: 3 }])).digest, r.body.digest);
  const again = await t.post('/table/create_from_digests', {
    project_id: P,
    row_digests: order,
    expected_digest: r.body.digest,
  });
  assert.deepEqual(again.body, r.body);
});

test('create_from_digests: unknown rows are a 400 naming them (never a 404: clients read that as no endpoint), nothing written', async () => {
  const made = await create([{ g: 1 }]);
  const missing = 'M'.repeat(43);
  const before = await stored();
  const r = await t.post('/table/create_from_digests', {
    project_id: P,
    row_digests: [made.row_digests[0], missing, missing],
  });
  assert.equal(r.status, 400, r.text);
  assert.equal(r.body.error_code, 'INVALID_REQUEST');
  assert.match(r.body.reason, new RegExp(`1 row digest\\(s\\) are not rows of project ${P}: ${missing}`));
  assert.deepEqual(r.body.missing_row_digests, [missing]);
  assert.deepEqual(await stored(), before);
  // A row of another project is not a row of this one.
  const elsewhere = await t.post('/table/create_from_digests', {
    project_id: 'other/proj2',
    row_digests: made.row_digests,
  });
  assert.equal(elsewhere.status, 400);
  const mismatch = await t.post('/table/create_from_digests', {
    project_id: P,
    row_digests: made.row_digests,
    expected_digest: 'nope',
  });
  assert.equal(mismatch.status, 409);
  for (const body of [
    { project_id: P },
    { row_digests: [] },
    { project_id: P, row_digests: [1] },
    { project_id: P, row_digests: [], x: 1 },
  ]) {
    assert.equal((await t.post('/table/create_from_digests', body)).status, 422, JSON.stringify(body));
  }
});

// ---- the SDK's own traffic ----

interface Captured {
  path?: string;
  body?: any;
  response?: { status: number; body?: any };
}
const DIR = join(import.meta.dirname, 'fixtures', 'sdk-captures');
const load = (file: string): Captured[] =>
  readFileSync(join(DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Captured)
    .filter((r) => r.path);

test('SDK Dataset flow (capture 06): recorded digests, then every row in insertion order', async () => {
  const app = await startTestApp();
  try {
    for (const r of load('06-dataset.jsonl')) {
      const res = await app.post(r.path!, r.body);
      assert.equal(res.status, 200, `${r.path}: ${res.text}`);
      if (r.path === '/table/create' || r.path === '/obj/create') {
        assert.equal(res.body.digest, r.response!.body.digest, `${r.path} digest matches the recorded server's`);
      }
      if (r.path === '/table/create') assert.deepEqual(res.body.row_digests, r.response!.body.row_digests);
      if (r.path === '/table/query') {
        const want = r.response!.body.rows as { digest: string; val: unknown }[];
        assert.equal(res.body.rows.length, want.length, 'all rows, no default limit');
        assert.deepEqual(
          res.body.rows.map((x: any) => ({ digest: x.digest, val: x.val })),
          want,
        );
        assert.deepEqual(
          res.body.rows.map((x: any) => x.original_index),
          want.map((_, i) => i),
        );
      }
      if (r.path === '/obj/read') assert.deepEqual(res.body.obj.val, r.response!.body.obj.val);
    }
  } finally {
    await app.close();
  }
});

test('every recorded successful table/create of every capture gets the recorded digests', async () => {
  let seen = 0;
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.jsonl'))) {
    for (const r of load(file)) {
      if (r.path !== '/table/create' || r.response?.status !== 200) continue;
      const res = await t.post(r.path, r.body);
      assert.equal(res.status, 200, `${file}: ${res.text}`);
      assert.deepEqual(res.body, r.response.body, file);
      seen++;
    }
  }
  assert.ok(seen >= 4, `only ${seen} recorded table creates`);
});
