// SQL-looking strings in every string field of calls, objects, feedback, tables and costs
// requests, in ids, `$getField` paths, sort_by fields, columns / expand_columns and filter
// lists: they are data (stored and returned unchanged) or a 4xx, never a 500, and every
// table of the database still exists and holds its rows afterwards.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { startTestApp, PROJECT, type TestApp, type Reply } from './helpers/test-app.js';
import { start, end, startItem, endItem, jsonl } from './helpers/calls.js';
import { seedFixtures, validExamples, type Fixtures } from './helpers/route-examples.js';
import { mapStrings, withTimeout } from './helpers/fuzz-gen.js';

const INJECTIONS: readonly string[] = [
  "' OR 1=1 --",
  "'; DROP TABLE calls; --",
  '"; DROP TABLE calls; --',
  "') UNION SELECT name, sql FROM sqlite_master --",
  ') UNION SELECT * FROM calls --',
  "$.x') --",
  "x' , json('{}')) --",
  '1; DELETE FROM objects; --',
  "\\' OR '1'='1",
  '`id`; DROP TABLE feedback --',
  "a]' OR [1]=[1",
  "%' OR '%'='",
  "'||(SELECT sql FROM sqlite_master LIMIT 1)||'",
  '"x"."y"',
  '?1 ?2 :a @b $c',
];

let t: TestApp;
let fx: Fixtures;
let tablesBefore: Map<string, number>;

