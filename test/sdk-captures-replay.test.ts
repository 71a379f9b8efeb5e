// Replays the requests the real weave npm SDK sent (test/fixtures/sdk-captures) and
// reads back what was written: calls, objects, tables and feedback. /file/* requests are
// skipped: the recorder kept only the head of each upload (test/files.test.ts and the SDK
// media scenario cover files).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { jsonl } from './helpers/calls.js';

const DIR = join(import.meta.dirname, 'fixtures', 'sdk-captures');

interface Captured {
  method?: string;
  path?: string;
  body?: any;
  response?: { status: number; body?: any };
}

const SKIPPED = /^\/(file|files)\/|^\/v1\//;

function load(file: string): Captured[] {
  return readFileSync(join(DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Captured)
    .filter((r) => r.path);
}

async function replay(t: TestApp, reqs: Captured[]) {
  const starts = new Map<string, any>();
  const ends = new Map<string, any>();
  const objects = new Map<string, any>(); // object_id:digest -> val
  const feedback: any[] = [];
  const tables = new Map<string, unknown[]>();
  for (const r of reqs) {
    if (SKIPPED.test(r.path!)) continue;
    if (r.method === 'GET') {
      assert.equal((await t.get(r.path!)).status, 200);
      continue;
    }
    const res = await t.post(r.path!, r.body);
    const where = `${r.path} ${JSON.stringify(r.body).slice(0, 200)}`;
    switch (r.path) {
      case '/obj/create': {
        assert.equal(res.status, 200, `${where} -> ${res.text}`);
        const { object_id, val } = r.body.obj;
        if (r.response?.status === 200 && r.response.body?.digest) {
          assert.equal(res.body.digest, r.response.body.digest, `digest of ${object_id} matches the Python algorithm`);
        }
        objects.set(`${object_id}:${res.body.digest}`, val);
        objects.set(`${object_id}:latest`, val);
        break;
      }
      case '/obj/read': {
        const key = `${r.body.object_id}:${r.body.digest}`;
        if (objects.has(key)) {
          assert.equal(res.status, 200, where);
          assert.deepEqual(res.body.obj.val, objects.get(key));
        } else {
          assert.equal(res.status, 404, where);
          assert.equal(typeof res.body.reason, 'string');
        }
        break;
      }
      case '/call/upsert_batch':
        assert.equal(res.status, 200, `${where} -> ${res.text}`);
        for (const item of r.body.batch) {
          if (item.mode === 'start') starts.set(item.req.start.id, item.req.start);
          else ends.set(item.req.end.id, item.req.end);
        }
        break;
      case '/table/create':
        assert.equal(res.status, 200, `${where} -> ${res.text}`);
        if (r.response?.status === 200 && r.response.body?.digest)
          assert.equal(res.body.digest, r.response.body.digest);
        tables.set(res.body.digest, r.body.table.rows);
        break;
      case '/table/query': {
        assert.equal(res.status, 200, where);
        const rows = tables.get(r.body.digest);
        if (rows)
          assert.deepEqual(
            res.body.rows.map((x: { val: unknown }) => x.val),
            rows,
          );
        break;
      }
      case '/feedback/create':
        assert.equal(res.status, 200, `${where} -> ${res.text}`);
        feedback.push({ ...r.body, id: res.body.id });
        break;
      case '/calls/stream_query':
        assert.equal(res.status, 200, where);
        jsonl(res.text);
        break;
      default:
        assert.ok(res.status < 300, `${where} -> ${res.status} ${res.text}`);
    }
  }
  return { starts, ends, objects, feedback };
}

for (const file of readdirSync(DIR)
  .filter((f) => f.endsWith('.jsonl'))
  .sort()) {
  test(`replays ${file}`, async () => {
    const t = await startTestApp();
    try {
      const { starts, ends, feedback } = await replay(t, load(file));
      for (const [id, s] of starts) {
        const c = (await t.post('/call/read', { project_id: s.project_id, id })).body.call;
        assert.ok(c, `call ${id} of ${file} is readable`);
        assert.equal(c.op_name, s.op_name);
        assert.equal(c.trace_id, s.trace_id);
        assert.equal(c.parent_id, s.parent_id ?? null);
        assert.deepEqual(c.inputs, s.inputs);
        assert.equal(c.started_at, s.started_at);
        const e = ends.get(id);
        if (e) {
          assert.deepEqual(c.output, e.output ?? null);
          assert.equal(c.exception, e.exception ?? null);
          assert.equal(c.ended_at, e.ended_at);
          assert.equal(c.summary.weave.status, e.exception ? 'error' : c.summary.weave.status);
        } else {
          assert.equal(c.summary.weave.status, 'running');
        }
      }
      for (const f of feedback) {
        const r = await t.post('/feedback/query', {
          project_id: f.project_id,
          query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: f.id }] } },
        });
        assert.equal(r.status, 200);
        assert.equal(r.body.result.length, 1);
        assert.equal(r.body.result[0].weave_ref, f.weave_ref);
        assert.deepEqual(r.body.result[0].payload, f.payload);
        assert.equal(r.body.result[0].call_ref, f.call_ref);
      }
    } finally {
      await t.close();
    }
  });
}
