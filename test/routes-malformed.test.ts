// Every JSON route of the route table, fed malformed bodies: always a 4xx JSON answer,
// never a 500, and nothing written.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ROUTES } from '../src/api/routes.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

// The key-administration routes are left to test/auth-*.test.ts: a valid body there creates
// a key, which turns the open test app into a keyed one for every later request.
const jsonRoutes = ROUTES.filter(
  (r) => r.body !== undefined && (r.requestBody ?? 'json') === 'json' && !r.path.startsWith('/admin/'),
);
const urlOf = (path: string) => path.replace(/:([a-z_]+)/g, 'x');

const BAD_BODIES: [string, string][] = [
  ['malformed JSON', '{"project_id": '],
  ['a JSON array', '[1, 2]'],
  ['a JSON string', '"hello"'],
  ['null', 'null'],
  ['an empty object', '{}'],
  ['an unknown top-level key', '{"project_id":"e/p","surely_not_a_field":1}'],
  ['wrongly typed fields', '{"project_id": 5, "id": [], "filter": "x", "batch": {}, "obj": 1, "payload": 2}'],
  ['a deeply nested object', `{"project_id":"e/p","x":${'['.repeat(2000)}${']'.repeat(2000)}}`],
];

test('the route table has the JSON routes of the issue', () => {
  assert.ok(jsonRoutes.length >= 20, `only ${jsonRoutes.length} JSON routes`);
});

for (const route of jsonRoutes) {
  test(`${route.method} ${route.path}: malformed bodies are 4xx JSON`, async () => {
    for (const [what, payload] of BAD_BODIES) {
      const res = await t.app.inject({
        method: route.method,
        url: urlOf(route.path),
        payload,
        headers: { 'content-type': 'application/json' },
      });
      assert.ok(
        res.statusCode >= 400 && res.statusCode < 500,
        `${what}: status ${res.statusCode} ${res.body.slice(0, 200)}`,
      );
      const body = JSON.parse(res.body);
      assert.ok(Array.isArray(body.detail) || typeof body.reason === 'string', `${what}: ${res.body.slice(0, 200)}`);
    }
  });
}

test('nothing was written by the malformed requests', async () => {
  const calls = await t.post('/calls/query_stats', { project_id: 'e/p' });
  assert.equal(calls.body.count, 0);
  const objs = await t.post('/objs/query', { project_id: 'e/p' });
  assert.deepEqual(objs.body.objs, []);
  const fb = await t.post('/feedback/query', { project_id: 'e/p' });
  assert.deepEqual(fb.body.result, []);
});
