// Refs into table rows (`id` edges), through HTTP: /refs/read_batch and expand_columns.
// Tables are created with POST /table/create {table: {project_id, rows}} -> {digest, row_digests}.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { start, end, startItem, endItem, jsonl } from './helpers/calls.js';

const OTHER = 'test-entity/other-project';
let t: TestApp;
let table = { digest: '', rows: [] as string[] };
let dataset = '';
let tsRowRef = '';
const rows = [
  { q: 'one', a: 1, tags: ['x', 'y'] },
  { q: 'two', a: 2, tags: [] },
];

async function createTable(project: string, tableRows: unknown[]): Promise<{ digest: string; rows: string[] }> {
  const r = await t.post('/table/create', { table: { project_id: project, rows: tableRows } });
  assert.equal(r.status, 200, r.text);
  return { digest: r.body.digest, rows: r.body.row_digests };
}

async function createObj(objectId: string, val: unknown): Promise<string> {
  const r = await t.post('/obj/create', { obj: { project_id: PROJECT, object_id: objectId, val } });
  assert.equal(r.status, 200, r.text);
  return `weave:///${PROJECT}/object/${objectId}:${r.body.digest}`;
}

before(async () => {
  t = await startTestApp();
  table = await createTable(PROJECT, rows);
  tsRowRef = `weave:///${PROJECT}/table/${table.digest}/id/${table.rows[1]}`;
  dataset = await createObj('ds', {
    _type: 'Dataset',
    _class_name: 'Dataset',
    _bases: ['Object', 'BaseModel'],
    name: 'ds',
    rows: `weave:///${PROJECT}/table/${table.digest}`,
  });
});
after(async () => {
  await t.close();
});

async function vals(list: string[]): Promise<unknown[]> {
  const r = await t.post('/refs/read_batch', { refs: list });
  assert.equal(r.status, 200, r.text);
  return r.body.vals;
}

test('a Dataset row ref resolves to the row, and the walk continues inside it', async () => {
  const rowRef = (i: number) => `${dataset}/attr/rows/id/${table.rows[i]}`;
  assert.deepEqual(await vals([rowRef(0), rowRef(1)]), rows);
  assert.deepEqual(await vals([`${rowRef(0)}/key/q`, `${rowRef(0)}/key/tags/index/1`, `${rowRef(1)}/key/missing`]), [
    'one',
    'y',
    null,
  ]);
});

test('row digests that are not in the table read as null', async () => {
  const elsewhere = await createTable(PROJECT, [{ q: 'not in ds' }]);
  assert.deepEqual(
    await vals([`${dataset}/attr/rows/id/${elsewhere.rows[0]}`, `${dataset}/attr/rows/id/${'Z'.repeat(43)}`]),
    [null, null],
  );
});

test('TS SDK row refs (table/<digest>/id/<row>) held in an object are followed', async () => {
  const holder = await createObj('holder', { example: tsRowRef, examples: [tsRowRef] });
  assert.deepEqual(
    await vals([`${holder}/key/example`, `${holder}/key/example/key/q`, `${holder}/key/examples/index/0/key/a`]),
    [tsRowRef, 'two', 2],
  );
});

test('rows of another project are never reached through a nested ref', async () => {
  const foreign = await createTable(OTHER, [{ secret: true }]);
  const holder = await createObj('foreign-holder', { rows: `weave:///${OTHER}/table/${foreign.digest}` });
  assert.deepEqual(await vals([`${holder}/key/rows/id/${foreign.rows[0]}`]), [null]);
});

test('many row refs of one dataset are read in one request', async () => {
  const many = await createTable(
    PROJECT,
    Array.from({ length: 300 }, (_, i) => ({ i })),
  );
  const ds = await createObj('big-ds', { rows: `weave:///${PROJECT}/table/${many.digest}` });
  const got = await vals(many.rows.map((r) => `${ds}/attr/rows/id/${r}/key/i`));
  assert.deepEqual(
    got,
    Array.from({ length: 300 }, (_, i) => i),
  );
});

test('expand_columns follows the same walk, into table rows', async () => {
  const s = start({
    inputs: {
      example: `${dataset}/attr/rows/id/${table.rows[0]}`,
      ts_row: tsRowRef,
      q: `${dataset}/attr/rows/id/${table.rows[1]}/key/q`,
      gone: `${dataset}/attr/rows/id/${'Z'.repeat(43)}`,
    },
  });
  await t.post('/call/upsert_batch', { batch: [startItem(s), endItem(end(s.id))] });
  const r = await t.post('/calls/stream_query', {
    project_id: PROJECT,
    filter: { call_ids: [s.id] },
    expand_columns: ['inputs.example', 'inputs.ts_row', 'inputs.q', 'inputs.gone'],
  });
  assert.equal(r.status, 200, r.text);
  const [c] = jsonl(r.text);
  assert.deepEqual(c.inputs.example, { ...rows[0], _ref: s.inputs.example });
  assert.deepEqual(c.inputs.ts_row, { ...rows[1], _ref: tsRowRef });
  assert.equal(c.inputs.q, 'two');
  assert.equal(c.inputs.gone, s.inputs.gone, 'a row that cannot be read leaves the ref in place');
});
