// The server side of the web UI through HTTP: the static files of a (fake) build at /ui/ with
// their caching and security headers, the client-side routes answering index.html, 503 while
// the UI is not built, the redirects from Weave-shaped links, and GET /ui/api/projects in
// open and keys mode. A temporary UI directory stands in for dist/ui, so no build is needed.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, bearer, type TestApp, type Reply } from './helpers/test-app.js';
import { start, end, startItem, endItem } from './helpers/calls.js';
import { createKey } from '../src/service/auth/auth-keys.js';
import { OPEN_ACCESS } from '../src/service/auth/auth-access.js';

const INDEX = '<!doctype html><title>Weft</title><script type="module" src="/ui/assets/app-abc123.js"></script>';
const SCRIPT = 'console.log("weft ui");\n';
const CSP =
  "default-src 'self'; img-src 'self' data: blob:; media-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; " +
  "script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
const IMMUTABLE = 'public, max-age=31536000, immutable';

let uiDir: string;
let emptyDir: string;
before(() => {
  uiDir = mkdtempSync(join(tmpdir(), 'weft-ui-'));
  mkdirSync(join(uiDir, 'assets'));
  writeFileSync(join(uiDir, 'index.html'), INDEX);
  writeFileSync(join(uiDir, 'assets', 'app-abc123.js'), SCRIPT);
  writeFileSync(join(uiDir, 'robots.txt'), 'User-agent: *\nDisallow: /\n');
  writeFileSync(join(uiDir, '.env'), 'SECRET=1\n');
  emptyDir = mkdtempSync(join(tmpdir(), 'weft-ui-empty-'));
});
after(() => {
  rmSync(uiDir, { recursive: true, force: true });
  rmSync(emptyDir, { recursive: true, force: true });
});

const head = async (t: TestApp, url: string) => t.app.inject({ method: 'HEAD', url });

function assertSecurityHeaders(r: Reply, what: string) {
  assert.equal(r.headers['content-security-policy'], CSP, what);
  assert.equal(r.headers['x-content-type-options'], 'nosniff', what);
  assert.equal(r.headers['referrer-policy'], 'no-referrer', what);
}
function assertPage(r: Reply, what: string) {
  assert.equal(r.status, 200, `${what}: ${r.text.slice(0, 200)}`);
  assert.match(String(r.headers['content-type']), /^text\/html/, what);
  assert.equal(r.headers['cache-control'], 'no-cache', what);
  assert.equal(r.text, INDEX, what);
  assertSecurityHeaders(r, what);
}
function assertRedirect(r: Reply, to: string) {
  assert.equal(r.status, 302, r.text);
  assert.equal(r.headers.location, to);
}

