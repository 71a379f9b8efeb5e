// Every resource of the Store is declared once (service/resources.ts) and each place that
// must know it does: `weft copy` has a step for each copied one, /metrics has each declared
// counter, the retention job purges each one that expires, and the engine's projectIds()
// finds a project that holds nothing but one row of it. SEED is keyed by the Store's resources:
// a new resource does not type-check here until it says how to store one row of it.
import { hexId, otlpJson } from './helpers/agent-spans.js';
import { prepareTurn, upsertBody } from './helpers/historical-turn.js';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { RESOURCES, PURGES, isSkip } from '../src/service/resources.js';
import { COPY_RESOURCES } from '../src/service/copy/store-copy.js';
import type { ResourceKey } from '../src/storage/store.js';
import { createKey } from '../src/service/auth/auth-keys.js';
import { OPEN_ACCESS } from '../src/service/auth/auth-access.js';
import { start } from './helpers/calls.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const t = await startTestApp();
after(() => t.close());

const ok = (r: { status: number; text: string }) => assert.equal(r.status, 200, r.text);

function multipartFile(projectId: string): { payload: string; type: string } {
  const b = 'weft-resources-boundary';
  const payload =
    `--${b}\r\nContent-Disposition: form-data; name="project_id"\r\n\r\n${projectId}\r\n` +
    `--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n` +
    `--${b}--\r\n`;
  return { payload, type: `multipart/form-data; boundary=${b}` };
}

/** Stores one row of each resource, in a project of its own, through the HTTP API. */
const SEED: { readonly [K in ResourceKey]: (t: TestApp, projectId: string) => Promise<void> } = {
  calls: async (t, p) => ok(await t.post('/call/start', { start: start({ project_id: p }) })),
  objects: async (t, p) => ok(await t.post('/obj/create', { obj: { project_id: p, object_id: 'o', val: { a: 1 } } })),
  feedback: async (t, p) =>
    ok(
      await t.post('/feedback/create', {
        project_id: p,
        weave_ref: `weave:///${p}/call/0193e6a4-0000-7000-8000-000000000000`,
        feedback_type: 'note',
        payload: { note: 'x' },
      }),
    ),
  tables: async (t, p) => ok(await t.post('/table/create', { table: { project_id: p, rows: [{ a: 1 }] } })),
  files: async (t, p) => {
    const { payload, type } = multipartFile(p);
    ok(await t.postRaw('/file/create', payload, type));
  },
  costs: async (t, p) =>
    ok(
      await t.post('/cost/create', {
        project_id: p,
        costs: { m: { prompt_token_cost: 1, completion_token_cost: 2, prompt_token_cost_unit: 'USD' } },
      }),
    ),
  projects: async (t, p) => ok(await t.post('/project/ttl_settings/update', { project_id: p, retention_days: 7 })),
  spans: async (t, p) => {
    const [entity, project] = p.split('/') as [string, string];
    const body = otlpJson({ 'wandb.entity': entity, 'wandb.project': project }, [
      { traceId: hexId(16), spanId: hexId(8), name: 'invoke_agent a', startMs: Date.now() },
    ]);
    ok(await t.postRaw('/agents/otel/v1/traces', body, 'application/json'));
  },
  historicalTurns: async (t, p) => {
    const ns = BigInt(Date.now()) * 1_000_000n;
    const turn = prepareTurn({
      projectId: p,
      conversationId: 'c',
      turnKey: 't',
      agentName: 'a',
      startNs: ns,
      endNs: ns + 1n,
    });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/agents/v1/historical-turns/${String(turn.logical_key)}`,
      payload: upsertBody(p, turn),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.statusCode, 201, res.body);
  },
  scoreJobs: async (t, p) => {
    const job = {
      project_id: p,
      monitor_id: 'm',
      monitor_digest: 'd',
      scorer_ref: `weave:///${p}/object/s:d`,
      target_kind: 'call' as const,
      target_id: 'c',
      created_at: Date.now() * 1000,
    };
    assert.equal(await t.store.scoreJobs.enqueue([job]), 1);
  },
  secrets: async (t) =>
    ok(await t.post('/admin/secrets/set', { entity: 'resources', name: 'RESOURCE_KEY', value: 'v' })),
  auth: async (t) => {
    await createKey(t.store.auth, { user: 'resources-user', entity: 'resources', role: 'reader' }, OPEN_ACCESS);
  },
};

test('projectIds() finds a project holding one row of any per-project resource, and only those', async () => {
  const projectOf = (k: string) => `resources/only-${k}`;
  for (const [k, seed] of Object.entries(SEED)) await seed(t, projectOf(k));
  const found = new Set(await t.store.projectIds());
  for (const [k, policy] of Object.entries(RESOURCES))
    assert.equal(
      found.has(projectOf(k)),
      policy.perProject,
      `${k}: projectIds() ${policy.perProject ? 'misses' : 'has'} it`,
    );
});

test('weft copy has exactly one step for each copied resource', () => {
  const steps = Object.values(RESOURCES).flatMap((p) => (isSkip(p.copy) ? [] : p.copy));
  assert.deepEqual([...steps].sort(), [...COPY_RESOURCES].sort());
});

test('every counter a resource declares is served by /metrics', async () => {
  const res = await t.get('/metrics');
  assert.equal(res.status, 200);
  for (const [k, p] of Object.entries(RESOURCES)) {
    if (isSkip(p.metrics)) continue;
    for (const name of p.metrics) assert.match(res.text, new RegExp(`^# TYPE ${name} `, 'm'), `${k}: ${name}`);
  }
});

test('the retention job purges every resource that expires; every exception says why', () => {
  assert.deepEqual(
    PURGES.map((p) => p.name),
    Object.entries(RESOURCES)
      .filter(([, p]) => !isSkip(p.purgeExpired))
      .map(([k]) => k),
  );
  assert.ok(PURGES.some((p) => p.name === 'calls'));
  for (const [k, p] of Object.entries(RESOURCES))
    for (const v of [p.copy, p.purgeExpired, p.metrics])
      if (isSkip(v)) assert.ok(v.skip.length > 10, `${k}: a skip needs its reason`);
});
