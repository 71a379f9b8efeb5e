// Pages sorted by start time on ClickHouse are read through a window of the sort key, whose
// start is asked with this process's last answer as a guess (clickhouse/calls/started-window.ts).
// Whatever happened since that answer (newer calls, older calls, calls deleted or purged),
// the pages stay exactly the calls they should be, and the guess is what ClickHouse is asked
// first.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ClickHouseClient } from '@clickhouse/client';
import { startTestApp } from '../helpers/test-app.js';
import { chdbClient, clickhouseDatabase } from '../helpers/clickhouse-engine.js';
import { end, endItem, start, startItem } from '../helpers/calls.js';
import { compileCallsQuery } from '../../src/query/compile-calls-query.js';
import { startedWindow } from '../../src/storage/clickhouse/calls/started-window.js';
import { NO_LEAVES } from '../../src/storage/clickhouse/calls/call-select.js';

process.env.WEFT_TEST_ENGINE = 'clickhouse';
const t = await startTestApp();
after(() => t.close());
const database = clickhouseDatabase(t.store)!;

const T0 = Date.parse('2026-11-01T00:00:00Z');
/** Calls started `second` seconds after T0 (one each), ended, as roots of their own traces. */
async function store(project: string, seconds: readonly number[]): Promise<Map<string, number>> {
  const calls = seconds.map((s) => ({
    s,
    call: start({ project_id: project, started_at: new Date(T0 + s * 1000).toISOString() }),
  }));
  const r = await t.post('/call/upsert_batch', {
    batch: calls.flatMap(({ call }) => [startItem(call), endItem(end(call.id, { project_id: project }))]),
  });
  assert.equal(r.status, 200, r.text);
  return new Map(calls.map(({ s, call }) => [call.id, s]));
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

test('pages sorted by start time are the right calls after newer, older, deleted and purged calls', async () => {
  const P = 'window/guess';
  const second = await store(P, range(1000, 1800));
  /** The page as it should be, from what is live. */
  const want = (dir: 'asc' | 'desc', limit: number, offset: number, live: ReadonlySet<string>) =>
    [...second]
      .filter(([id]) => live.has(id))
      .sort((a, b) => (dir === 'desc' ? b[1] - a[1] : a[1] - b[1]))
      .slice(offset, offset + limit)
      .map(([id]) => id);
  const page = async (dir: 'asc' | 'desc', limit: number, offset: number) => {
    const r = await t.post('/calls/query', {
      project_id: P,
      columns: ['id'],
      sort_by: [{ field: 'started_at', direction: dir }],
      limit,
      offset,
    });
    assert.equal(r.status, 200, r.text);
    return r.body.calls.map((c: { id: string }) => c.id);
  };
  const live = new Set(second.keys());
  const check = async (when: string) => {
    for (const [dir, limit, offset] of [
      ['desc', 10, 0],
      ['desc', 30, 0],
      ['desc', 20, 30],
      ['asc', 10, 5],
    ] as const) {
      assert.deepEqual(
        await page(dir, limit, offset),
        want(dir, limit, offset, live),
        `${when}: ${dir} ${limit}+${offset}`,
      );
    }
  };
  await check('first answer');
  await check('asked again');

  // Newer and older calls than any before: both directions' pages move to them.
  for (const [id, s] of await store(P, [...range(2000, 2050), ...range(0, 50)])) {
    second.set(id, s);
    live.add(id);
  }
  await check('after newer and older calls');

  // The newest 140 deleted: each gets a second row, marked (merges are stopped so that it stays),
  // so the window of the newest 300 rows holds only 20 live calls, fewer than some pages.
  await chdbClient().command({ query: `SYSTEM STOP MERGES ${database}.calls` });
  const newest = [...live].sort((a, b) => second.get(b)! - second.get(a)!).slice(0, 140);
  assert.equal((await t.post('/calls/delete', { project_id: P, call_ids: newest })).status, 200);
  for (const id of newest) live.delete(id);
  await check('after deletions');

  // The newest 150 and oldest 150 live calls removed from the table, as a retention purge does:
  // fewer rows than the window counts (300) lie beyond either guess, more than that remain.
  const byStart = [...live].sort((a, b) => second.get(a)! - second.get(b)!);
  const purged = [...byStart.slice(0, 150), ...byStart.slice(-150)];
  assert.ok(byStart.length - purged.length >= 300);
  // (A delete is a mutation, which the merges run.)
  await chdbClient().command({ query: `SYSTEM START MERGES ${database}.calls` });
  await chdbClient().command({
    query: `DELETE FROM ${database}.calls WHERE project_id = {p:String} AND id IN {ids:Array(String)}`,
    query_params: { p: P, ids: purged },
  });
  for (const id of purged) live.delete(id);
  await check('after a purge');
});

test('the window is asked with the last answer as a guess first, and again without one when fewer rows lie beyond it', async () => {
  const P = 'window/statements';
  const second = await store(P, range(0, 700));
  const asked: string[] = [];
  const recording = new Proxy(chdbClient(), {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if (key !== 'query' || typeof v !== 'function') return typeof v === 'function' ? v.bind(target) : v;
      return (o: { query: string; query_params: Record<string, unknown> }) => {
        asked.push(`${o.query} ${JSON.stringify(o.query_params)}`);
        return (v as (x: unknown) => unknown).call(target, o);
      };
    },
  }) as ClickHouseClient;
  const bound = startedWindow(recording, database);
  const q = compileCallsQuery({ project_id: P, sort_by: [{ field: 'started_at', direction: 'desc' }], limit: 10 });
  const micros = (s: number) => (T0 + s * 1000) * 1000;

  // The 300th newest start (the window counts 3 pages, at least 300 rows).
  assert.deepEqual(await bound(q, NO_LEAVES), { op: '>=', at: micros(400) });
  assert.equal(asked.length, 1);
  assert.doesNotMatch(asked[0]!, /started_at >=/);

  await store(P, range(700, 750));
  asked.length = 0;
  assert.deepEqual(await bound(q, NO_LEAVES), { op: '>=', at: micros(450) });
  assert.equal(asked.length, 1, 'one question, with the guess');
  assert.match(asked[0]!, /started_at >= \{p\d+:Int64\}/);
  assert.ok(asked[0]!.includes(String(micros(400))), asked[0]);

  // Purged beyond the guess: fewer than 300 rows there, so it is asked again without it.
  const ids = [...second].filter(([, s]) => s >= 450 && s < 700).map(([id]) => id);
  await chdbClient().command({
    query: `DELETE FROM ${database}.calls WHERE project_id = {p:String} AND id IN {ids:Array(String)}`,
    query_params: { p: P, ids },
  });
  asked.length = 0;
  assert.deepEqual(await bound(q, NO_LEAVES), { op: '>=', at: micros(200) });
  assert.equal(asked.length, 2);
  assert.match(asked[0]!, /started_at >=/);
  assert.doesNotMatch(asked[1]!, /started_at >=/);
});