describe('static files, open mode', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ uiDir });
  });
  after(async () => {
    await t.close();
  });

  test('GET / redirects to /ui/', async () => {
    assertRedirect(await t.get('/'), '/ui/');
  });

  test('/ui, /ui/ and client-side routes answer index.html, revalidated, with the CSP', async () => {
    for (const path of [
      '/ui',
      '/ui/',
      '/ui/acme/proj/calls/abc?call=x',
      '/ui/acme/proj/calls',
      '/ui/acme/',
      '/ui/a.b/c.json',
    ]) {
      assertPage(await t.get(path), path);
    }
    const h = await head(t, '/ui/acme/proj');
    assert.equal(h.statusCode, 200);
    assert.equal(h.headers['content-security-policy'], CSP);
  });

  test('a hashed asset is served with its type, cached for a year as immutable', async () => {
    const r = await t.get('/ui/assets/app-abc123.js');
    assert.equal(r.status, 200, r.text);
    assert.match(String(r.headers['content-type']), /^(text|application)\/javascript/);
    assert.equal(r.headers['cache-control'], IMMUTABLE);
    assert.equal(r.text, SCRIPT);
    assertSecurityHeaders(r, 'asset');
  });

  test('another file of the UI directory is served as is, revalidated; dotfiles never', async () => {
    const r = await t.get('/ui/robots.txt');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^text\/plain/);
    assert.equal(r.headers['cache-control'], 'no-cache');
    assert.match(r.text, /Disallow/);
    assertPage(await t.get('/ui/.env'), 'a dotfile is a client route, not a file');
  });

  test('a missing asset is a JSON 404 like every Weft error, never index.html', async () => {
    for (const path of [
      '/ui/assets/app-nope.js',
      '/ui/assets/',
      '/ui/assets',
      '/ui/assets/sub/x.js',
      '/ui/assets/.hidden',
    ]) {
      const r = await t.get(path);
      assert.equal(r.status, 404, `${path}: ${r.text.slice(0, 200)}`);
      assert.equal(r.body.error_code, 'NOT_FOUND', path);
      assert.equal(r.body.error_type, 'NotFoundError', path);
      assert.match(r.body.reason, /No web UI file/, path);
      assertSecurityHeaders(r, path);
    }
  });

  test('paths escaping the UI directory serve nothing from outside it', async () => {
    for (const path of [
      '/ui/assets/..%2f..%2fpackage.json',
      '/ui/assets/%2e%2e/index.html',
      '/ui/..%2f..%2fpackage.json',
      '/ui/%2e%2e/%2e%2e/package.json',
    ]) {
      const r = await t.get(path);
      assert.ok(r.status === 404 || r.text === INDEX, `${path}: ${r.status} ${r.text.slice(0, 200)}`);
      assert.ok(!r.text.includes('"name"'), path);
    }
  });

  test('an unknown /ui/api/ endpoint is a JSON 404, not a page', async () => {
    for (const path of ['/ui/api/nope', '/ui/api', '/ui/api/projects/x']) {
      const r = await t.get(path);
      assert.equal(r.status, 404, path);
      assert.equal(r.body.error_code, 'NOT_FOUND', path);
    }
  });

  test("Weave-shaped links to a call redirect to the UI's call page", async () => {
    assertRedirect(await t.get('/acme/proj/weave/calls/0192-abc'), '/ui/acme/proj/calls/0192-abc');
    assertRedirect(await t.get('/acme/proj/r/call/0192-abc'), '/ui/acme/proj/calls/0192-abc');
    assertRedirect(await t.get('/my%20team/p%3Fx/r/call/id%2F1?x=1'), '/ui/my%20team/p%3Fx/calls/id%2F1');
    // An entity named like a route prefix still redirects.
    assertRedirect(await t.get('/traces/proj/weave/calls/abc'), '/ui/traces/proj/calls/abc');
    assertRedirect(await t.get('/v2/proj/r/call/abc'), '/ui/v2/proj/calls/abc');
  });

  test('the API routes are not shadowed by the UI routes', async () => {
    assert.deepEqual((await t.get('/health')).body, { status: 'ok' });
    assert.deepEqual((await t.get('/traces/health')).body, { status: 'ok' });
    assert.equal((await t.get('/tags?project_id=acme/proj')).status, 200);
    assert.equal((await t.get('/traces/aliases?project_id=acme/proj')).status, 200);
    assert.equal((await t.post('/calls/query_stats', { project_id: 'acme/proj' })).body.count, 0);
    assert.equal((await t.post('/acme/proj/weave/calls/abc', {})).status, 404, 'the redirects are GET only');
    const noUiApiUnderTraces = await t.get('/traces/ui/api/projects');
    assert.equal(noUiApiUnderTraces.status, 404, 'the UI API is not part of the trace server');
  });

  test('/openapi.json lists the /ui/api/ endpoints once and none of the static routes', async () => {
    const doc = (await t.get('/openapi.json')).body;
    const paths = Object.keys(doc.paths);
    assert.deepEqual(paths.filter((p) => p.includes('/ui')).sort(), [
      '/ui/api/call_paths',
      '/ui/api/calls/timeseries',
      '/ui/api/object_version_counts',
      '/ui/api/projects',
      '/ui/api/trace_tree',
    ]);
    assert.ok(doc.paths['/ui/api/trace_tree'].post.requestBody);
    const op = doc.paths['/ui/api/projects'].get;
    assert.equal(op.operationId, 'ui_projects');
    assert.deepEqual(op.tags, ['Web UI']);
    assert.ok(op.security, 'behind a key when keys exist');
    assert.ok(op.responses['200'].content['application/json'].schema.properties.projects);
    for (const p of ['/', '/{entity}/{project}/weave/calls/{id}', '/{entity}/{project}/r/call/{id}'])
      assert.ok(!paths.includes(p), p);
  });
});