function dbCounts(dataDir: string): Map<string, number> {
  const db = new Database(join(dataDir, 'weft.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const names = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as { name: string }[];
    return new Map(
      names.map(({ name }) => [
        name,
        (db.prepare(`SELECT count(*) AS n FROM "${name.replace(/"/g, '""')}"`).get() as { n: number }).n,
      ]),
    );
  } finally {
    db.close();
  }
}

const send = (path: string, body: unknown, method: 'POST' | 'PUT' = 'POST'): Promise<Reply> =>
  withTimeout(
    t.app
      .inject({ method, url: path, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
      .then((res) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(res.body);
        } catch {
          parsed = undefined;
        }
        return { status: res.statusCode, headers: res.headers, body: parsed, text: res.body };
      }),
    15_000,
    path,
  );

/** 2xx or a JSON 4xx; never a 5xx. */
function dataOrRejected(res: Reply, what: string): boolean {
  assert.ok(res.status < 500, `${what}: ${res.status} ${res.text.slice(0, 300)}`);
  if (res.status >= 400) {
    assert.ok(
      Array.isArray(res.body?.detail) || typeof res.body?.reason === 'string',
      `${what}: ${res.text.slice(0, 300)}`,
    );
    return false;
  }
  return true;
}

before(async () => {
  t = await startTestApp();
  fx = await seedFixtures(t);
  tablesBefore = dbCounts(t.dataDir);
});
after(async () => {
  await t.close();
});

test('calls: injection strings in every string field are stored and read back unchanged', async () => {
  for (const [i, s] of INJECTIONS.entries()) {
    const st = start({
      id: `${s}-${i}`,
      trace_id: `${s}-trace-${i}`,
      op: s,
      display_name: s,
      thread_id: s,
      turn_id: s,
      wb_run_id: s,
      inputs: { [s]: s, nested: { [s]: [s] } },
      attributes: { [s]: s },
    });
    const en = end(st.id, { output: { [s]: s }, exception: s, summary: { [s]: s } });
    const res = await send('/call/upsert_batch', { batch: [startItem(st), endItem(en)] });
    assert.equal(res.status, 200, `${s}: ${res.text}`);
    const read = await send('/call/read', { project_id: PROJECT, id: st.id });
    assert.equal(read.status, 200, read.text);
    const c = read.body.call;
    assert.ok(c, `call ${JSON.stringify(st.id)} not found`);
    assert.equal(c.id, st.id);
    assert.equal(c.trace_id, st.trace_id);
    assert.equal(c.op_name, s);
    assert.equal(c.display_name, s);
    assert.equal(c.thread_id, s);
    assert.equal(c.turn_id, s);
    assert.equal(c.wb_run_id, s);
    assert.equal(c.exception, s);
    assert.deepEqual(c.inputs, st.inputs);
    assert.deepEqual(c.output, en.output);
    assert.equal(c.attributes[s], s);
    assert.equal(c.summary[s], s);
    // Renaming to an injection string is data too.
    const upd = await send('/call/update', { project_id: PROJECT, call_id: st.id, display_name: `${s}!` });
    assert.equal(upd.status, 200, upd.text);
    assert.equal((await send('/call/read', { project_id: PROJECT, id: st.id })).body.call.display_name, `${s}!`);
  }
});

test('calls queries: injection in filter lists, $getField paths, $literal values, sort_by, columns, expand_columns', async () => {
  for (const [i, s] of INJECTIONS.entries()) {
    const id = `${s}-${i}`;
    // As filter values they match exactly the call stored under that id.
    for (const key of [
      'call_ids',
      'op_names',
      'thread_ids',
      'turn_ids',
      'wb_run_ids',
      'trace_ids',
      'parent_ids',
      'input_refs',
      'output_refs',
      'wb_user_ids',
    ]) {
      const values = key === 'call_ids' ? [id] : key === 'trace_ids' ? [`${s}-trace-${i}`] : [s];
      const res = await send('/calls/query', { project_id: PROJECT, filter: { [key]: values } });
      if (!dataOrRejected(res, `${key}=${s}`)) continue;
      const ids = res.body.calls.map((c: any) => c.id);
      if (key === 'call_ids' || key === 'trace_ids') assert.deepEqual(ids, [id], `${key} ${s}`);
      if (key === 'op_names' || key === 'thread_ids' || key === 'turn_ids' || key === 'wb_run_ids')
        assert.ok(ids.includes(id), `${key} ${s}: ${ids}`);
      if (key === 'parent_ids' || key === 'input_refs' || key === 'output_refs' || key === 'wb_user_ids')
        assert.deepEqual(ids, [], `${key} ${s} matched ${ids}`);
    }
    // $literal: equality on a stored value.
    const eq = await send('/calls/query', {
      project_id: PROJECT,
      query: { $expr: { $eq: [{ $getField: 'display_name' }, { $literal: `${s}!` }] } },
    });
    if (dataOrRejected(eq, `$literal ${s}`))
      assert.deepEqual(
        eq.body.calls.map((c: any) => c.id),
        [id],
      );
    const contains = await send('/calls/query_stats', {
      project_id: PROJECT,
      query: {
        $expr: { $contains: { input: { $getField: 'op_name' }, substr: { $literal: s }, case_insensitive: true } },
      },
    });
    if (dataOrRejected(contains, `$contains ${s}`)) assert.ok(contains.body.count >= 1, `$contains ${s}`);
    // $getField paths, sort_by fields, columns and expand_columns made of injection strings.
    for (const path of [s, `inputs.${s}`, `output.${s}`, `attributes.${s}`, `summary.${s}`, `inputs.nested.${s}`]) {
      const g = await send('/calls/query', {
        project_id: PROJECT,
        query: { $expr: { $eq: [{ $getField: path }, { $literal: s }] } },
      });
      if (dataOrRejected(g, `$getField ${path}`) && path === `inputs.${s}` && !/[.[\]]/.test(s)) {
        assert.ok(
          g.body.calls.some((c: any) => c.id === id),
          `$getField ${path} did not find ${id}`,
        );
      }
      dataOrRejected(
        await send('/calls/query', { project_id: PROJECT, sort_by: [{ field: path, direction: 'asc' }] }),
        `sort_by ${path}`,
      );
      dataOrRejected(
        await send('/calls/stream_query', {
          project_id: PROJECT,
          columns: ['id', path],
          expand_columns: [path],
          limit: 5,
        }),
        `columns ${path}`,
      );
      dataOrRejected(
        await send('/calls/query_stats', { project_id: PROJECT, expand_columns: [path] }),
        `expand_columns ${path}`,
      );
      dataOrRejected(
        await send('/calls/query', {
          project_id: PROJECT,
          query: { $expr: { $gt: [{ $convert: { input: { $getField: path }, to: 'double' } }, { $literal: 0 }] } },
        }),
        `$convert ${path}`,
      );
    }
  }
  // Deleting by an injection id deletes exactly that call.
  const victim = `${INJECTIONS[0]}-0`;
  const before = (await send('/calls/query_stats', { project_id: PROJECT })).body.count;
  const del = await send('/calls/delete', { project_id: PROJECT, call_ids: [victim, "' OR 1=1 --"] });
  assert.equal(del.status, 200, del.text);
  assert.equal((await send('/calls/query_stats', { project_id: PROJECT })).body.count, before - 1);
  assert.equal((await send('/call/read', { project_id: PROJECT, id: fx.callId })).body.call.id, fx.callId);
});

test('objects: injection strings as object ids, values, tags, aliases, filters and refs', async () => {
  for (const [i, s] of INJECTIONS.entries()) {
    const objectId = `${s}${i}`;
    const val = { [s]: s, list: [s], nested: { [s]: { [s]: i } } };
    const created = await send('/obj/create', { obj: { project_id: PROJECT, object_id: objectId, val } });
    if (!dataOrRejected(created, `obj/create ${objectId}`)) continue;
    const digest = created.body.digest;
    const read = await send('/obj/read', { project_id: PROJECT, object_id: objectId, digest });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.obj.object_id, objectId);
    assert.deepEqual(read.body.obj.val, val);
    const latest = await send('/obj/read', { project_id: PROJECT, object_id: objectId, digest: 'latest' });
    assert.equal(latest.body.obj.digest, digest);
    // Version selectors made of injection strings: not found, not everything.
    const bad = await send('/obj/read', { project_id: PROJECT, object_id: objectId, digest: s });
    assert.ok(bad.status === 404 || bad.status === 400, `digest ${s}: ${bad.status} ${bad.text.slice(0, 200)}`);
    const q = await send('/objs/query', { project_id: PROJECT, filter: { object_ids: [objectId] } });
    assert.equal(q.status, 200, q.text);
    assert.deepEqual(
      q.body.objs.map((o: any) => o.object_id),
      [objectId],
    );
    for (const f of ['base_object_classes', 'leaf_object_classes', 'exclude_base_object_classes', 'tags', 'aliases']) {
      dataOrRejected(await send('/objs/query', { project_id: PROJECT, filter: { [f]: [s] } }), `objs/query ${f} ${s}`);
    }
    dataOrRejected(
      await send('/objs/query', { project_id: PROJECT, sort_by: [{ field: s, direction: 'desc' }] }),
      `objs sort_by ${s}`,
    );
    // Tags and aliases (in the URL path and the body).
    const base = `/objs/${encodeURIComponent(objectId)}`;
    const tag = await send(`${base}/versions/${digest}/tags`, { project_id: PROJECT, tags: [s] }, 'PUT');
    if (dataOrRejected(tag, `tag ${s}`)) {
      const withTag = await send('/objs/query', {
        project_id: PROJECT,
        filter: { tags: [s] },
        include_tags_and_aliases: true,
      });
      assert.equal(withTag.status, 200, withTag.text);
      assert.ok(
        withTag.body.objs.some((o: any) => o.object_id === objectId && o.tags.includes(s)),
        `tag ${s} not found`,
      );
      const tags = await t.get(`/tags?project_id=${encodeURIComponent(PROJECT)}`);
      assert.ok(tags.body.tags.includes(s));
    }
    const alias = await send(`${base}/aliases`, { project_id: PROJECT, digest, aliases: [`${s}-alias`] }, 'PUT');
    if (dataOrRejected(alias, `alias ${s}`)) {
      const byAlias = await send('/obj/read', { project_id: PROJECT, object_id: objectId, digest: `${s}-alias` });
      assert.equal(byAlias.status, 200, byAlias.text);
      assert.equal(byAlias.body.obj.digest, digest);
    }
    const refs = await send('/refs/read_batch', {
      refs: [
        `weave:///${PROJECT}/object/${encodeURIComponent(objectId)}:${digest}`,
        `weave:///${PROJECT}/object/x:${s}`,
        s,
      ],
    });
    dataOrRejected(refs, `refs ${s}`);
  }
  // Deleting an injection-named object deletes only it.
  const del = await send('/obj/delete', { project_id: PROJECT, object_id: `${INJECTIONS[0]}0` });
  assert.ok(del.status === 200 || del.status === 404 || del.status === 400, del.text);
  const fixture = await send('/obj/read', { project_id: PROJECT, object_id: fx.objectId, digest: fx.objDigest });
  assert.equal(fixture.status, 200, fixture.text);
  const delMissing = await send('/obj/delete', { project_id: PROJECT, object_id: "' OR 1=1 --" });
  assert.ok(delMissing.status === 404, delMissing.text);
  assert.equal(
    (await send('/obj/read', { project_id: PROJECT, object_id: fx.objectId, digest: fx.objDigest })).status,
    200,
  );
});

