// The scoring queue's store on either engine: a job enqueued twice is one job; a claim takes
// due jobs for a lease, and two claimants never take the same job (on ClickHouse, two Weft
// servers on one database); an expired lease lets another claim it; a retry is due again
// later; finished jobs are never claimed again; counts by state and project.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { testEngine } from './helpers/clickhouse-engine.js';
import type { ScoreJobInput } from '../src/storage/signals/score-job-store.js';
import { scoreJobKey } from '../src/storage/signals/score-job-key.js';

const P = 'jobs/project';
const T0 = 1_790_000_000_000_000;
let t: TestApp;
/** A second server on the same database (ClickHouse), else the same app. */
let other: TestApp;
before(async () => {
  // No worker of their own: the test claims the jobs itself.
  t = await startTestApp({ signals: { concurrency: 0 } });
  other = testEngine() === 'clickhouse' ? await startTestApp({ replicaOf: t, signals: { concurrency: 0 } }) : t;
});
after(async () => {
  if (other !== t) await other?.close();
  await t?.close();
});

const job = (target: string, over: Partial<ScoreJobInput> = {}): ScoreJobInput => ({
  project_id: P,
  monitor_id: 'monitor',
  monitor_digest: 'digest-1',
  scorer_ref: `weave:///${P}/object/judge:abc`,
  target_kind: 'call',
  target_id: target,
  created_at: T0,
  ...over,
});

test('enqueue is idempotent per monitor version, scorer and target', async () => {
  assert.equal(await t.store.scoreJobs.enqueue([job('a'), job('b'), job('a')]), 2);
  assert.equal(await other.store.scoreJobs.enqueue([job('a'), job('b')]), 0);
  // Another version of the monitor scores the same target again.
  assert.equal(await t.store.scoreJobs.enqueue([job('a', { monitor_digest: 'digest-2' })]), 1);
  assert.deepEqual(await t.store.scoreJobs.counts(P), { queued: 3, running: 0, done: 0, failed: 0 });
  const got = await t.store.scoreJobs.get(scoreJobKey(job('a')));
  assert.equal(got?.state, 'queued');
  assert.equal(got?.target_id, 'a');
});

test('claims never overlap; a lease runs out; retry and finish', async () => {
  const targets = Array.from({ length: 12 }, (_, i) => `c${i}`);
  await t.store.scoreJobs.enqueue(targets.map((x) => job(x, { project_id: 'jobs/claims' })));
  const now = T0 + 1_000_000;
  const lease = 60_000_000;
  // Two claimants at once, as two servers would.
  const [a, b] = await Promise.all([
    t.store.scoreJobs.claim('server-a', now, lease, 50),
    other.store.scoreJobs.claim('server-b', now, lease, 50),
  ]);
  const keysA = new Set(a.map((j) => j.key));
  assert.ok(
    b.every((j) => !keysA.has(j.key)),
    'a job claimed twice',
  );
  const claimed = [...a, ...b].filter((j) => j.project_id === 'jobs/claims');
  assert.equal(claimed.length, targets.length, 'every due job claimed once');
  assert.ok(claimed.every((j) => j.state === 'running' && j.attempts === 1));

  // Nothing left to claim while the leases hold.
  assert.deepEqual(
    (await t.store.scoreJobs.claim('server-c', now + 1, lease, 50)).filter((j) => j.project_id === 'jobs/claims'),
    [],
  );
  const [first, second, third] = claimed;
  const ownerOf = (k: string) => (keysA.has(k) ? 'server-a' : 'server-b');
  await t.store.scoreJobs.finish(first!.key, ownerOf(first!.key), 'done', null, now + 2);
  await t.store.scoreJobs.finish(second!.key, ownerOf(second!.key), 'failed', 'judge said no', now + 2);
  await t.store.scoreJobs.retry(third!.key, ownerOf(third!.key), now + 10_000_000, 'provider 503', now + 2);
  // Only the owner can end a job.
  await t.store.scoreJobs.finish(third!.key, 'intruder', 'done', null, now + 3);
  assert.equal((await t.store.scoreJobs.get(third!.key))?.state, 'queued');
  assert.equal((await t.store.scoreJobs.get(third!.key))?.last_error, 'provider 503');
  assert.deepEqual(await t.store.scoreJobs.counts('jobs/claims'), { queued: 1, running: 9, done: 1, failed: 1 });

  // Past the leases: the nine running jobs and the retried one are claimable again; the ended ones never.
  const later = await t.store.scoreJobs.claim('server-c', now + lease + 20_000_000, lease, 50);
  const mine = later.filter((j) => j.project_id === 'jobs/claims');
  assert.equal(mine.length, 10);
  assert.ok(mine.every((j) => j.key !== first!.key && j.key !== second!.key));
  assert.equal(mine.find((j) => j.key === third!.key)?.attempts, 2);
});