describe('UI not built', () => {
  for (const [what, dir] of [
    ['an empty directory', () => emptyDir],
    ['no directory', () => null],
  ] as const) {
    test(`${what}: the pages and assets answer 503 JSON saying to build it`, async () => {
      const t = await startTestApp({ uiDir: dir() });
      try {
        for (const path of ['/ui', '/ui/', '/ui/acme/proj/calls/abc', '/ui/assets/app-abc123.js']) {
          const r = await t.get(path);
          assert.equal(r.status, 503, `${path}: ${r.text.slice(0, 200)}`);
          assert.equal(r.body.error_code, 'UNAVAILABLE');
          assert.match(r.body.reason, /web UI is not built/);
          assert.match(r.body.reason, /npm run build/);
          assert.equal(r.headers['retry-after'], undefined, 'waiting does not help');
          assertSecurityHeaders(r, path);
        }
        assertRedirect(await t.get('/'), '/ui/');
        assert.equal((await t.get('/ui/api/projects')).status, 200, 'the UI API does not need the build');
      } finally {
        await t.close();
      }
    });
  }
});

const T1 = '2026-03-01T10:00:00.000Z';
const T2 = '2026-03-02T11:30:00.123Z';
const T3 = '2026-03-05T08:15:42.500Z';
const LATER = '2026-03-09T00:00:00.000Z';

async function upsert(t: TestApp, project: string, startedAt: string): Promise<string> {
  const s = start({ project_id: project, started_at: startedAt });
  const r = await t.post('/call/upsert_batch', {
    batch: [startItem(s), endItem(end(s.id, { project_id: project, ended_at: startedAt }))],
  });
  assert.equal(r.status, 200, r.text);
  return s.id;
}

/** acme/alpha: 2 live calls (T1, T2) + 1 deleted (LATER); beta/b: 1 call (T3); gamma/objs: objects only. */
async function seedProjects(t: TestApp): Promise<void> {
  await upsert(t, 'acme/alpha', T1);
  await upsert(t, 'acme/alpha', T2);
  const gone = await upsert(t, 'acme/alpha', LATER);
  assert.equal((await t.post('/calls/delete', { project_id: 'acme/alpha', call_ids: [gone] })).body.num_deleted, 1);
  await upsert(t, 'beta/b', T3);
  assert.equal(
    (await t.post('/obj/create', { obj: { project_id: 'gamma/objs', object_id: 'cfg', val: { a: 1 } } })).status,
    200,
  );
  // Only deleted calls, only deleted objects, only expired calls: not listed.
  const deletedOnly = await upsert(t, 'acme/deleted', LATER);
  await t.post('/calls/delete', { project_id: 'acme/deleted', call_ids: [deletedOnly] });
  await t.post('/obj/create', { obj: { project_id: 'acme/objs-deleted', object_id: 'cfg', val: { a: 1 } } });
  assert.equal((await t.post('/obj/delete', { project_id: 'acme/objs-deleted', object_id: 'cfg' })).status, 200);
  assert.equal(
    (await t.post('/project/ttl_settings/update', { project_id: 'acme/expired', retention_days: 1 })).status,
    200,
  );
  await upsert(t, 'acme/expired', '2020-01-01T00:00:00Z');
  // acme/alpha also has objects: listed once.
  await t.post('/obj/create', { obj: { project_id: 'acme/alpha', object_id: 'cfg', val: { a: 2 } } });
}

