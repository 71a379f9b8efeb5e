// Tags and aliases through HTTP, on the paths of the newest Weave server:
//   PUT  /objs/{object_id}/versions/{digest}/tags         {project_id, tags}
//   POST /objs/{object_id}/versions/{digest}/tags/remove  {project_id, tags}
//   PUT  /objs/{object_id}/aliases                        {project_id, digest, aliases}
//   POST /objs/{object_id}/aliases/remove                 {project_id, aliases}
//   GET  /tags?project_id=   -> {tags}      GET /aliases?project_id=  -> {aliases}
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, PROJECT as P, type Reply, type TestApp } from './helpers/test-app.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

async function create(objectId: string, val: unknown, project = P): Promise<string> {
  const r = await t.post('/obj/create', { obj: { project_id: project, object_id: objectId, val } });
  assert.equal(r.status, 200, r.text);
  return r.body.digest;
}
async function send(method: 'PUT' | 'POST', url: string, payload: unknown): Promise<Reply> {
  const res = await t.app.inject({ method, url, payload: payload as object });
  let body: any;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body, text: res.body };
}
const enc = encodeURIComponent;
const addTags = (id: string, digest: string, tags: unknown, project = P) =>
  send('PUT', `/objs/${enc(id)}/versions/${enc(digest)}/tags`, { project_id: project, tags });
const removeTags = (id: string, digest: string, tags: unknown) =>
  send('POST', `/objs/${enc(id)}/versions/${enc(digest)}/tags/remove`, { project_id: P, tags });
const setAliases = (id: string, digest: string, aliases: unknown, project = P) =>
  send('PUT', `/objs/${enc(id)}/aliases`, { project_id: project, digest, aliases });
const removeAliases = (id: string, aliases: unknown) =>
  send('POST', `/objs/${enc(id)}/aliases/remove`, { project_id: P, aliases });
const labels = async (id: string, digest: string) => {
  const o = (await t.post('/obj/read', { project_id: P, object_id: id, digest, include_tags_and_aliases: true })).body
    .obj;
  return { tags: o.tags, aliases: o.aliases };
};

test('tags: add (idempotent, answers {}), remove, and a missing tag or version on remove is fine', async () => {
  const d = await create('tagged', { n: 0 });
  const r = await addTags('tagged', d, ['b', 'a']);
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, {});
  assert.equal((await addTags('tagged', d, ['a', 'c'])).status, 200);
  assert.deepEqual((await labels('tagged', d)).tags, ['a', 'b', 'c']);
  const rm = await removeTags('tagged', d, ['b', 'not-there']);
  assert.deepEqual([rm.status, rm.body], [200, {}]);
  assert.deepEqual((await labels('tagged', d)).tags, ['a', 'c']);
  assert.equal((await removeTags('tagged', 'v42', ['a'])).status, 200);
});

test('tags: the version in the path may be latest or v<N>', async () => {
  await create('by-sel', { n: 0 });
  const d1 = await create('by-sel', { n: 1 });
  assert.equal((await addTags('by-sel', 'latest', ['newest'])).status, 200);
  assert.equal((await addTags('by-sel', 'v0', ['oldest'])).status, 200);
  assert.deepEqual((await labels('by-sel', d1)).tags, ['newest']);
  assert.deepEqual((await labels('by-sel', 'v0')).tags, ['oldest']);
});

test('tags on a missing or deleted version are a 404', async () => {
  assert.equal((await addTags('no-such-object', 'latest', ['x'])).status, 404);
  const d0 = await create('tag-deleted', { n: 0 });
  await create('tag-deleted', { n: 1 });
  await t.post('/obj/delete', { project_id: P, object_id: 'tag-deleted', digests: [d0] });
  const r = await addTags('tag-deleted', d0, ['x']);
  assert.equal(r.status, 404);
  assert.equal(r.body.reason, `Object version tag-deleted:${d0} not found`);
});

