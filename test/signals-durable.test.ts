// The scoring queue outlives the server that filled it, on either engine: a server that runs no
// jobs queues the turns it sees; the next server on the same store (SQLite: the same data
// directory after a restart; ClickHouse: a replica on the same database) scores each once.
// On ClickHouse two replicas with workers of their own share one queue and score nothing twice.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentTurn, eventually, judgeProvider, publishJudge, publishMonitor, startJudge } from './helpers/signals.js';
import { PROJECT, startTestApp, type TestApp, type TestAppOptions } from './helpers/test-app.js';
import { testEngine } from './helpers/clickhouse-engine.js';

const TURN_ENDED = 'weave.genai.turn_ended';
const judge = await startJudge();
const secretsKey = randomBytes(32).toString('base64');
const dataDir = mkdtempSync(join(tmpdir(), 'weft-durable-'));
const apps: TestApp[] = [];
const open = async (o: TestAppOptions) => {
  const t = await startTestApp({ outboundAllowedHosts: [new URL(judge.url).host], secretsKey, ...o });
  apps.push(t);
  return t;
};
after(async () => {
  for (const t of apps) await t.close();
  judge.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const send = async (t: TestApp, body: string) => {
  const r = await t.postRaw('/agents/otel/v1/traces', body, 'application/json');
  assert.equal(r.status, 200, r.text);
};
const scoredTurns = async (t: TestApp) =>
  (
    await t.post('/feedback/query', {
      project_id: PROJECT,
      query: { $expr: { $eq: [{ $getField: 'feedback_type' }, { $literal: 'wandb.agent_monitor' }] } },
    })
  ).body.result as { weave_ref: string }[];

test('jobs queued by a server that stops are scored by the next, each once', async () => {
  const first = await open({ dataDir, signals: { concurrency: 0 } });
  await judgeProvider(first, judge);
  const scorer = await publishJudge(first, 'durable', 'custom::judges::grader', 'Rate {output_messages}');
  await publishMonitor(first, 'durable-monitor', [scorer], { op_names: [TURN_ENDED] });
  judge.verdict = JSON.stringify({ value: 1, reason: 'ok' });
  const turns = Array.from({ length: 5 }, (_, i) => agentTurn('keeper', `q${i}`, `a${i}`));
  for (const x of turns) await send(first, x.body);
  await eventually('5 queued', async () => ((await first.store.scoreJobs.counts(PROJECT)).queued === 5 ? true : null));
  assert.equal(judge.asked.length, 0);

  const clickhouse = testEngine() === 'clickhouse';
  if (!clickhouse) {
    await first.close();
    apps.splice(apps.indexOf(first), 1);
  }
  const next = await open(
    clickhouse ? { replicaOf: first, signals: { pollMs: 100 } } : { dataDir, signals: { pollMs: 100 } },
  );
  await eventually('5 done', async () => ((await next.store.scoreJobs.counts(PROJECT)).done === 5 ? true : null));
  // Sent again, the turns queue nothing new.
  for (const x of turns) await send(next, x.body);
  await new Promise((r) => setTimeout(r, 300));
  const rows = await scoredTurns(next);
  assert.deepEqual(
    rows.map((r) => r.weave_ref).sort(),
    turns.map((x) => `weave:///${PROJECT}/agent_turn/${x.traceId}`).sort(),
  );
  assert.equal(judge.asked.length, 5);
  assert.deepEqual(await next.store.scoreJobs.counts(PROJECT), { queued: 0, running: 0, done: 5, failed: 0 });
});

// Two SQLite servers on one file is no supported setup: this one is ClickHouse's alone.
if (testEngine() === 'clickhouse')
  test('two ClickHouse replicas with workers share the queue and score each turn once', async () => {
    const a = apps[0]!;
    const b = await open({ replicaOf: a, signals: { pollMs: 50, concurrency: 3 } });
    const c = await open({ replicaOf: a, signals: { pollMs: 50, concurrency: 3 } });
    const asked = judge.asked.length;
    const before = (await scoredTurns(b)).length;
    const turns = Array.from({ length: 12 }, (_, i) => agentTurn('shared', `q${i}`, `a${i}`));
    await Promise.all(turns.map((x, i) => send(i % 2 === 0 ? b : c, x.body)));
    await eventually(
      '17 done',
      async () => ((await b.store.scoreJobs.counts(PROJECT)).done === 17 ? true : null),
      60_000,
    );
    assert.equal(judge.asked.length - asked, 12, 'each turn judged once');
    assert.equal((await scoredTurns(c)).length - before, 12);
  });
