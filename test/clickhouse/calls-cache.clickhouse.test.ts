// Pages of calls sorted by start time on ClickHouse are read through the bound where the same
// page ended last time (clickhouse/calls/page-guess.ts), and, for pages of up to 1,000 calls, as ids
// and row versions first with the calls themselves from a cache of this process's
// (clickhouse/calls/call-cache.ts). Whatever changed since (a call ended, renamed, deleted; through
// this process or another), a page is what a read without either gives.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ClickHouseClient } from '@clickhouse/client';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { chdbClient, clickhouseDatabase } from '../helpers/clickhouse-engine.js';
import { end, endItem, start, startItem } from '../helpers/calls.js';
import { compileCallsQuery } from '../../src/query/compile-calls-query.js';
import { callPages } from '../../src/storage/clickhouse/calls/call-pages.js';
import { NO_LEAVES } from '../../src/storage/clickhouse/calls/call-select.js';

process.env.WEFT_TEST_ENGINE = 'clickhouse';
const a = await startTestApp();
/** A replica on the same database without the cache: what every page should be. */
const plain = await startTestApp({ replicaOf: a, callCacheBytes: 0 });
after(async () => {
  await plain.close();
  await a.close();
});
const database = clickhouseDatabase(a.store)!;

const T0 = Date.parse('2026-11-01T00:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

/** `n` roots one second apart from `from`, each with a child; every third root still running. */
async function store(project: string, from: number, n: number): Promise<string[]> {
  const roots = Array.from({ length: n }, (_, i) =>
    start({
      project_id: project,
      started_at: at(from + i),
      inputs: { q: `question ${i}`, nested: { k: i } },
      ...(i % 4 === 0 ? { display_name: `root ${i}` } : {}),
      ...(i % 5 === 0 ? { thread_id: 'th' } : {}),
    }),
  );
  const batch = roots.flatMap((r, i) => {
    const child = start({ project_id: project, trace_id: r.trace_id, parent_id: r.id, started_at: at(from + i) });
    const items = [startItem(r), startItem(child), endItem(end(child.id, { project_id: project, output: 'leaf' }))];
    if (i % 3 !== 0)
      items.push(
        endItem(end(r.id, { project_id: project, output: { answer: i }, summary: { usage: { m: { requests: 1 } } } })),
      );
    return items;
  });
  const r = await a.post('/call/upsert_batch', { batch });
  assert.equal(r.status, 200, r.text);
  return roots.map((r) => r.id);
}

async function calls(app: TestApp, body: Record<string, unknown>): Promise<unknown[]> {
  const r = await app.post('/calls/query', body);
  assert.equal(r.status, 200, r.text);
  return r.body.calls as unknown[];
}

/** The page read twice through the cached replica equals the page read without the cache. */
async function samePage(body: Record<string, unknown>, what: string): Promise<unknown[]> {
  const want = await calls(plain, body);
  assert.deepEqual(await calls(a, body), want, `${what}: first read`);
  assert.deepEqual(await calls(a, body), want, `${what}: read again`);
  return want;
}

// The window counts 300 rows meeting a page's start conditions (clickhouse/calls/started-window.ts):
// with fewer, a page is read unbounded, without the cache. Hence 320 roots (and their children).
const ROOTS = 320;

test('a page read again is the page a read without the cache gives, whatever columns, sizes, order and filter it asks for', async () => {
  const P = 'cache/shapes';
  await store(P, 0, ROOTS);
  const desc = { field: 'started_at', direction: 'desc' };
  const pages: [string, Record<string, unknown>][] = [
    ['newest 10, every column', { sort_by: [desc], limit: 10 }],
    ['the same page, two columns', { sort_by: [desc], limit: 10, columns: ['id', 'display_name'] }],
    [
      'with storage sizes',
      { sort_by: [desc], limit: 10, include_storage_size: true, include_total_storage_size: true },
    ],
    ['oldest first, an offset', { sort_by: [{ field: 'started_at', direction: 'asc' }], limit: 7, offset: 5 }],
    ['roots only', { sort_by: [desc], limit: 12, filter: { trace_roots_only: true } }],
    [
      'a thread, then by id',
      { sort_by: [desc, { field: 'id', direction: 'asc' }], limit: 4, filter: { thread_ids: ['th'] } },
    ],
    [
      'an output field',
      { sort_by: [desc], limit: 5, query: { $expr: { $gt: [{ $getField: 'output.answer' }, { $literal: 20 }] } } },
    ],
  ];
  for (const [what, body] of pages) {
    const page = await samePage({ project_id: P, ...body }, what);
    assert.ok(page.length > 0, `${what}: not empty`);
  }
  const narrow = (await calls(a, {
    project_id: P,
    sort_by: [desc],
    limit: 10,
    columns: ['id', 'display_name'],
  })) as Record<string, unknown>[];
  assert.deepEqual(narrow[0]!.inputs, {}, 'a column not asked for is not rendered, though the cache holds it');
  assert.equal(narrow[0]!.output, null);
});

test('calls changed since their page was read are read anew: ended, renamed, deleted, and written through another replica', async () => {
  const P = 'cache/changes';
  const ids = (await store(P, 1000, ROOTS)).slice(-12);
  const body = {
    project_id: P,
    sort_by: [{ field: 'started_at', direction: 'desc' }],
    limit: 5,
    filter: { trace_roots_only: true },
  };
  await samePage(body, 'before');
  // The newest root (index 11) is ended; 10 renamed; 9 (running) deleted; 8 ended through the other replica.
  assert.equal(
    (await a.post('/call/end', { end: end(ids[11]!, { project_id: P, output: 'late answer' }) })).status,
    200,
  );
  assert.equal(
    (await a.post('/call/update', { project_id: P, call_id: ids[10]!, display_name: 'renamed' })).status,
    200,
  );
  assert.equal((await a.post('/calls/delete', { project_id: P, call_ids: [ids[9]!] })).status, 200);
  assert.equal(
    (await plain.post('/call/update', { project_id: P, call_id: ids[8]!, display_name: 'from the other replica' }))
      .status,
    200,
  );
  const page = (await samePage(body, 'after')) as Record<string, unknown>[];
  assert.deepEqual(
    page.map((c) => c.id),
    [ids[11], ids[10], ids[8], ids[7], ids[6]],
  );
  assert.equal(page[0]!.output, 'late answer');
  assert.equal(page[1]!.display_name, 'renamed');
  assert.equal(page[2]!.display_name, 'from the other replica');
});

/** A client that records the statements it is asked (query and exec). */
function recording(asked: string[]): ClickHouseClient {
  return new Proxy(chdbClient(), {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if ((key !== 'query' && key !== 'exec') || typeof v !== 'function')
        return typeof v === 'function' ? v.bind(target) : v;
      return (o: { query: string }) => {
        asked.push(o.query);
        return (v as (x: unknown) => unknown).call(target, o);
      };
    },
  }) as ClickHouseClient;
}