test('aliases: set, move to another version, remove; "latest" stays derived', async () => {
  const d0 = await create('aliased', { n: 0 });
  const d1 = await create('aliased', { n: 1 });
  const r = await setAliases('aliased', d0, ['prod', 'stable']);
  assert.deepEqual([r.status, r.body], [200, {}]);
  assert.deepEqual(await labels('aliased', d0), { tags: [], aliases: ['prod', 'stable'] });
  assert.deepEqual((await labels('aliased', d1)).aliases, ['latest']);
  assert.equal((await setAliases('aliased', d1, ['prod'])).status, 200);
  assert.deepEqual((await labels('aliased', d0)).aliases, ['stable']);
  assert.deepEqual((await labels('aliased', d1)).aliases, ['latest', 'prod']);
  assert.equal(
    (await t.post('/obj/read', { project_id: P, object_id: 'aliased', digest: 'prod' })).body.obj.digest,
    d1,
  );
  const rm = await removeAliases('aliased', ['prod', 'unknown']);
  assert.deepEqual([rm.status, rm.body], [200, {}]);
  assert.deepEqual((await labels('aliased', d1)).aliases, ['latest']);
  assert.equal((await t.post('/obj/read', { project_id: P, object_id: 'aliased', digest: 'prod' })).status, 404);
});

test('aliases: a missing version is a 404; reserved or ambiguous names are a 400', async () => {
  const d = await create('alias-rules', { n: 0 });
  assert.equal((await setAliases('alias-rules', 'v7', ['x'])).status, 404);
  assert.equal((await setAliases('missing-object', 'latest', ['x'])).status, 404);
  for (const bad of ['latest', 'v3', d, '', 'tab\there', 'x'.repeat(129)]) {
    const r = await setAliases('alias-rules', d, [bad]);
    assert.equal(r.status, 400, JSON.stringify(bad));
    assert.equal(r.body.error_code, 'INVALID_REQUEST');
  }
  assert.equal((await addTags('alias-rules', d, [''])).status, 400);
  assert.deepEqual(await labels('alias-rules', d), { tags: [], aliases: ['latest'] });
});

test("tag and alias names follow Weave's rules, with its messages (400, nothing stored)", async () => {
  const d = await create('name-rules', { n: 0 });
  const tagCases: [string, RegExp][] = [
    ['', /^tag name must not be empty$/],
    ['t'.repeat(257), /^tag name must be at most 256 characters$/],
    [
      'my.tag',
      /^tag name 'my.tag' is invalid: only alphanumeric characters, hyphens, underscores, and single spaces between words are allowed$/,
    ],
    ['two  spaces', /is invalid/],
    [' leading', /is invalid/],
    ["it's", /^tag name "it's" is invalid/],
  ];
  for (const [tag, message] of tagCases) {
    const r = await addTags('name-rules', d, ['fine', tag]);
    assert.equal(r.status, 400, JSON.stringify(tag));
    assert.match(r.body.reason, message);
  }
  for (const good of ['latest', 'v0', 'prod-ready', 'snake_case', 'two words', 'übersetzt', 'x'.repeat(256)]) {
    assert.equal((await addTags('name-rules', d, [good, good])).status, 200, good);
  }
  const aliasCases: [string, RegExp][] = [
    ['', /^alias name must not be empty$/],
    ['   ', /^alias name must not be whitespace-only$/],
    ['a'.repeat(129), /^alias name must be at most 128 characters$/],
    ['team/prod', /^alias name cannot contain character '\/'$/],
    ['prod:1', /^alias name cannot contain character ':'$/],
    ['v12', /^alias name 'v12' is reserved \(matches version pattern v<number>\)$/],
    ['latest', /^alias name 'latest' is reserved$/],
  ];
  for (const [alias, message] of aliasCases) {
    for (const r of [await setAliases('name-rules', d, [alias]), await removeAliases('name-rules', [alias])]) {
      assert.equal(r.status, 400, JSON.stringify(alias));
      assert.match(r.body.reason, message);
    }
  }
  for (const good of ['my-deploy.v2', 'has spaces', 'V1', 'a'.repeat(128)]) {
    assert.equal((await setAliases('name-rules', d, [good])).status, 200, good);
  }
  // Removing tags is not checked (as in Weave): removing a name that could never be set is a no-op.
  assert.equal((await removeTags('name-rules', d, ['my.tag'])).status, 200);
});

