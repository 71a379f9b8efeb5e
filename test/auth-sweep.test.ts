// Every endpoint, called with a key of another entity: 403, nothing leaks, nothing is written.
// The bodies are the valid examples of the fuzz sweep, so a 403 is the access check's doing,
// not a validation error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ROUTES } from '../src/api/routes.js';
import { OPEN_ACCESS } from '../src/service/auth/auth-access.js';
import { createKey } from '../src/service/auth/auth-keys.js';
import { bearer, startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { exampleFromSchema, seedFixtures, validExamples, type Fixtures } from './helpers/route-examples.js';

let t: TestApp;
let fx: Fixtures;
let owner = '';
let outsider = '';

before(async () => {
  t = await startTestApp();
  fx = await seedFixtures(t);
  // Keys created after the fixtures: from here on the app is keyed.
  owner = (await createKey(t.store.auth, { user: 'owner', entity: PROJECT.split('/')[0]!, role: 'admin' }, OPEN_ACCESS))
    .key;
  outsider = (await createKey(t.store.auth, { user: 'outsider', entity: 'other-entity', role: 'admin' }, OPEN_ACCESS))
    .key;
});
after(async () => {
  await t.close();
});

const snapshot = async () => ({
  calls: (await t.post('/calls/query_stats', { project_id: PROJECT }, bearer(owner))).body,
  objs: (await t.post('/objs/query', { project_id: PROJECT }, bearer(owner))).body,
  feedback: (await t.post('/feedback/query', { project_id: PROJECT }, bearer(owner))).body,
  costs: (await t.post('/cost/query', { project_id: PROJECT }, bearer(owner))).body,
  table: (await t.post('/table/query_stats', { project_id: PROJECT, digest: fx.tableDigest }, bearer(owner))).body,
});

test('every project-scoped route answers 403 to a key of another entity, and nothing changes', async () => {
  const before = await snapshot();
  assert.equal(before.calls.count, 1);
  const examples = validExamples(fx);
  const secrets = [fx.callId, fx.objDigest, fx.feedbackId, fx.costId, fx.rowDigest, 'fixture'];
  let checked = 0;
  for (const route of ROUTES) {
    // GraphQL names no project in its request: its resolvers check access (graphql tests).
    // The UI's project list names none either: it lists only what the key may read (ui-server tests).
    // /metrics names none, and is open to this loopback caller (metrics-access tests).
    if (
      route.open ||
      route.path.startsWith('/admin/') ||
      route.path === '/graphql' ||
      route.path === '/ui/api/projects' ||
      route.access === 'monitor'
    )
      continue;
    const key = `${route.method} ${route.path}`;
    let res;
    if (route.method === 'GET') {
      res = await t.app.inject({
        method: 'GET',
        url: `${route.path}?project_id=${encodeURIComponent(PROJECT)}`,
        headers: bearer(outsider),
      });
    } else if (route.requestBody === 'multipart') {
      continue; // covered in auth-http.test.ts (form fields are checked as they stream in)
    } else {
      // Routes without a hand-written example get one built from their schema.
      const ex = examples[key] ?? {
        method: route.method === 'PUT' ? 'PUT' : 'POST',
        url: route.path.replace(/:([a-z_]+)/g, 'x'),
        body: { ...(exampleFromSchema(route.body) as Record<string, unknown>), project_id: PROJECT },
      };
      res = await t.app.inject({
        method: ex.method,
        url: ex.url,
        payload: ex.body,
        headers: { ...bearer(outsider), 'content-type': 'application/json' },
      });
    }
    assert.equal(res.statusCode, 403, `${key}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    const body = JSON.parse(res.body);
    assert.equal(body.error_code, 'FORBIDDEN');
    for (const secret of secrets) assert.ok(!res.body.includes(secret), `${key} leaked ${secret}`);
    checked++;
  }
  assert.ok(checked >= 35, `only ${checked} routes checked`);
  assert.deepEqual(await snapshot(), before, 'nothing was written or deleted');
});