test("a page read again asks only for its calls' ids and versions, within the last bound; a bound selecting too many rows, or a cache too small, changes only the statements", async () => {
  const P = 'cache/statements';
  await store(P, 2000, ROOTS);
  const q = compileCallsQuery({ project_id: P, sort_by: [{ field: 'started_at', direction: 'desc' }], limit: 10 });
  const want = (
    (await calls(plain, { project_id: P, sort_by: [{ field: 'started_at', direction: 'desc' }], limit: 10 })) as {
      id: string;
    }[]
  ).map((c) => c.id);
  const ids = async (pages: ReturnType<typeof callPages>) => (await pages(q, NO_LEAVES))?.map((c) => c.id);

  const asked: string[] = [];
  const cached = callPages(recording(asked), database, { cacheBytes: 1 << 20 });
  assert.deepEqual(await ids(cached), want);
  assert.equal(asked.length, 3, `the window, the ids and versions, the calls by id: ${asked.join('\n')}`);
  asked.length = 0;
  assert.deepEqual(await ids(cached), want);
  assert.equal(asked.length, 1, asked.join('\n'));
  assert.match(asked[0]!, /^SELECT calls\.id AS id, calls\.seq AS seq/);
  assert.match(asked[0]!, /started_at >= \{p\d+:Int64\}/);
  assert.match(asked[0]!, /max_rows_to_read = 200000/);

  // Every read selects at least a granule of rows: with a limit of 1 the remembered bound is refused.
  asked.length = 0;
  const capped = callPages(recording(asked), database, { cacheBytes: 1 << 20, guessedReadMaxRows: 1 });
  assert.deepEqual(await ids(capped), want);
  asked.length = 0;
  assert.deepEqual(await ids(capped), want, 'refused, the page is found through the window');
  assert.equal(asked.length, 3, asked.join('\n'));
  assert.match(asked[0]!, /max_rows_to_read = 1,/);
  assert.match(asked[1]!, /OFFSET/, 'the window');

  // A cache too small for one call: the page is read in full.
  asked.length = 0;
  const tiny = callPages(recording(asked), database, { cacheBytes: 100 });
  assert.deepEqual(await ids(tiny), want);
  assert.equal(asked.length, 4, `the window, the ids, the calls by id, the page in full: ${asked.join('\n')}`);
  assert.match(asked[3]!, /calls\.inputs AS inputs/);
});