test('object ids with spaces, slashes and bangs work in the path when percent-encoded', async () => {
  const id = 'my op/v1 (beta)!';
  const d = await create(id, { op: true });
  assert.equal((await addTags(id, d, ['ok'])).status, 200);
  assert.equal((await setAliases(id, d, ['live'])).status, 200);
  assert.deepEqual(await labels(id, d), { tags: ['ok'], aliases: ['latest', 'live'] });
});

test('GET /tags and GET /aliases list the distinct, sorted names of a project', async () => {
  const project = 'lists/project';
  const a = await create('a', { n: 0 }, project);
  const b = await create('b', { n: 0 }, project);
  await addTags('a', a, ['zz', 'mm'], project);
  await addTags('b', b, ['mm', 'aa'], project);
  await setAliases('a', a, ['prod'], project);
  await setAliases('b', b, ['prod', 'dev'], project);
  const tags = await t.get(`/tags?project_id=${enc(project)}`);
  assert.equal(tags.status, 200);
  assert.deepEqual(tags.body, { tags: ['aa', 'mm', 'zz'] });
  const aliases = await t.get(`/aliases?project_id=${enc(project)}`);
  assert.deepEqual(aliases.body, { aliases: ['dev', 'latest', 'prod'] });
  assert.deepEqual((await t.get('/tags?project_id=empty/project')).body, { tags: [] });
  assert.deepEqual((await t.get('/aliases?project_id=empty/project')).body, { aliases: [] });
});

test('list routes without project_id are a 422 on the query parameter', async () => {
  for (const path of ['/tags', '/aliases', '/tags?project_id=']) {
    const r = await t.get(path);
    assert.equal(r.status, 422, path);
    assert.deepEqual(r.body.detail[0].loc, ['query', 'project_id']);
  }
});

test('malformed tag and alias bodies are 422s', async () => {
  const d = await create('bodies', { n: 0 });
  const cases: [Promise<Reply>, (string | number)[], string][] = [
    [send('PUT', `/objs/bodies/versions/${d}/tags`, { project_id: P }), ['body', 'tags'], 'missing'],
    [send('PUT', `/objs/bodies/versions/${d}/tags`, { project_id: P, tags: 'a' }), ['body', 'tags'], ''],
    [
      send('PUT', `/objs/bodies/versions/${d}/tags`, { project_id: P, tags: [], extra: 1 }),
      ['body', 'extra'],
      'extra_forbidden',
    ],
    [send('POST', `/objs/bodies/versions/${d}/tags/remove`, { tags: ['a'] }), ['body', 'project_id'], 'missing'],
    [send('PUT', '/objs/bodies/aliases', { project_id: P, aliases: ['a'] }), ['body', 'digest'], 'missing'],
    [send('POST', '/objs/bodies/aliases/remove', { project_id: P, aliases: [1] }), ['body', 'aliases', 0], ''],
  ];
  for (const [reply, loc, type] of cases) {
    const r = await reply;
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(r.body.detail[0].loc.slice(0, loc.length), loc, r.text);
    if (type) assert.equal(r.body.detail[0].type, type);
  }
  const raw = await t.app.inject({
    method: 'PUT',
    url: `/objs/bodies/versions/${d}/tags`,
    payload: '{"tags":',
    headers: { 'content-type': 'application/json' },
  });
  assert.ok(raw.statusCode >= 400 && raw.statusCode < 500);
  assert.equal(typeof JSON.parse(raw.body).reason, 'string');
});
