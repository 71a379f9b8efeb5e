// Fuzzes every JSON route of the route table with generated bodies (seeded: set
// WEFT_FUZZ_SEED to replay a run): malformed and truncated JSON, wrong types at every
// field of a valid body, 10,000-deep nesting, huge strings and arrays, unicode edge cases,
// odd numbers, prototype-pollution keys, key mutations and bodies just over the limit.
// Every answer must be a 2xx or a 4xx JSON error, never a 5xx or a hang, and the app must
// still answer afterwards.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ROUTES } from '../src/api/routes.js';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import {
  seedFixtures,
  validExamples,
  exampleFromSchema,
  type Example,
  type Fixtures,
} from './helpers/route-examples.js';
import {
  prng,
  pick,
  int,
  toJson,
  Entries,
  pathsOf,
  setAt,
  wrongValues,
  mutateKeys,
  damageText,
  withTimeout,
  UNICODE_STRINGS,
  NUMBER_TOKENS,
  PROTO_VALUES,
  deepArray,
  deepObject,
  deepMixed,
  type Rand,
} from './helpers/fuzz-gen.js';

const BODY_LIMIT = 64 * 1024;
const PER_ROUTE = Number(process.env.WEFT_FUZZ_PER_ROUTE ?? 100);
const TIMEOUT_MS = 15_000;
const SEED = process.env.WEFT_FUZZ_SEED ? Number(process.env.WEFT_FUZZ_SEED) : Date.now() % 2 ** 31;
console.log(`# fuzz seed ${SEED} (replay with WEFT_FUZZ_SEED=${SEED})`);

let t: TestApp;
let fx: Fixtures;
let examples: Record<string, Example>;
let sent = 0;
const statuses = new Map<number, number>();

before(async () => {
  t = await startTestApp({ bodyLimit: BODY_LIMIT });
  fx = await seedFixtures(t);
  examples = validExamples(fx);
});
after(async () => {
  console.log(
    `# fuzz sent ${sent} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
  );
  await t.close();
});

// The key-administration routes are left to test/auth-*.test.ts: a valid body there creates
// a key, which turns the open test app into a keyed one for every later request.
const jsonRoutes = ROUTES.filter(
  (r) => r.body !== undefined && (r.requestBody ?? 'json') === 'json' && !r.path.startsWith('/admin/'),
);
const keyOf = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

interface Case {
  what: string;
  payload: string | Buffer;
}

/** Generates about PER_ROUTE cases for one route: every field gets wrong types, then a random mix. */
function casesFor(r: Rand, ex: Example): Case[] {
  const valid = toJson(ex.body);
  const cases: Case[] = [{ what: 'the valid example', payload: valid }];
  const add = (what: string, body: unknown) => cases.push({ what, payload: toJson(body) });

  // Wrong types at every field (two random wrong values per path).
  for (const p of pathsOf(ex.body)) {
    for (let i = 0; i < 2; i++) {
      const v = pick(r, wrongValues(r));
      add(`wrong type at ${p.join('.')}`, setAt(ex.body, p, v));
    }
  }
  // Strings and numbers at every leaf: unicode edge cases and number tokens.
  const leaves = pathsOf(ex.body).filter((p) => {
    let n: any = ex.body;
    for (const k of p) n = n[k];
    return n === null || typeof n !== 'object';
  });
  for (const p of leaves) add(`unicode at ${p.join('.')}`, setAt(ex.body, p, pick(r, UNICODE_STRINGS)));
  // Fixed categories.
  add('deep array at the top', new Entries([...Object.entries(ex.body), ['deep', deepArray()]]));
  add('deep body', deepArray());
  add('deep object body', deepObject());
  cases.push({ what: 'deep unclosed', payload: '['.repeat(10_000) });
  cases.push({ what: 'deep unclosed object', payload: '{"a":'.repeat(10_000) });
  for (const pv of PROTO_VALUES)
    add(
      'prototype keys at the top',
      pv instanceof Entries
        ? new Entries([...Object.entries(ex.body), ...pv.entries])
        : { ...ex.body, ...(pv as object) },
    );
  cases.push({
    what: 'invalid UTF-8 bytes',
    payload: Buffer.concat([
      Buffer.from(`${valid.slice(0, -1)},"x":"`),
      Buffer.from([0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0x80]),
      Buffer.from('"}'),
    ]),
  });
  cases.push({
    what: 'just over the body limit',
    payload: `${valid.slice(0, -1)},"pad":"${'x'.repeat(BODY_LIMIT - valid.length)}"}`,
  });
  cases.push({ what: 'far over the body limit', payload: 'x'.repeat(BODY_LIMIT * 3) });
  cases.push({
    what: 'just under the body limit (huge string)',
    payload: setJsonPad(valid, BODY_LIMIT - valid.length - 200),
  });
  // Random fill.
  while (cases.length < PER_ROUTE) {
    const kind = int(r, 0, 6);
    const paths = pathsOf(ex.body);
    if (kind === 0) cases.push({ what: 'damaged JSON', payload: damageText(r, valid) });
    else if (kind === 1) add('key mutation', mutateKeys(r, mutateKeys(r, ex.body)));
    else if (kind === 2 && paths.length) {
      const p = pick(r, paths);
      add(`number at ${p.join('.')}`, setAt(ex.body, p, pick(r, NUMBER_TOKENS)));
    } else if (kind === 3 && paths.length) {
      const p = pick(r, paths);
      add(
        `huge array at ${p.join('.')}`,
        setAt(
          ex.body,
          p,
          Array.from({ length: int(r, 2000, 8000) }, () => pick(r, [1, 'a', null, {}, []])),
        ),
      );
    } else if (kind === 4 && paths.length) {
      const p = pick(r, paths);
      add(`deep at ${p.join('.')}`, setAt(ex.body, p, pick(r, [deepArray(), deepObject(), deepMixed()])));
    } else if (kind === 5 && paths.length) {
      const p = pick(r, paths);
      add(`proto at ${p.join('.')}`, setAt(ex.body, p, pick(r, PROTO_VALUES)));
    } else if (paths.length) {
      const p = pick(r, paths);
      const q = pick(r, paths);
      add(
        `two wrong values at ${p.join('.')} and ${q.join('.')}`,
        setAt(ex.body, p, pick(r, wrongValues(r)), [q, pick(r, wrongValues(r))]),
      );
    } else cases.push({ what: 'damaged JSON', payload: damageText(r, valid) });
  }
  return cases;
}

