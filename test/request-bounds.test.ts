// No request freezes the server: every list a request takes is bounded in its schema, a body
// that stores nothing is at most 1 MiB, `$expr` is bounded in operands and depth (and what
// fits prints on the engine), GraphQL documents are bounded in tokens and fields. Each bound
// is a clear 4xx at once, and /health keeps answering meanwhile.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { TSchema } from 'typebox';
import { ROUTES } from '../src/api/routes.js';
import { adminRoutes } from '../src/api/admin.js';
import type { RouteSpec } from '../src/api/route-spec.js';
import {
  BOUNDED_BY_BODY,
  GRAPHQL_MAX_FIELDS,
  GRAPHQL_MAX_TOKENS,
  MAX_QUERY_DEPTH,
  MAX_QUERY_OPERANDS,
  QUERY_BODY_LIMIT,
} from '../src/api/limits.js';
import { startTestApp, PROJECT, type TestApp } from './helpers/test-app.js';
import { opRef, start } from './helpers/calls.js';

let t: TestApp;
let url: string;
before(async () => {
  t = await startTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  for (const op of ['alpha', 'beta', 'gamma']) {
    const r = await t.post('/call/start', { start: start({ op: opRef(op) }) });
    assert.equal(r.status, 200, r.text);
  }
});
after(async () => {
  await t.close();
});

const SPECS: readonly RouteSpec[] = [...ROUTES, ...Object.values(adminRoutes)];
const urlOf = (path: string) => path.replace(/:([a-z_]+)/g, 'x');

/** Every array schema under `schema`, with its path (shared schemas are visited at each place they appear). */
function arraysOf(
  schema: unknown,
  path: string,
  out: [string, Record<string, unknown>][] = [],
  stack = new Set<unknown>(),
): [string, Record<string, unknown>][] {
  if (typeof schema !== 'object' || schema === null || stack.has(schema)) return out;
  stack.add(schema);
  const s = schema as Record<string, unknown>;
  if (s.type === 'array') out.push([path, s]);
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties' || k === 'patternProperties')
      for (const [name, sub] of Object.entries(v as object)) arraysOf(sub, `${path}.${name}`, out, stack);
    else if (k === 'items' || k === 'additionalProperties') arraysOf(v, `${path}[]`, out, stack);
    else if ((k === 'anyOf' || k === 'oneOf' || k === 'allOf' || k === 'prefixItems') && Array.isArray(v))
      for (const sub of v) arraysOf(sub, path, out, stack);
  }
  stack.delete(schema);
  return out;
}

