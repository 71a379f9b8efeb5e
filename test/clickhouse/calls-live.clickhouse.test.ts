// ClickHouse only: which calls are live is read from the calls table's live_until column
// (migration 3), which ClickHouse computes from each row. A database written before that
// migration answers the same before and after it (its old parts compute the column when read
// until the MATERIALIZE mutation has written it), and rows written after it carry it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chdbClient } from '../helpers/clickhouse-engine.js';
import { CLICKHOUSE_MIGRATIONS, migrateClickHouse } from '../../src/storage/clickhouse/engine/migrations/index.js';
import { createClickHouseCallStore } from '../../src/storage/clickhouse/calls/call-store.js';
import { selectRows } from '../../src/storage/clickhouse/engine/client.js';
import { compileCallsQuery } from '../../src/query/compile-calls-query.js';
import type { CallPart, CallStore } from '../../src/storage/calls/call-store.js';
import { nowMicros } from '../../src/time.js';

const P = 'e/live';
const HOUR = 3_600_000_000;
const FOREVER = 9223372036854775807n;

function start(id: string, startedAt: number, expireAt: number | null): CallPart {
  return {
    mode: 'start',
    start: {
      project_id: P,
      id,
      trace_id: `t-${id}`,
      parent_id: null,
      thread_id: null,
      turn_id: null,
      op_name: 'op',
      display_name: null,
      started_at: startedAt,
      attributes: '{}',
      inputs: '{}',
      input_refs: [],
      wb_user_id: null,
      wb_run_id: null,
      wb_run_step: null,
      expire_at: expireAt,
    },
  };
}

const end = (id: string, endedAt: number): CallPart => ({
  mode: 'end',
  end: {
    project_id: P,
    id,
    ended_at: endedAt,
    exception: null,
    output: '1',
    summary: '{}',
    output_refs: [],
    wb_run_step_end: null,
  },
});

/** The ids the store lists (sorted by start), a page of them (through the page bounds) and the count. */
async function listed(calls: CallStore): Promise<{ all: string[]; page: string[]; count: number }> {
  const ids = async (req: Parameters<typeof compileCallsQuery>[0]) => {
    const out: string[] = [];
    for await (const c of calls.query(compileCallsQuery(req))) out.push(c.id);
    return out;
  };
  return {
    all: await ids({ project_id: P, sort_by: [{ field: 'started_at', direction: 'asc' }] }),
    page: await ids({ project_id: P, sort_by: [{ field: 'started_at', direction: 'desc' }], limit: 2 }),
    count: (await calls.count(compileCallsQuery({ project_id: P }))).count,
  };
}

test("calls stored before migration 3 are listed the same after it; live_until is each row's liveness", async () => {
  const c = chdbClient();
  const db = `weft_test_${process.pid}_live`;
  await c.command({ query: `DROP DATABASE IF EXISTS ${db}` });
  await migrateClickHouse(
    c,
    db,
    undefined,
    CLICKHOUSE_MIGRATIONS.filter((m) => m.version < 3),
  );
  const calls = createClickHouseCallStore(c, db);
  const now = nowMicros();
  const t0 = now - 10 * HOUR;
  // live, deleted later, expired, expiring in an hour, ended without a start (not a call yet)
  await calls.writeParts([
    start('a-live', t0, null),
    start('b-deleted', t0 + 1, null),
    start('c-expired', t0 + 2, now - HOUR),
    start('d-expiring', t0 + 3, now + HOUR),
  ]);
  await calls.writeParts([end('a-live', t0 + 10), end('e-endonly', t0 + 20)]);
  assert.equal(await calls.delete(P, ['b-deleted'], now), 1);

  await migrateClickHouse(c, db);
  const expected = { all: ['a-live', 'd-expiring'], page: ['d-expiring', 'a-live'], count: 2 };
  assert.deepEqual(await listed(calls), expected);

  // Once the mutation has written the column into the old parts: the same answers.
  for (let i = 0; ; i++) {
    const [pending] = await selectRows<{ n: string }>(
      c,
      'SELECT count() AS n FROM system.mutations WHERE database = {d:String} AND NOT is_done',
      { d: db },
    );
    if (Number(pending!.n) === 0) break;
    assert.ok(i < 200, 'the MATERIALIZE COLUMN mutation did not finish in 10 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.deepEqual(await listed(calls), expected);

  // Each row's value: its expiry, the greatest Int64 without one, 0 without a start or once deleted.
  const rows = await selectRows<{ id: string; live: string }>(
    c,
    `SELECT id, toString(live_until) AS live FROM ${db}.calls FINAL WHERE project_id = {p:String} ORDER BY id`,
    { p: P },
  );
  assert.deepEqual(Object.fromEntries(rows.map((r) => [r.id, BigInt(r.live)])), {
    'a-live': FOREVER,
    'b-deleted': 0n,
    'c-expired': BigInt(now - HOUR),
    'd-expiring': BigInt(now + HOUR),
    'e-endonly': 0n,
  });

  // Rows written after the migration carry it: a new call is listed, a deleted one is not.
  await calls.writeParts([start('f-new', t0 + 4, null)]);
  assert.equal(await calls.delete(P, ['a-live'], nowMicros()), 1);
  assert.deepEqual(await listed(calls), { all: ['d-expiring', 'f-new'], page: ['f-new', 'd-expiring'], count: 2 });
  await c.command({ query: `DROP DATABASE ${db}` });
});