describe('GET /ui/api/projects, open mode', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ uiDir });
    await seedProjects(t);
  });
  after(async () => {
    await t.close();
  });

  test('every project with live calls or objects, newest call first, objects-only last', async () => {
    const r = await t.get('/ui/api/projects');
    assert.equal(r.status, 200, r.text);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.deepEqual(r.body, {
      projects: [
        { project_id: 'beta/b', entity: 'beta', project: 'b', call_count: 1, last_call_at: T3 },
        { project_id: 'acme/alpha', entity: 'acme', project: 'alpha', call_count: 2, last_call_at: T2 },
        { project_id: 'gamma/objs', entity: 'gamma', project: 'objs', call_count: 0, last_call_at: null },
      ],
    });
  });

  test('ties on the newest call are ordered by project_id', async () => {
    await upsert(t, 'zeta/z', T3);
    await upsert(t, 'alef/a', T3);
    await t.post('/obj/create', { obj: { project_id: 'aaa/objs', object_id: 'o', val: 1 } });
    const ids = (await t.get('/ui/api/projects')).body.projects.map((p: { project_id: string }) => p.project_id);
    assert.deepEqual(ids, ['alef/a', 'beta/b', 'zeta/z', 'acme/alpha', 'aaa/objs', 'gamma/objs']);
  });
});

describe('keys mode', () => {
  let t: TestApp;
  let reader = '',
    scoped = '',
    stranger = '';
  before(async () => {
    t = await startTestApp({ uiDir });
    await seedProjects(t);
    await upsert(t, 'beta/other', T1);
    // Keys created after the data: from here on the app is keyed.
    const key = async (user: string, entity: string, project?: string) =>
      (await createKey(t.store.auth, { user, entity, role: 'reader', ...(project ? { project } : {}) }, OPEN_ACCESS))
        .key;
    reader = await key('rita', 'acme');
    scoped = await key('sam', 'beta', 'b');
    stranger = await key('nina', 'nobody');
  });
  after(async () => {
    await t.close();
  });

  test('without a key the project list is 401', async () => {
    const r = await t.get('/ui/api/projects');
    assert.equal(r.status, 401, r.text);
    assert.equal(r.body.error_code, 'UNAUTHORIZED');
    assert.equal(r.headers['www-authenticate'], 'Basic realm="weft"');
    assert.equal((await t.get('/ui/api/projects', bearer('weft_not-a-key'))).status, 401);
  });

  test('a key lists only the projects it may read', async () => {
    const ids = async (key: string) =>
      (await t.get('/ui/api/projects', bearer(key))).body.projects.map((p: { project_id: string }) => p.project_id);
    assert.deepEqual(await ids(reader), ['acme/alpha']);
    assert.deepEqual(await ids(scoped), ['beta/b']);
    assert.deepEqual(await ids(stranger), []);
  });

  test('the pages, assets and redirects load without a key (and ignore a bad one)', async () => {
    for (const headers of [{}, bearer('weft_not-a-key')]) {
      assertPage(await t.get('/ui/', headers), '/ui/');
      assertPage(await t.get('/ui/acme/alpha/calls/x?call=y', headers), 'client route');
      const js = await t.get('/ui/assets/app-abc123.js', headers);
      assert.equal(js.status, 200);
      assert.equal(js.text, SCRIPT);
      assert.equal((await t.get('/ui/assets/nope.js', headers)).status, 404);
      assertRedirect(await t.get('/', headers), '/ui/');
      assertRedirect(await t.get('/acme/alpha/r/call/abc', headers), '/ui/acme/alpha/calls/abc');
    }
    assert.equal((await head(t, '/ui/')).statusCode, 200);
  });

  test('the data API still wants a key', async () => {
    assert.equal((await t.post('/calls/query_stats', { project_id: 'acme/alpha' })).status, 401);
    assert.equal((await t.post('/calls/query_stats', { project_id: 'acme/alpha' }, bearer(reader))).body.count, 2);
  });
});
