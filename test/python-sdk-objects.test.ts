// The Python SDK's other flows, replayed with its request shapes (weave_client.py,
// stainless_remote_http_trace_server.py): weave.publish of an object and a dataset and
// ref().get() of both; an evaluation whose scorer results go out through
// /feedback/batch/create; threads; project and file stats. Each asserts what the SDK parses.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, LOCAL_USER, type TestApp } from './helpers/test-app.js';
import { jsonl } from './helpers/calls.js';
import { pyCallsQuery, pyCompleted, pyFilter, pyHeaders, pyOpRef } from './helpers/python-sdk.js';

const P = 'acme/py-objects';

for (const mode of ['open', 'keys'] as const)
  describe(`${mode} mode`, () => {
    let t: TestApp;
    let key = 'any-key';
    let userId = LOCAL_USER;
    before(async () => {
      t = await startTestApp(mode === 'keys' ? { keys: [{ user: 'wendy', entity: 'acme', role: 'writer' }] } : {});
      if (mode === 'keys') [key, userId] = [t.keys[0]!.key, t.keys[0]!.user_id];
    });
    after(async () => {
      await t.close();
    });
    const post = async (path: string, body: unknown, status = 200) => {
      const r = await t.post(`/traces${path}`, body, pyHeaders(key));
      assert.equal(r.status, status, `${path}: ${r.text}`);
      return r;
    };
    const objCreate = (object_id: string, val: unknown) =>
      post('/obj/create', {
        obj: { project_id: P, object_id, val, builtin_object_class: null, wb_user_id: null, expected_digest: null },
      });

    test('publish an object, then ref().get(): obj/read by digest, nested refs through refs/read_batch', async () => {
      const prompt = {
        _type: 'StringPrompt',
        content: 'Answer: {q}',
        _class_name: 'StringPrompt',
        _bases: ['Prompt', 'Object', 'BaseModel'],
      };
      const p = await objCreate('my-prompt', prompt);
      const promptRef = `weave:///${P}/object/my-prompt:${p.body.digest}`;
      const model = {
        _type: 'MyModel',
        name: 'm',
        prompt: promptRef,
        temperature: 0.2,
        _class_name: 'MyModel',
        _bases: ['Model', 'Object', 'BaseModel'],
      };
      const m = await objCreate('MyModel', model);
      assert.deepEqual(Object.keys(m.body).sort(), ['digest', 'object_id']);
      const read = await post('/obj/read', {
        project_id: P,
        object_id: 'MyModel',
        digest: m.body.digest,
        metadata_only: false,
        include_tags_and_aliases: false,
      });
      const obj = read.body.obj;
      assert.deepEqual(obj.val, model);
      assert.equal(obj.base_object_class, 'Model');
      assert.equal(obj.leaf_object_class, 'MyModel');
      assert.equal(obj.version_index, 0);
      assert.equal(obj.wb_user_id, userId);
      const refs = await post('/refs/read_batch', { refs: [promptRef, `${promptRef}/attr/content`] });
      assert.deepEqual(refs.body.vals, [prompt, 'Answer: {q}']);
      // "latest" resolves too (ref strings the SDK builds with :latest).
      const latest = await post('/obj/read', {
        project_id: P,
        object_id: 'MyModel',
        digest: 'latest',
        metadata_only: true,
        include_tags_and_aliases: true,
      });
      assert.equal(latest.body.obj.digest, m.body.digest);
    });

    test('publish a dataset (table/create + obj/create), then get it: stats, rows', async () => {
      const rows = Array.from({ length: 5 }, (_, i) => ({ q: `question ${i}`, expected: i % 2 === 0 }));
      const table = await post('/table/create', { table: { project_id: P, rows, expected_digest: null } });
      assert.equal(table.body.row_digests.length, 5);
      const tableRef = `weave:///${P}/table/${table.body.digest}`;
      const ds = {
        _type: 'Dataset',
        name: 'qa',
        description: null,
        rows: tableRef,
        _class_name: 'Dataset',
        _bases: ['Object', 'BaseModel'],
      };
      const created = await objCreate('qa', ds);
      const got = await post('/obj/read', {
        project_id: P,
        object_id: 'qa',
        digest: created.body.digest,
        metadata_only: false,
        include_tags_and_aliases: false,
      });
      assert.equal(got.body.obj.base_object_class, 'Dataset');
      const stats = await post('/table/query_stats_batch', {
        project_id: P,
        digests: [table.body.digest],
        include_storage_size: false,
      });
      assert.deepEqual(
        stats.body.tables.map((x: any) => [x.digest, x.count]),
        [[table.body.digest, 5]],
      );
      const page = await post('/table/query', {
        project_id: P,
        digest: table.body.digest,
        filter: null,
        limit: 100,
        offset: 0,
        sort_by: null,
      });
      assert.deepEqual(
        page.body.rows.map((r: any) => r.val),
        rows,
      );
      assert.deepEqual(
        page.body.rows.map((r: any) => r.original_index),
        [0, 1, 2, 3, 4],
      );
    });

    test('an evaluation: calls through calls/complete, scorer results through feedback/batch/create', async () => {
      const evalCall = pyCompleted(P, { op: pyOpRef(P, 'Evaluation.evaluate') });
      const predict = pyCompleted(P, {
        trace_id: evalCall.trace_id,
        parent_id: evalCall.id,
        op: pyOpRef(P, 'Evaluation.predict_and_score'),
      });
      const scorer = pyCompleted(P, {
        trace_id: evalCall.trace_id,
        parent_id: predict.id,
        op: pyOpRef(P, 'exact_match'),
        output: { correct: true },
      });
      await post(`/v2/${P}/calls/complete`, { batch: [evalCall, predict, scorer] });
      // One batch item as the SDK dumps it: exclude_none, no id / created_at; new fields as ''.
      const item = {
        project_id: P,
        weave_ref: `weave:///${P}/call/${predict.id}`,
        feedback_type: 'wandb.runnable.exact_match',
        payload: { output: { correct: true } },
        runnable_ref: pyOpRef(P, 'exact_match'),
        call_ref: `weave:///${P}/call/${scorer.id}`,
        scorer_trace_id: '',
        span_trace_id: '',
        span_conversation_id: '',
        span_agent_name: '',
        span_agent_version: '',
        span_status_code: 'UNSET',
      };
      const res = await post('/feedback/batch/create', { batch: [item] });
      assert.equal(res.body.res.length, 1);
      assert.deepEqual(Object.keys(res.body.res[0]).sort(), ['created_at', 'id', 'payload', 'wb_user_id']);
      const fb = await post('/feedback/query', {
        project_id: P,
        fields: null,
        query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: item.weave_ref }] } },
        sort_by: null,
        limit: null,
        offset: null,
      });
      assert.equal(fb.body.result.length, 1);
      assert.equal(fb.body.result[0].runnable_ref, item.runnable_ref);
      const withFeedback = jsonl(
        (
          await post(
            '/calls/stream_query',
            pyCallsQuery(P, { filter: pyFilter({ call_ids: [predict.id] }), include_feedback: true }),
          )
        ).text,
      );
      assert.equal(withFeedback[0].summary.weave.feedback[0].feedback_type, 'wandb.runnable.exact_match');
    });

    test('threads: turn counts, first and last turns, turn-latency percentiles; ThreadSchema parses', async () => {
      const T0 = Date.parse('2026-11-20T09:00:00Z');
      const turn = (thread: string, at: number, ms: number) => {
        const c = pyCompleted(P, { thread_id: thread, started_ms: T0 + at, ended_ms: T0 + at + ms });
        return { ...c, turn_id: c.id };
      };
      const a = [turn('thread-a', 0, 100), turn('thread-a', 1000, 400), turn('thread-a', 2000, 200)];
      const b = [turn('thread-b', 500, 50)];
      // A call inside a turn (turn_id of its turn, id different) is not a turn.
      const inner = pyCompleted(P, {
        thread_id: 'thread-a',
        turn_id: a[0]!.id,
        parent_id: a[0]!.id,
        trace_id: a[0]!.trace_id,
        started_ms: T0 + 10,
        ended_ms: T0 + 5000,
      });
      await post(`/v2/${P}/calls/complete`, { batch: [...a, ...b, inner] });
      const body = {
        project_id: P,
        filter: { after_datetime: null, before_datetime: null, thread_ids: null },
        limit: null,
        offset: null,
        sort_by: null,
      };
      const rows = jsonl((await post('/threads/stream_query', body)).text);
      assert.deepEqual(
        rows.map((r) => r.thread_id),
        ['thread-a', 'thread-b'],
        'latest activity first',
      );
      const [ta, tb] = rows;
      assert.deepEqual(ta, {
        thread_id: 'thread-a',
        turn_count: 3,
        start_time: '2026-11-20T09:00:00.000123Z',
        last_updated: '2026-11-20T09:00:02.200123Z',
        first_turn_id: a[0]!.id,
        last_turn_id: a[2]!.id,
        p50_turn_duration_ms: 200,
        p99_turn_duration_ms: 396,
      });
      assert.equal(tb.turn_count, 1);
      assert.equal(tb.p50_turn_duration_ms, 50);
      for (const r of rows)
        for (const k of ['start_time', 'last_updated']) assert.ok(!Number.isNaN(Date.parse(r[k])), k);
      // Filters, sorts, paging.
      const only = jsonl((await post('/threads/stream_query', { ...body, filter: { thread_ids: ['thread-b'] } })).text);
      assert.deepEqual(
        only.map((r) => r.thread_id),
        ['thread-b'],
      );
      const late = jsonl(
        (await post('/threads/stream_query', { ...body, filter: { after_datetime: '2026-11-20T09:00:00.600Z' } })).text,
      );
      assert.deepEqual(
        late.map((r) => [r.thread_id, r.turn_count]),
        [['thread-a', 2]],
      );
      const byCount = jsonl(
        (
          await post('/threads/stream_query', {
            ...body,
            sort_by: [{ field: 'turn_count', direction: 'asc' }],
            limit: 1,
          })
        ).text,
      );
      assert.deepEqual(
        byCount.map((r) => r.thread_id),
        ['thread-b'],
      );
      const second = jsonl((await post('/threads/stream_query', { ...body, limit: 1, offset: 1 })).text);
      assert.deepEqual(
        second.map((r) => r.thread_id),
        ['thread-b'],
      );
      const bad = await post('/threads/stream_query', { ...body, sort_by: [{ field: 'nope', direction: 'asc' }] }, 400);
      assert.match(bad.body.reason, /Unsupported sort field: nope/);
      await post('/threads/stream_query', { ...body, limit: 'ten' }, 422);
      await post('/threads/stream_query', { ...body, filter: { after_datetime: 'soon' } }, 422);
      await post('/threads/stream_query', { ...body, surprise: true }, 422);
      // Deleting a turn removes it from its thread.
      await post('/calls/delete', { project_id: P, call_ids: [a[2]!.id], wb_user_id: null });
      const after = jsonl(
        (await post('/threads/stream_query', { ...body, filter: { thread_ids: ['thread-a'] } })).text,
      );
      assert.equal(after[0].turn_count, 2);
    });

    test('project/stats and files/query_stats count what the project stores', async () => {
      const fd = new FormData();
      fd.append('project_id', P);
      fd.append('file', new Blob([new Uint8Array(Buffer.alloc(1234, 7))]), 'blob');
      const form = new Response(fd); // one encoding: its boundary is in its content type
      const up = await t.app.inject({
        method: 'POST',
        url: '/traces/files/create',
        payload: Buffer.from(await form.arrayBuffer()),
        headers: { 'content-type': form.headers.get('content-type')!, ...pyHeaders(key) },
      });
      assert.equal(up.statusCode, 200, up.body);
      assert.deepEqual((await post('/files/query_stats', { project_id: P })).body, { total_size_bytes: 1234 });
      const stats = (
        await post('/project/stats', {
          project_id: P,
          include_trace_storage_size: true,
          include_object_storage_size: true,
          include_table_storage_size: true,
          include_file_storage_size: true,
        })
      ).body;
      assert.deepEqual(Object.keys(stats).sort(), [
        'files_storage_size_bytes',
        'objects_storage_size_bytes',
        'tables_storage_size_bytes',
        'trace_storage_size_bytes',
      ]);
      assert.equal(stats.files_storage_size_bytes, 1234);
      for (const k of ['trace_storage_size_bytes', 'objects_storage_size_bytes', 'tables_storage_size_bytes'])
        assert.ok(stats[k] > 0, k);
      const partial = (
        await post('/project/stats', {
          project_id: P,
          include_trace_storage_size: false,
          include_file_storage_size: null,
        })
      ).body;
      assert.equal(partial.trace_storage_size_bytes, 0);
      assert.equal(partial.files_storage_size_bytes, 1234);
      assert.deepEqual((await post('/project/stats', { project_id: 'acme/empty' })).body, {
        trace_storage_size_bytes: 0,
        objects_storage_size_bytes: 0,
        tables_storage_size_bytes: 0,
        files_storage_size_bytes: 0,
      });
      await post('/project/stats', { project_id: P, include_trace_storage_size: 'yes' }, 422);
    });
  });