function setJsonPad(valid: string, n: number): string {
  return `${valid.slice(0, -1)},"pad":"${'y'.repeat(Math.max(0, n))}"}`;
}

function checkAnswer(
  c: Case,
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
): string | null {
  const s = res.statusCode;
  if (s >= 500) return `status ${s}: ${res.body.slice(0, 300)}`;
  if (s >= 200 && s < 300) return null;
  if (s < 400) return `unexpected status ${s}`;
  let body: any;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `status ${s} with a non-JSON body: ${res.body.slice(0, 200)}`;
  }
  if (!(Array.isArray(body?.detail) || typeof body?.reason === 'string'))
    return `status ${s} without detail/reason: ${res.body.slice(0, 200)}`;
  if (c.what.startsWith('just over') || c.what.startsWith('far over')) {
    if (s !== 413) return `over the body limit but status ${s}`;
  }
  return null;
}

let derived: string[] = [];
test('every JSON route has an example (hand-written, or derived from its schema)', (tt) => {
  derived = jsonRoutes.map(keyOf).filter((k) => !examples[k]);
  for (const route of jsonRoutes) {
    if (examples[keyOf(route)]) continue;
    // Routes newer than the hand-written examples: fuzzed from a schema-derived body.
    examples[keyOf(route)] = {
      method: route.method === 'PUT' ? 'PUT' : 'POST',
      url: route.path.replace(/:([a-z_]+)/g, 'x'),
      body: exampleFromSchema(route.body) as Record<string, unknown>,
    };
  }
  if (derived.length) tt.diagnostic(`no hand-written example, derived from the schema: ${derived.join(', ')}`);
  assert.ok(jsonRoutes.length >= 30, `only ${jsonRoutes.length} JSON routes`);
});