test('feedback: injection strings in every field, fields, $getField, sort_by, purge', async () => {
  const ids: string[] = [];
  for (const s of INJECTIONS) {
    const body = {
      project_id: PROJECT,
      weave_ref: `weave:///${PROJECT}/call/${fx.callId}`,
      creator: s,
      feedback_type: s,
      payload: { [s]: s, note: s },
      queue_id: s,
      span_agent_name: s,
    };
    const res = await send('/feedback/create', body);
    if (!dataOrRejected(res, `feedback ${s}`)) continue;
    ids.push(res.body.id);
    const q = await send('/feedback/query', {
      project_id: PROJECT,
      query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: res.body.id }] } },
    });
    assert.equal(q.status, 200, q.text);
    assert.equal(q.body.result.length, 1);
    const row = q.body.result[0];
    assert.equal(row.feedback_type, s);
    assert.equal(row.creator, s);
    assert.deepEqual(row.payload, body.payload);
    const byType = await send('/feedback/query', {
      project_id: PROJECT,
      query: { $expr: { $eq: [{ $getField: 'feedback_type' }, { $literal: s }] } },
    });
    assert.equal(byType.status, 200, byType.text);
    assert.deepEqual(
      byType.body.result.map((r: any) => r.id),
      [res.body.id],
    );
    for (const path of [s, `payload.${s}`]) {
      dataOrRejected(await send('/feedback/query', { project_id: PROJECT, fields: ['id', path] }), `fields ${path}`);
      dataOrRejected(
        await send('/feedback/query', { project_id: PROJECT, sort_by: [{ field: path, direction: 'asc' }] }),
        `sort_by ${path}`,
      );
      dataOrRejected(
        await send('/feedback/query', {
          project_id: PROJECT,
          query: { $expr: { $eq: [{ $getField: path }, { $literal: s }] } },
        }),
        `$getField ${path}`,
      );
    }
    dataOrRejected(
      await send('/feedback/purge', {
        project_id: PROJECT,
        query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: s }] } },
      }),
      `purge ${s}`,
    );
    dataOrRejected(await send('/feedback/replace', { ...body, feedback_id: s }), `replace ${s}`);
  }
  const all = await send('/feedback/query', { project_id: PROJECT, fields: ['id'] });
  assert.equal(all.status, 200);
  const present = new Set(all.body.result.map((r: any) => r.id));
  for (const id of [fx.feedbackId, ...ids]) assert.ok(present.has(id), `feedback ${id} is gone`);
});

