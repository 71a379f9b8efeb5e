// weave.init from the Python SDK, replayed request by request (weave/trace/weave_init.py,
// weave/compat/wandb/wandb_thin/internal_api.py, weave/wandb_interface/project_creator.py):
// with WANDB_BASE_URL pointing at Weft the SDK posts GraphQL to <base>/graphql and talks to the
// trace server at <base>/traces. Each step asserts what the SDK reads from the answer.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, LOCAL_USER, type TestApp } from './helpers/test-app.js';
import { GQL, pyHeaders } from './helpers/python-sdk.js';
import { ROUTES } from '../src/api/routes.js';

type Gql = { data?: any; errors?: { message: string }[] };

async function gql(t: TestApp, key: string | null, query: string, variables: Record<string, unknown> = {}) {
  const r = await t.post('/graphql', { query, variables }, pyHeaders(key));
  return { status: r.status, body: r.body as Gql, text: r.text };
}

/** The init sequence for "project" (no entity) or "entity/project"; returns the project_id the SDK then uses. */
async function init(t: TestApp, key: string | null, name: string): Promise<string> {
  let [entity, project] = name.includes('/') ? (name.split('/') as [string, string]) : [null, name];
  if (entity === null) {
    // DefaultEntity: the SDK reads viewer.defaultEntity.name and raises when it is missing.
    const r = await gql(t, key, GQL.defaultEntity);
    assert.equal(r.status, 200, r.text);
    entity = r.body.data.viewer.defaultEntity.name as string;
    assert.equal(typeof entity, 'string');
  }
  // GET {trace}/server_info must parse as ServerInfoRes (min_required_weave_python_version: str).
  const info = await t.get('/traces/server_info', pyHeaders(key));
  assert.equal(info.status, 200);
  assert.equal(typeof info.body.min_required_weave_python_version, 'string');
  // ensure_project_exists: Project, then UpsertModel when the project is null; the returned name wins.
  const p = await gql(t, key, GQL.project, { entityName: entity, name: project });
  assert.equal(p.status, 200, p.text);
  assert.equal(p.body.errors, undefined, p.text);
  if (p.body.data.project !== null) project = p.body.data.project.name;
  else {
    const u = await gql(t, key, GQL.upsertModel, { name: project, entity, description: null });
    assert.equal(u.status, 200, u.text);
    assert.equal(u.body.errors, undefined, u.text);
    project = u.body.data.upsertModel.model.name;
  }
  // get_username(): viewer.username (only a GraphQL-level error would be swallowed).
  const who = await gql(t, key, GQL.defaultEntity);
  assert.equal(typeof who.body.data.viewer.username, 'string');
  return `${entity}/${project}`;
}

describe('open mode', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t.close();
  });

  test('init("my-project"): the default entity is the local user; calls go to that entity', async () => {
    assert.equal(await init(t, null, 'my-project'), 'local/my-project');
    const r = await gql(t, null, GQL.defaultEntity);
    assert.deepEqual(r.body, { data: { viewer: { username: 'local', defaultEntity: { name: 'local' } } } });
  });

  test('init("team/my-project") makes no entity query and keeps the names', async () => {
    assert.equal(await init(t, 'any-key', 'team/my-project'), 'team/my-project');
  });

  test('users by id name the local user (call authors)', async () => {
    const r = await gql(t, null, GQL.usersByIds, { ids: [LOCAL_USER, 'nobody'] });
    assert.deepEqual(r.body, { data: { users: { edges: [{ node: { id: LOCAL_USER, username: 'local' } }] } } });
  });

  test('WEFT_DEFAULT_ENTITY names the default entity', async () => {
    const t2 = await startTestApp({ defaultEntity: 'acme' });
    try {
      assert.equal(await init(t2, null, 'p'), 'acme/p');
    } finally {
      await t2.close();
    }
  });

  test('GraphQL errors are GraphQL answers (200 with errors), never a 500; bad bodies are 422', async () => {
    for (const query of ['query {', 'query { project(name: "p") { artifact { id } } }', '{ nosuchfield }']) {
      const r = await gql(t, null, query);
      assert.equal(r.status, 200, r.text);
      assert.ok(r.body.errors && r.body.errors.length > 0 && typeof r.body.errors[0]!.message === 'string', r.text);
    }
    const missing = await gql(t, null, GQL.project, { entityName: 'e' });
    assert.equal(missing.status, 200);
    assert.match(missing.body.errors![0]!.message, /\$name/);
    const bad = await gql(t, null, GQL.upsertModel, { name: 'a/b', entity: 'e' });
    assert.match(bad.body.errors![0]!.message, /Invalid project name/);
    for (const body of [{}, { query: 5 }, { query: '' }, { query: '{ viewer { username } }', variables: 'x' }]) {
      const r = await t.post('/graphql', body);
      assert.equal(r.status, 422, JSON.stringify(body));
    }
    assert.equal((await t.postRaw('/graphql', '{"query": ')).status, 400);
  });

  test('every trace route is also served under /traces; GraphQL and admin only at the base; OpenAPI lists each once', async () => {
    assert.equal((await t.get('/traces/health')).status, 200);
    assert.equal((await t.post('/traces/calls/query_stats', { project_id: 'a/b' })).status, 200);
    assert.equal((await t.post('/traces/graphql', { query: GQL.defaultEntity })).status, 404);
    assert.equal((await t.post('/traces/admin/keys/list', {})).status, 404);
    const paths = Object.keys((await t.get('/openapi.json')).body.paths);
    assert.ok(paths.includes('/graphql') && paths.includes('/v2/{entity}/{project}/calls/complete'));
    assert.ok(!paths.some((p) => p.startsWith('/traces/')), 'no duplicates under /traces');
    assert.equal(paths.length, new Set(ROUTES.filter((r) => !r.hidden).map((r) => r.path)).size);
  });
});

