// Routes are registered once: api/routes.ts lists the groups, http/routes/index.ts binds each
// (a group without a binding does not type-check), bindRoute refuses a route outside the table,
// and every route of the table must be served here. Where a request names its projects is read
// from the route's schemas (http/route-projects.ts), so a body shape needs no edit elsewhere.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { ROUTE_GROUPS, ROUTES } from '../src/api/routes.js';
import { defineRoute, servedPaths } from '../src/api/route-spec.js';
import { callsRoutes } from '../src/api/calls.js';
import { bindRoute } from '../src/http/bind-route.js';
import { compileProjects, projectIdPaths } from '../src/http/route-projects.js';
import { ROUTE_BINDINGS } from '../src/http/routes/index.js';
import { startTestApp } from './helpers/test-app.js';

const t = await startTestApp();
after(() => t.close());

test('every route of the table is served at each of its paths', () => {
  const missing = ROUTES.flatMap((r) =>
    servedPaths(r)
      .filter((url) => !t.app.hasRoute({ method: r.method, url }))
      .map((url) => `${r.method} ${url}`),
  );
  assert.deepEqual(missing, []);
  assert.deepEqual(Object.keys(ROUTE_BINDINGS).sort(), Object.keys(ROUTE_GROUPS).sort());
});

test('a route outside the table cannot be bound', () => {
  const stray = defineRoute({
    access: 'read',
    id: 'stray',
    method: 'POST',
    path: '/stray',
    tag: 'x',
    summary: 'x',
    body: Type.Object({}),
    response: Type.Object({}),
  });
  assert.throws(() => bindRoute(Fastify(), stray, async () => ({})), /not in api\/routes\.ts/);
  // A route of the table binds.
  assert.doesNotThrow(() => bindRoute(Fastify(), callsRoutes.callRead, async () => ({})));
});

test("a request's projects are every project_id its route's schemas allow, the path's, and the listed refs", () => {
  const byPath = (id: string) => {
    const spec = ROUTES.find((r) => r.id === id);
    assert.ok(spec, id);
    return spec;
  };
  const upsert = compileProjects(byPath('call_start_batch'));
  const batch = [
    { mode: 'start', req: { start: { project_id: 'a/1' } } },
    { mode: 'end', req: { end: { project_id: 'a/2' } } },
  ];
  assert.deepEqual(upsert({ batch }, {}, {}).sort(), ['a/1', 'a/2']);
  assert.deepEqual(compileProjects(byPath('call_start'))({ start: { project_id: 'b/1' } }, {}, {}), ['b/1']);
  const refs = compileProjects(byPath('refs_read_batch'));
  assert.deepEqual(refs({ refs: ['weave:///c/1/object/x:abc', 'not a ref'] }, {}, {}), ['c/1']);
  const v2 = ROUTES.find((r) => r.path.startsWith('/v2/'));
  assert.ok(v2);
  assert.ok(compileProjects(v2)({ batch: [] }, {}, { entity: 'd', project: '1' }).includes('d/1'));
  // Every read or write route names a project somewhere, but for these.
  const NO_PROJECT: Record<string, string> = { '/graphql': 'W&B GraphQL answers about the caller and its entities' };
  for (const r of ROUTES) {
    if (NO_PROJECT[r.path] !== undefined) continue;
    const paths = [...projectIdPaths(r.body), ...projectIdPaths(r.querystring)];
    if ((r.access === 'read' || r.access === 'write') && r.requestBody !== 'multipart' && r.requestBody !== 'otlp')
      assert.ok(
        paths.length > 0 || r.params !== undefined || (r.projectRefs ?? []).length > 0 || r.method === 'GET',
        `${r.method} ${r.path} is a project route whose schemas name no project`,
      );
  }
});

test('a new body shape is checked with no edit to the guard: a project_id nested anywhere', () => {
  const spec = {
    body: Type.Object({
      spans: Type.Array(
        Type.Object({ resource: Type.Union([Type.Object({ project_id: Type.String() }), Type.Null()]) }),
      ),
    }),
  };
  assert.deepEqual(projectIdPaths(spec.body), [['spans', '[]', 'resource', 'project_id']]);
  const of = compileProjects(spec);
  assert.deepEqual(of({ spans: [{ resource: { project_id: 'e/1' } }, { resource: null }] }, {}, {}), ['e/1']);
});