test('the valid examples are accepted (2xx, or the documented 404 for a missing file)', async () => {
  for (const [k, ex] of Object.entries(examples)) {
    if (derived.includes(k)) continue;
    const res = await t.app.inject({
      method: ex.method,
      url: ex.url,
      payload: toJson(ex.body),
      headers: { 'content-type': 'application/json' },
    });
    sent++;
    const ok =
      res.statusCode === 200 || ((k.includes('/content') || k.endsWith('/obj/delete')) && res.statusCode === 404);
    assert.ok(ok, `${k}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  }
});

jsonRoutes.forEach((route, ri) => {
  test(`fuzz ${keyOf(route)}`, async (tt) => {
    const ex = examples[keyOf(route)];
    assert.ok(ex, 'no example');
    const routeSeed = (SEED + ri * 7919) >>> 0;
    const cases = casesFor(prng(routeSeed), ex);
    const failures: string[] = [];
    for (const [i, c] of cases.entries()) {
      const res = await withTimeout(
        t.app.inject({
          method: ex.method,
          url: ex.url,
          payload: c.payload,
          headers: { 'content-type': 'application/json' },
        }),
        TIMEOUT_MS,
        `${keyOf(route)} case ${i} (${c.what}), seed ${SEED}`,
      );
      sent++;
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      const problem = checkAnswer(c, res);
      if (problem) {
        failures.push(`case ${i} (${c.what}): ${problem}\n    request: ${String(c.payload).slice(0, 300)}`);
      }
    }
    tt.diagnostic(`${cases.length} requests`);
    assert.equal(({} as any).polluted, undefined, 'Object.prototype was polluted');
    assert.deepEqual(failures, [], `seed ${SEED}: ${failures.length} of ${cases.length} failed`);
  });
});

// Deterministic reproductions of the bugs this fuzz once found (500s, now 4xx): kept as regressions.
const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const BUG_CASES: [string, string, () => string][] = [
  [
    'deep-nesting-500',
    '/call/start',
    () =>
      `{"start":{"project_id":"${PROJECT}","op_name":"op","started_at":"2026-01-01T00:00:00Z","attributes":{},"inputs":{"a":${deep(10_000)}}}}`,
  ],
  [
    'deep-nesting-500',
    '/call/end',
    () =>
      `{"end":{"project_id":"${PROJECT}","id":"${fx.callId}","ended_at":"2026-01-01T00:00:01Z","summary":{},"output":${deep(10_000)}}}`,
  ],
  [
    'deep-nesting-500',
    '/feedback/create',
    () =>
      `{"project_id":"${PROJECT}","weave_ref":"weave:///${PROJECT}/call/${fx.callId}","feedback_type":"note","payload":{"n":${deep(10_000)}}}`,
  ],
  ['huge-limit-500', '/objs/query', () => `{"project_id":"${PROJECT}","limit":9223372036854775808}`],
  ['huge-limit-500', '/calls/query', () => `{"project_id":"${PROJECT}","limit":18446744073709551616}`],
  ['huge-limit-500', '/feedback/query', () => `{"project_id":"${PROJECT}","offset":1e300}`],
  ['huge-limit-500', '/cost/query', () => `{"project_id":"${PROJECT}","limit":18446744073709551616}`],
  [
    'table-sort-control-char-500',
    '/table/query',
    () => `{"project_id":"${PROJECT}","digest":"${fx.tableDigest}","sort_by":[{"field":"\\u0000","direction":"asc"}]}`,
  ],
];
for (const [id, url, payload] of BUG_CASES) {
  test(`regression ${id}: ${url} answers 4xx, not 500`, async () => {
    const res = await t.postRaw(url, payload());
    sent++;
    assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${res.text.slice(0, 200)}`);
    assert.ok(typeof res.body.reason === 'string' || Array.isArray(res.body.detail), res.text.slice(0, 200));
  });
}

test('still healthy afterwards: /health and a valid /call/read', async () => {
  const health = await t.get('/health');
  assert.equal(health.status, 200);
  assert.deepEqual(health.body, { status: 'ok' });
  const read = await t.post('/call/read', { project_id: PROJECT, id: fx.callId });
  assert.equal(read.status, 200, read.text);
  assert.equal(read.body.call.id, fx.callId);
  const stats = await t.post('/calls/query_stats', { project_id: PROJECT });
  assert.equal(stats.status, 200);
  assert.ok(stats.body.count >= 1);
  assert.equal(({} as any).polluted, undefined);
});