describe('keys mode', () => {
  let t: TestApp;
  let writer: string, reader: string, scoped: string;
  before(async () => {
    t = await startTestApp({
      keys: [
        { user: 'wendy', entity: 'acme', role: 'writer' },
        { user: 'rita', entity: 'acme', role: 'reader' },
        { user: 'sam', entity: 'other', role: 'writer', project: 'only-this' },
      ],
    });
    [writer, reader, scoped] = t.keys.map((k) => k.key) as [string, string, string];
  });
  after(async () => {
    await t.close();
  });

  test('init("project") with a key: the key\'s user and the entity it holds a role on', async () => {
    assert.equal(await init(t, writer, 'new-project'), 'acme/new-project');
    const who = await gql(t, writer, GQL.defaultEntity);
    assert.deepEqual(who.body.data.viewer, { username: 'wendy', defaultEntity: { name: 'acme' } });
    // A key scoped to one project: its entity is still the default.
    assert.equal(await init(t, scoped, 'only-this'), 'other/only-this');
  });

  test('Bearer works as Basic does; no key or a wrong one is 401 before any GraphQL runs', async () => {
    const r = await t.post('/graphql', { query: GQL.defaultEntity }, { authorization: `Bearer ${reader}` });
    assert.equal(r.body.data.viewer.username, 'rita');
    assert.equal((await t.post('/graphql', { query: GQL.defaultEntity })).status, 401);
    assert.equal((await t.post('/graphql', { query: GQL.defaultEntity }, pyHeaders('weft_wrong'))).status, 401);
  });

  test("a reader sees the project but may not create one: W&B's permission error, not a 500", async () => {
    const p = await gql(t, reader, GQL.project, { entityName: 'acme', name: 'p1' });
    assert.deepEqual(p.body.data, { project: { name: 'p1' } });
    const u = await gql(t, reader, GQL.upsertModel, { name: 'p1', entity: 'acme' });
    assert.equal(u.status, 200);
    assert.equal(u.body.data.upsertModel, null);
    assert.match(u.body.errors![0]!.message, /permission denied: user rita may not write project acme\/p1/);
  });

  test('a project of an entity the key has no role on is null, and creating it is refused', async () => {
    assert.deepEqual((await gql(t, writer, GQL.project, { entityName: 'other', name: 'x' })).body.data, {
      project: null,
    });
    assert.deepEqual((await gql(t, scoped, GQL.project, { entityName: 'other', name: 'not-this' })).body.data, {
      project: null,
    });
    const u = await gql(t, writer, GQL.upsertModel, { name: 'x', entity: 'other' });
    assert.match(u.body.errors![0]!.message, /permission denied/);
  });

  test('entity(name).readOnly: false for writers of the whole entity, true for readers, null without a role', async () => {
    assert.deepEqual((await gql(t, writer, GQL.entity, { entityName: 'acme' })).body.data, {
      viewer: { username: 'wendy' },
      entity: { readOnly: false },
    });
    assert.deepEqual((await gql(t, reader, GQL.entity, { entityName: 'acme' })).body.data.entity, { readOnly: true });
    assert.equal((await gql(t, reader, GQL.entity, { entityName: 'other' })).body.data.entity, null);
  });

  test('users by id: names of stored users only', async () => {
    const ids = t.keys.map((k) => k.user_id);
    const r = await gql(t, reader, GQL.usersByIds, { ids: [...ids, 'user_nobody'] });
    const names = (r.body.data.users.edges as { node: { username: string } }[]).map((e) => e.node.username).sort();
    assert.deepEqual(names, ['rita', 'sam', 'wendy']);
  });
});