test('tables: injection strings in rows, sort_by paths and row-digest filters', async () => {
  for (const s of INJECTIONS) {
    const rows = [
      { [s]: s, k: 1 },
      { [s]: `${s}2`, k: 2, n: { [s]: s } },
    ];
    const created = await send('/table/create', { table: { project_id: PROJECT, rows } });
    assert.equal(created.status, 200, created.text);
    const q = await send('/table/query', { project_id: PROJECT, digest: created.body.digest });
    assert.equal(q.status, 200, q.text);
    assert.deepEqual(
      q.body.rows.map((r: any) => r.val),
      rows,
    );
    for (const field of [s, `n.${s}`, `${s}.x`]) {
      const sorted = await send('/table/query', {
        project_id: PROJECT,
        digest: created.body.digest,
        sort_by: [{ field, direction: 'desc' }],
      });
      if (dataOrRejected(sorted, `table sort_by ${field}`)) assert.equal(sorted.body.rows.length, 2);
      const stream = await send('/table/query_stream', {
        project_id: PROJECT,
        digest: created.body.digest,
        sort_by: [{ field, direction: 'asc' }],
      });
      if (dataOrRejected(stream, `table stream sort_by ${field}`)) assert.equal(jsonl(stream.text).length, 2);
    }
    dataOrRejected(
      await send('/table/query', { project_id: PROJECT, digest: created.body.digest, filter: { row_digests: [s] } }),
      `row_digests ${s}`,
    );
    dataOrRejected(await send('/table/query', { project_id: PROJECT, digest: s }), `table digest ${s}`);
    dataOrRejected(
      await send('/table/query_stats_batch', { project_id: PROJECT, digests: [s, created.body.digest] }),
      `stats_batch ${s}`,
    );
    dataOrRejected(
      await send('/table/create_from_digests', { project_id: PROJECT, row_digests: [s] }),
      `create_from_digests ${s}`,
    );
    dataOrRejected(
      await send('/table/update', { project_id: PROJECT, base_digest: s, updates: [{ append: { row: { [s]: s } } }] }),
      `update ${s}`,
    );
    const upd = await send('/table/update', {
      project_id: PROJECT,
      base_digest: created.body.digest,
      updates: [{ append: { row: { [s]: s } } }],
    });
    assert.equal(upd.status, 200, upd.text);
    const after = await send('/table/query', { project_id: PROJECT, digest: upd.body.digest });
    assert.deepEqual(
      after.body.rows.map((r: any) => r.val),
      [...rows, { [s]: s }],
    );
  }
  const fixture = await send('/table/query_stats', { project_id: PROJECT, digest: fx.tableDigest });
  assert.equal(fixture.body.count, 2);
});