describe('lists and bodies', () => {
  test('every list a request takes has a bound: maxItems, or (data a write stores) the body limit', () => {
    let lists = 0;
    for (const spec of SPECS) {
      for (const part of ['body', 'querystring', 'params'] as const) {
        for (const [path, s] of arraysOf(spec[part] as TSchema | undefined, part)) {
          lists += 1;
          const where = `${spec.method} ${spec.path} ${path}`;
          if (s[BOUNDED_BY_BODY] === true)
            assert.ok(spec.carriesData, `${where}: bounded by the body limit, but the route stores nothing`);
          else assert.ok(typeof s.maxItems === 'number' && s.maxItems <= 100_000, `${where} has no maxItems`);
        }
      }
    }
    assert.ok(lists >= 40, `only ${lists} lists found: the walk is broken`);
  });

  test('a body that stores nothing is at most 1 MiB (413 before it is parsed); data routes take more', async () => {
    const pad = 'x'.repeat(QUERY_BODY_LIMIT);
    let checked = 0;
    for (const spec of SPECS.filter(
      (s) => s.body !== undefined && (s.requestBody ?? 'json') === 'json' && !s.carriesData,
    )) {
      const res = await t.app.inject({
        method: spec.method,
        url: urlOf(spec.path),
        payload: `{"pad":"${pad}"}`,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.statusCode, 413, `${spec.method} ${spec.path}: ${res.body.slice(0, 200)}`);
      assert.equal(JSON.parse(res.body).limit_bytes, QUERY_BODY_LIMIT);
      checked += 1;
    }
    assert.ok(checked >= 25, `only ${checked} routes`);
    const big = await t.post('/call/start', { start: start({ inputs: { text: pad } }) });
    assert.equal(big.status, 200, big.text.slice(0, 200));
    const obj = await t.post('/obj/create', { obj: { project_id: PROJECT, object_id: 'big', val: { text: pad } } });
    assert.equal(obj.status, 200, obj.text.slice(0, 200));
  });

  test('a list past its bound is a 400 naming the list and the bound (413 for /calls/delete, as Weave)', async () => {
    const many = (n: number, f: (i: number) => unknown = (i) => `v${i}`) => Array.from({ length: n }, (_, i) => f(i));
    const cases: [string, unknown, RegExp][] = [
      [
        '/calls/stream_query',
        { project_id: PROJECT, sort_by: many(101, () => ({ field: 'started_at', direction: 'asc' })) },
        /body\.sort_by: at most 100 are allowed \(101 given\)/,
      ],
      [
        '/calls/stream_query',
        { project_id: PROJECT, filter: { op_names: many(1001) } },
        /body\.filter\.op_names: at most 1000/,
      ],
      ['/calls/stream_query', { project_id: PROJECT, columns: many(1001) }, /body\.columns: at most 1000/],
      ['/refs/read_batch', { refs: many(1001) }, /body\.refs: at most 1000/],
      ['/obj/delete', { project_id: PROJECT, object_id: 'o', digests: many(101) }, /body\.digests: at most 100 /],
      [
        '/objs/query',
        { project_id: PROJECT, filter: { object_ids: many(1001) } },
        /body\.filter\.object_ids: at most 1000/,
      ],
      ['/feedback/query', { project_id: PROJECT, fields: many(101) }, /body\.fields: at most 100/],
      [
        '/threads/stream_query',
        { project_id: PROJECT, filter: { thread_ids: many(1001) } },
        /body\.filter\.thread_ids: at most 1000/,
      ],
      ['/table/query_stats_batch', { project_id: PROJECT, digests: many(10_001) }, /body\.digests: at most 10000/],
    ];
    for (const [path, body, reason] of cases) {
      const r = await t.post(path, body);
      assert.equal(r.status, 400, `${path}: ${r.text.slice(0, 300)}`);
      assert.equal(r.body.error_code, 'INVALID_REQUEST');
      assert.match(r.body.reason, reason);
    }
    for (const key of [
      'op_names',
      'input_refs',
      'output_refs',
      'parent_ids',
      'trace_ids',
      'call_ids',
      'thread_ids',
      'turn_ids',
      'wb_user_ids',
      'wb_run_ids',
    ]) {
      const r = await t.post('/calls/query_stats', { project_id: PROJECT, filter: { [key]: many(1001) } });
      assert.equal(r.status, 400, `${key}: ${r.text.slice(0, 200)}`);
      assert.match(r.body.reason, new RegExp(`body\\.filter\\.${key}: at most 1000 are allowed \\(1001 given\\)`));
      assert.equal(
        (await t.post('/calls/query_stats', { project_id: PROJECT, filter: { [key]: many(1000) } })).status,
        200,
        key,
      );
    }
    const del = await t.post('/calls/delete', { project_id: PROJECT, call_ids: many(1001) });
    assert.equal(del.status, 413, del.text);
    assert.match(del.body.reason, /body\.call_ids: at most 1000/);
  });
});

describe('$expr', () => {
  const count = async (expr: unknown) => t.post('/calls/query_stats', { project_id: PROJECT, query: { $expr: expr } });
  const opIs = (name: string) => ({ $eq: [{ $getField: 'op_name' }, { $literal: opRef(name) }] });
  const nots = (n: number, inner: unknown) => {
    let e = inner;
    for (let i = 0; i < n; i++) e = { $not: [e] };
    return e;
  };

  test('up to the bounds, the largest expressions run on the engine and answer exactly', async () => {
    // A flat $or of 666 comparisons (1999 operands), two of which match.
    const or = { $or: [...Array.from({ length: 664 }, (_, i) => opIs(`none${i}`)), opIs('alpha'), opIs('gamma')] };
    assert.deepEqual((await count(or)).body, { count: 2, total_storage_size_bytes: null });
    // 1996 literals and one comparison under one $and / $or: exactly MAX_QUERY_OPERANDS.
    const literals = (v: boolean) => Array.from({ length: MAX_QUERY_OPERANDS - 4 }, () => ({ $literal: v }));
    assert.equal((await count({ $and: [...literals(true), opIs('beta')] })).body.count, 1);
    assert.equal((await count({ $or: [...literals(false), opIs('beta')] })).body.count, 1);
    const inList = {
      $in: [
        { $getField: 'op_name' },
        [
          ...Array.from({ length: MAX_QUERY_OPERANDS - 3 }, (_, i) => ({ $literal: `x${i}` })),
          { $literal: opRef('alpha') },
        ],
      ],
    };
    assert.equal((await count(inList)).body.count, 1);
    // MAX_QUERY_DEPTH levels: 30 $not around a comparison and its two operands.
    const deep = await count(nots(MAX_QUERY_DEPTH - 2, opIs('alpha')));
    assert.equal(deep.status, 200, deep.text);
    assert.equal(deep.body.count, 1);
  });

  test('one operand or one level more is a 400 saying where; a huge one is refused as fast', async () => {
    const tooMany = await count({ $or: Array.from({ length: MAX_QUERY_OPERANDS }, () => ({ $literal: true })) });
    assert.equal(tooMany.status, 400);
    assert.match(
      tooMany.body.reason,
      new RegExp(
        `Query too large at \\$expr\\.\\$or\\[${MAX_QUERY_OPERANDS - 1}\\]: at most ${MAX_QUERY_OPERANDS} operands`,
      ),
    );
    const tooDeep = await count(nots(MAX_QUERY_DEPTH - 1, opIs('alpha')));
    assert.equal(tooDeep.status, 400);
    assert.match(tooDeep.body.reason, new RegExp(`Query nested too deeply at .*: at most ${MAX_QUERY_DEPTH} levels`));
    // 80,000 levels (just under 1 MiB): refused at level 33, no stack overflow, no 500.
    const levels = 80_000;
    const text = `{"project_id":"${PROJECT}","query":{"$expr":${'{"$not":['.repeat(levels)}{"$literal":true}${']}'.repeat(levels)}}}`;
    const r = await t.postRaw('/calls/query_stats', text);
    assert.equal(r.status, 400, r.text.slice(0, 200));
    for (const path of ['/feedback/query', '/calls/stream_query', '/ui/api/calls/timeseries']) {
      const f = await t.post(path, {
        project_id: PROJECT,
        query: { $expr: { $and: Array.from({ length: MAX_QUERY_OPERANDS }, () => ({ $literal: true })) } },
      });
      assert.equal(f.status, 400, `${path}: ${f.text.slice(0, 200)}`);
      assert.match(f.body.reason, /Query too large/);
    }
  });
});

describe('GraphQL', () => {
  const gql = (query: string, variables: Record<string, unknown> = {}) => t.post('/graphql', { query, variables });
  const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: viewer { id }`).join(' ')} }`;

  test('an amplified document is a 400 at once while /health keeps answering', async () => {
    const doc = aliases(20_000);
    assert.ok(doc.length < QUERY_BODY_LIMIT);
    const began = performance.now();
    const heavy = fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: doc }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any, ms: performance.now() - began }));
    const health = fetch(`${url}/health`).then((r) => ({ status: r.status, ms: performance.now() - began }));
    const [h, g] = await Promise.all([health, heavy]);
    assert.equal(g.status, 400);
    assert.match(g.body.reason, new RegExp(`GraphQL document too large: at most ${GRAPHQL_MAX_TOKENS} tokens`));
    assert.match(g.body.errors[0].message, /GraphQL document too large/);
    // Before the bound, 100,000 aliases took 4.9 s and held /health as long.
    assert.ok(g.ms < 1000, `the 400 took ${g.ms} ms`);
    assert.equal(h.status, 200);
    assert.ok(h.ms < 1000, `/health took ${h.ms} ms`);
  });

  test('too many fields (aliases, or fragments spread twice at every level) is a 400; the SDK documents still answer', async () => {
    // 120 aliases of two fields each: 720 tokens, 240 fields.
    const wide = await gql(aliases(120));
    assert.equal(wide.status, 400, wide.text.slice(0, 200));
    assert.match(wide.body.reason, new RegExp(`selects 240 fields, at most ${GRAPHQL_MAX_FIELDS}`));
    let bomb = 'fragment F0 on Query { viewer { id username } }\n';
    for (let i = 1; i <= 30; i++) bomb += `fragment F${i} on Query { ...F${i - 1} ...F${i - 1} }\n`;
    const fragments = await gql(`${bomb}{ ...F30 }`);
    assert.equal(fragments.status, 400, fragments.text.slice(0, 200));
    assert.equal((await gql(aliases(GRAPHQL_MAX_FIELDS / 2 - 1))).status, 200);
    const sdk = await gql('query DefaultEntity { viewer { id username defaultEntity { name } } }');
    assert.deepEqual(sdk.body, {
      data: { viewer: { id: 'local-user', username: 'local', defaultEntity: { name: 'local' } } },
    });
  });

  test('users(ids) takes at most 1000 ids (a GraphQL error, as any)', async () => {
    const r = await gql('query U($ids: [ID!]) { users(ids: $ids) { edges { node { id } } } }', {
      ids: Array.from({ length: 1001 }, (_, i) => `u${i}`),
    });
    assert.equal(r.status, 200);
    assert.match(r.body.errors[0].message, /users: at most 1000 ids/);
  });
});
