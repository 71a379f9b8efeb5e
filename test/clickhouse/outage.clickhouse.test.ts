// Durable acknowledgements on ClickHouse: while the server cannot be reached, ingest answers 503
// with Retry-After (never 500, never "200 then lost"); once it is back, every call that was
// acknowledged is there, complete, and the refused batches go through when retried.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../helpers/test-app.js';
import { clickhouseGate } from '../helpers/clickhouse-engine.js';
import { end, endItem, start, startItem } from '../helpers/calls.js';

// Read when each test app starts.
process.env.WEFT_TEST_ENGINE = 'clickhouse';

const P = 'ops/outage';

test('ClickHouse going away mid-ingest: 503s, and every acknowledged call is there afterwards', {
  timeout: 120_000,
}, async () => {
  const t = await startTestApp();
  const gate = clickhouseGate(t.store)!;
  try {
    const batches = Array.from({ length: 60 }, () =>
      Array.from({ length: 10 }, () => start({ project_id: P, inputs: { text: 'x'.repeat(200) } })),
    );
    const acknowledged: string[] = [];
    const refused: typeof batches = [];
    let statuses = new Map<number, number>();
    // Four clients send batches one after another; the server goes down after a while and comes back.
    let next = 0;
    const client = async () => {
      while (next < batches.length) {
        const batch = batches[next++]!;
        const r = await t.post('/call/upsert_batch', {
          batch: batch.flatMap((s) => [startItem(s), endItem(end(s.id, { project_id: P }))]),
        });
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 200) acknowledged.push(...batch.map((s) => s.id));
        else {
          assert.equal(r.status, 503, r.text);
          assert.ok(Number(r.headers['retry-after']) > 0);
          refused.push(batch);
        }
      }
    };
    const outage = (async () => {
      while (acknowledged.length < 100) await new Promise((r) => setTimeout(r, 5));
      gate.down();
      await new Promise((r) => setTimeout(r, 300));
      gate.up();
    })();
    await Promise.all([client(), client(), client(), client(), outage]);
    assert.ok((statuses.get(503) ?? 0) > 0, `some batches were refused: ${JSON.stringify([...statuses])}`);
    assert.ok(acknowledged.length >= 100);

    const stored = await t.post('/calls/query', {
      project_id: P,
      filter: { call_ids: acknowledged },
      columns: ['id', 'ended_at'],
    });
    assert.equal(stored.status, 200);
    assert.equal(stored.body.calls.length, acknowledged.length, 'every acknowledged call is stored');
    assert.ok(
      stored.body.calls.every((c: { ended_at: string | null }) => c.ended_at !== null),
      'and complete',
    );

    // The clients retry what was refused.
    statuses = new Map();
    for (const batch of refused) {
      const r = await t.post('/call/upsert_batch', {
        batch: batch.flatMap((s) => [startItem(s), endItem(end(s.id, { project_id: P }))]),
      });
      assert.equal(r.status, 200, r.text);
    }
    assert.equal((await t.post('/calls/query_stats', { project_id: P })).body.count, 600);
  } finally {
    gate.up();
    await t.close();
  }
});