test('costs: injection strings as llm ids, provider ids and query values', async () => {
  for (const s of INJECTIONS) {
    const created = await send('/cost/create', {
      project_id: PROJECT,
      costs: { [s]: { prompt_token_cost: 1, completion_token_cost: 2, provider_id: s, prompt_token_cost_unit: s } },
    });
    if (!dataOrRejected(created, `cost ${s}`)) continue;
    const q = await send('/cost/query', {
      project_id: PROJECT,
      query: { $expr: { $eq: [{ $getField: 'llm_id' }, { $literal: s }] } },
    });
    assert.equal(q.status, 200, q.text);
    assert.equal(q.body.results.length, 1, `cost for ${s}`);
    assert.equal(q.body.results[0].provider_id, s);
    dataOrRejected(
      await send('/cost/query', { project_id: PROJECT, fields: [s], sort_by: [{ field: s, direction: 'asc' }] }),
      `cost fields ${s}`,
    );
    dataOrRejected(
      await send('/cost/purge', {
        project_id: PROJECT,
        query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: s }] } },
      }),
      `cost purge ${s}`,
    );
  }
  const fixture = await send('/cost/query', {
    project_id: PROJECT,
    query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: fx.costId }] } },
  });
  assert.equal(fixture.body.results.length, 1);
});

test('every string of every valid example replaced by an injection string: never a 5xx', async () => {
  const examples = validExamples(fx);
  for (const [key, ex] of Object.entries(examples)) {
    for (const [i, s] of INJECTIONS.entries()) {
      const body = mapStrings(ex.body, (orig, path) =>
        path.join('.') === 'start.started_at' || path.join('.') === 'end.ended_at' ? orig : `${s}${i}`,
      );
      dataOrRejected(await send(ex.url, body, ex.method), `${key} with ${s}`);
      // One string at a time, the others kept valid.
      const one = mapStrings(ex.body, (orig, path) => (path.length === (i % 3) + 1 ? s : orig));
      dataOrRejected(await send(ex.url, one, ex.method), `${key} (one field) with ${s}`);
    }
  }
});

/** Queues the server empties itself: only their existence is checked. */
const QUEUES = new Set(['span_message_backlog']);

test('every table still exists and holds at least its rows', () => {
  const now = dbCounts(t.dataDir);
  for (const [name, n] of tablesBefore) {
    assert.ok(now.has(name), `table ${name} is gone`);
    if (!QUEUES.has(name)) assert.ok(now.get(name)! >= n, `table ${name}: ${now.get(name)} rows, had ${n}`);
  }
  const db = new Database(join(t.dataDir, 'weft.sqlite'), { readonly: true });
  try {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  } finally {
    db.close();
  }
});
