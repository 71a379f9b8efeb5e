// The retention job: expired calls and the feedback attached to them are hard-deleted,
// in batches, by the background job the app starts; live calls and their feedback stay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { end, endItem, start, startItem } from './helpers/calls.js';
import { chdbClient, clickhouseDatabase } from './helpers/clickhouse-engine.js';
import { selectRows } from '../src/storage/clickhouse/engine/client.js';
import { startRetentionJob } from '../src/service/retention/retention-job.js';

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const callRef = (p: string, id: string) => `weave:///${p}/call/${id}`;

/** Rows of the calls table of a project, read from the engine as another process would. */
async function rawCallIds(t: TestApp, project: string): Promise<string[]> {
  const database = clickhouseDatabase(t.store);
  if (database !== null) {
    const rows = await selectRows<{ id: string }>(
      chdbClient(),
      `SELECT DISTINCT id FROM ${database}.calls WHERE project_id = {p:String} ORDER BY id`,
      { p: project },
    );
    return rows.map((r) => r.id);
  }
  const db = new Database(join(t.dataDir, 'weft.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT id FROM calls WHERE project_id = ? ORDER BY id').pluck().all(project) as string[];
  } finally {
    db.close();
  }
}

async function writeCalls(
  t: TestApp,
  project: string,
  startedMs: number,
  n: number,
  before?: (ids: string[]) => Promise<void>,
): Promise<string[]> {
  const starts = Array.from({ length: n }, () => start({ project_id: project, started_at: iso(startedMs) }));
  await before?.(starts.map((s) => s.id));
  const r = await t.post('/call/upsert_batch', {
    batch: starts.flatMap((s) => [startItem(s), endItem(end(s.id, { project_id: project }))]),
  });
  assert.equal(r.status, 200, r.text);
  return starts.map((s) => s.id);
}

async function feedbackOn(t: TestApp, project: string, id: string): Promise<void> {
  const r = await t.post('/feedback/create', {
    project_id: project,
    weave_ref: callRef(project, id),
    feedback_type: 'note',
    payload: { note: id },
  });
  assert.equal(r.status, 200, r.text);
}

const feedbackRefs = async (t: TestApp, project: string) => {
  const r = await t.post('/feedback/query', { project_id: project, fields: ['weave_ref'] });
  assert.equal(r.status, 200, r.text);
  return (r.body.result as { weave_ref: string }[]).map((f) => f.weave_ref).sort();
};

async function until(cond: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('the background job deletes expired calls and their feedback, and nothing else', async () => {
  const t = await startTestApp({ retentionIntervalMs: 10 });
  try {
    const p = 'ttl/job';
    await t.post('/project/ttl_settings/update', { project_id: p, retention_days: 1 });
    // The job runs every 10 ms: feedback on the calls that expire at once is written first.
    const withFeedback = async (ids: string[]) => {
      for (const id of ids) await feedbackOn(t, p, id);
    };
    await writeCalls(t, p, Date.now() - 2 * DAY_MS, 3, withFeedback);
    const live = await writeCalls(t, p, Date.now(), 2, withFeedback);
    // Feedback about something else than a call is kept.
    await t.post('/feedback/create', {
      project_id: p,
      weave_ref: `weave:///${p}/object/thing:abc`,
      feedback_type: 'note',
      payload: {},
    });

    await until(async () => (await rawCallIds(t, p)).length === live.length);
    assert.deepEqual(await rawCallIds(t, p), [...live].sort());
    assert.deepEqual(
      await feedbackRefs(t, p),
      [...live.map((id) => callRef(p, id)), `weave:///${p}/object/thing:abc`].sort(),
    );
    const stats = await t.post('/calls/query_stats', { project_id: p });
    assert.equal(stats.body.count, live.length);
  } finally {
    await t.close(); // stops the job: close must not hang or fail
  }
});

test('a pass deletes in batches until nothing expired is left; unexpired TTL calls wait', async () => {
  const t = await startTestApp();
  try {
    const p = 'ttl/batches';
    await t.post('/project/ttl_settings/update', { project_id: p, retention_days: 1 });
    const expired = [
      ...(await writeCalls(t, p, Date.now() - 5 * DAY_MS, 400)),
      ...(await writeCalls(t, p, Date.now() - 2 * DAY_MS, 130)),
    ];
    const live = await writeCalls(t, p, Date.now() - DAY_MS / 2, 20);
    for (const id of expired.slice(0, 5)) await feedbackOn(t, p, id);

    const job = startRetentionJob(t.store, { intervalMs: 0, batch: 100 });
    assert.equal(await job.runOnce(), expired.length);
    assert.equal(await job.runOnce(), 0, 'a second pass finds nothing');
    await job.stop();
    assert.deepEqual(await rawCallIds(t, p), [...live].sort());
    assert.deepEqual(await feedbackRefs(t, p), []);
  } finally {
    await t.close();
  }
});

test('the expiry index is used to find expired calls', async () => {
  const t = await startTestApp();
  try {
    const db = new Database(join(t.dataDir, 'weft.sqlite'), { readonly: true });
    try {
      const plan = db
        .prepare(
          'EXPLAIN QUERY PLAN SELECT rowid, project_id, id FROM calls WHERE expire_at IS NOT NULL AND expire_at <= ? ORDER BY expire_at LIMIT ?',
        )
        .all(1, 10) as { detail: string }[];
      assert.match(plan.map((r) => r.detail).join('\n'), /calls_expire/);
    } finally {
      db.close();
    }
  } finally {
    await t.close();
  }
});
