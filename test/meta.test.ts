import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

test('GET /health answers ok', async () => {
  const r = await t.get('/health');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { status: 'ok' });
});

test('GET /server_info names a low minimum client version and the server version', async () => {
  const r = await t.get('/server_info');
  assert.equal(r.status, 200);
  assert.equal(r.body.min_required_weave_python_version, '0.0.1');
  assert.equal(r.body.trace_server_version, '0.1.0');
});

test('GET /openapi.json is an OpenAPI 3.1 document of version 0.1.0 listing every route', async () => {
  const r = await t.get('/openapi.json');
  assert.equal(r.status, 200);
  assert.equal(r.body.openapi, '3.1.0');
  assert.equal(r.body.info.version, '0.1.0');
  assert.ok(r.body.paths['/health'].get);
  assert.ok(r.body.components.schemas.HTTPValidationError);
});

test('an unknown route is a 404 with a JSON body', async () => {
  const r = await t.post('/no/such/route', {});
  assert.equal(r.status, 404);
  assert.match(r.body.reason, /No route POST \/no\/such\/route/);
});
