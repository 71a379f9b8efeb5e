// Agent spans under a project's time-to-live, through HTTP: once the TTL is set, the retention
// job deletes every trace with a span started more than the TTL ago, whole, with its search
// index, per-trace rollups, historical-turn record and turn feedback; the agents list, versions,
// stats, conversations, chat and search then answer from the fresh traces only, the rollups of
// an agent that keeps traces are recomputed exactly, and /metrics counts spans written and purged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { hexId, otlpJson, type TestSpan } from './helpers/agent-spans.js';
import { prepareTurn, upsertBody } from './helpers/historical-turn.js';
import { parsePrometheusText, sampleSum } from './helpers/prometheus-text.js';
import { chdbClient, clickhouseDatabase } from './helpers/clickhouse-engine.js';
import { selectRows } from '../src/storage/clickhouse/engine/client.js';
import { startRetentionJob } from '../src/service/retention/retention-job.js';

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const text = (role: string, content: string) => JSON.stringify([{ role, parts: [{ type: 'text', content }] }]);

/** A turn: an invoke_agent root and a chat child (`childStartMs`: the child's start, default just after). */
function turn(o: {
  agent: string;
  version: string;
  conv: string;
  startMs: number;
  ask: string;
  childStartMs?: number;
}) {
  const traceId = hexId(16);
  const root: TestSpan = {
    traceId,
    spanId: hexId(8),
    name: `invoke_agent ${o.agent}`,
    startMs: o.startMs,
    endMs: o.startMs + 900,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': o.agent,
      'gen_ai.agent.version': o.version,
      'gen_ai.conversation.id': o.conv,
      'gen_ai.input.messages': text('user', o.ask),
    },
  };
  const childStart = o.childStartMs ?? o.startMs + 10;
  const chat: TestSpan = {
    traceId,
    spanId: hexId(8),
    parentSpanId: root.spanId,
    name: 'chat gpt-4o',
    startMs: childStart,
    endMs: childStart + 100,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.conversation.id': o.conv,
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 10,
      'gen_ai.input.messages': text('user', o.ask),
      'gen_ai.output.messages': text('assistant', 'Hello there, shared answer.'),
    },
  };
  return { traceId, spans: [root, chat] };
}

async function send(t: TestApp, project: string, spans: readonly TestSpan[]) {
  const [entity, name] = project.split('/') as [string, string];
  const r = await t.postRaw(
    '/agents/otel/v1/traces',
    otlpJson({ 'wandb.entity': entity, 'wandb.project': name }, spans),
    'application/json',
  );
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, {});
}

async function ok(t: TestApp, path: string, body: Record<string, unknown>) {
  const r = await t.post(path, body);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

/** What the project keeps in the span tables, read from the engine as another process would. */
async function stored(t: TestApp, project: string) {
  const database = clickhouseDatabase(t.store);
  const tables = {
    spans: 'count(DISTINCT trace_id, span_id)',
    span_first_messages: 'count(DISTINCT trace_id, span_id)',
    span_message_bodies: 'count(DISTINCT digest)',
  };
  const out: Record<string, number> = {};
  if (database !== null) {
    for (const [table, n] of Object.entries(tables)) {
      const [row] = await selectRows<{ n: string }>(
        chdbClient(),
        `SELECT ${n} AS n FROM ${database}.${table} WHERE project_id = {p:String}`,
        { p: project },
      );
      out[table === 'span_first_messages' ? 'span_messages' : table] = Number(row!.n);
    }
    return out;
  }
  const db = new Database(join(t.dataDir, 'weft.sqlite'), { readonly: true });
  try {
    // The spans holding a first occurrence of a message (span_first_messages on ClickHouse).
    for (const [table, key] of [
      ['spans', 'trace_id, span_id'],
      ['span_messages', 'trace_id, span_id'],
      ['span_message_bodies', 'id'],
    ] as const)
      out[table] = db
        .prepare(`SELECT count(*) FROM (SELECT DISTINCT ${key} FROM ${table} WHERE project_id = ?)`)
        .pluck()
        .get(project) as number;
    // A body left in the FTS5 index would still match: the purge must unindex it.
    out.fts_zanzibar = db
      .prepare("SELECT count(*) FROM span_message_fts WHERE span_message_fts MATCH 'zanzibar'")
      .pluck()
      .get() as number;
    return out;
  } finally {
    db.close();
  }
}

async function until(cond: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const metric = async (t: TestApp, name: string) => sampleSum(parsePrometheusText((await t.get('/metrics')).text), name);

test('the job deletes expired traces whole, with their index, rollups, records and feedback; fresh ones stay', async () => {
  const t = await startTestApp({ retentionIntervalMs: 10 });
  try {
    const p = 'ttl-agents/job';
    const keep = 'ttl-agents/no-ttl';
    const now = Date.now();
    const written0 = await metric(t, 'weft_spans_written_total');
    const old = turn({
      agent: 'archivist',
      version: 'v1',
      conv: 'conv-old',
      startMs: now - 3 * DAY_MS,
      ask: 'Where is zanzibar?',
    });
    // Started before the cutoff, a child now: the trace goes whole.
    const straddling = turn({
      agent: 'support',
      version: 'v1',
      conv: 'conv-old',
      startMs: now - 2 * DAY_MS,
      childStartMs: now - 1000,
      ask: 'Is zanzibar warm?',
    });
    const fresh = turn({
      agent: 'support',
      version: 'v2',
      conv: 'conv-new',
      startMs: now - 60_000,
      ask: 'Is Paris warm?',
    });
    await send(t, p, [...old.spans, ...straddling.spans]);
    await send(t, p, fresh.spans);
    await send(
      t,
      keep,
      turn({ agent: 'archivist', version: 'v1', conv: 'c', startMs: now - 9 * DAY_MS, ask: 'x' }).spans,
    );
    const ns = BigInt(now - 4 * DAY_MS) * 1_000_000n;
    const imported = prepareTurn({
      projectId: p,
      conversationId: 'conv-imported',
      turnKey: 'k',
      agentName: 'importer',
      startNs: ns,
      endNs: ns + 1_000_000n,
    });
    const key = String(imported.logical_key);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/agents/v1/historical-turns/${key}`,
      payload: upsertBody(p, imported),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(put.statusCode, 201, put.body);
    const importedSpans = Number(JSON.parse(put.body).span_count);
    assert.equal(await metric(t, 'weft_spans_written_total'), written0 + 8 + importedSpans);
    for (const trace of [old.traceId, fresh.traceId])
      await ok(t, '/feedback/create', {
        project_id: p,
        weave_ref: `weave:///${p}/agent_turn/${trace}`,
        feedback_type: 'note',
        payload: { note: trace },
      });
    assert.equal((await ok(t, '/agents/query', { project_id: p })).total_count, 3, 'no TTL yet: nothing goes');

    const purged0 = await metric(t, 'weft_retention_deleted_spans_total');
    await ok(t, '/project/ttl_settings/update', { project_id: p, retention_days: 1 });
    // The commit is visible to another connection a moment before the job's pass returns and counts.
    const purged = async () => (await metric(t, 'weft_retention_deleted_spans_total')) - purged0;
    await until(async () => (await stored(t, p)).spans === 2 && (await purged()) > 0);
    assert.equal(await purged(), 4 + importedSpans);

    const spans = await ok(t, '/agents/spans/query', { project_id: p });
    assert.deepEqual(
      spans.spans.map((s: { trace_id: string }) => s.trace_id),
      [fresh.traceId, fresh.traceId],
    );
    const agents = await ok(t, '/agents/query', { project_id: p });
    assert.deepEqual(
      agents.agents.map((a: Record<string, unknown>) => [
        a.agent_name,
        a.span_count,
        a.invocation_count,
        a.total_input_tokens,
      ]),
      [['support', 2, 1, 100]],
    );
    assert.equal(agents.agents[0].first_seen, iso(now - 60_000), 'recomputed from the traces left');
    const versions = await ok(t, '/agents/agent-versions/query', { project_id: p, agent_name: 'support' });
    assert.deepEqual(
      versions.versions.map((v: { agent_version: string }) => v.agent_version),
      ['v2'],
    );
    const stats = await ok(t, '/agents/spans/stats', {
      project_id: p,
      start: iso(now - 5 * DAY_MS),
      end: iso(now + 60_000),
      granularity: 86_400,
      metrics: [
        {
          alias: 'spans',
          value_type: 'boolean',
          value: { source: 'derived', key: 'is_invocation' },
          aggregations: ['count'],
        },
      ],
    });
    assert.equal(
      stats.rows.reduce((n: number, r: { count_spans: number }) => n + r.count_spans, 0),
      2,
    );
    const conversations = await ok(t, '/agents/spans/query', { project_id: p, group_by: [{ key: 'conversation_id' }] });
    assert.deepEqual(
      conversations.groups.map((g: { group_keys: unknown }) => g.group_keys),
      [{ conversation_id: 'conv-new' }],
    );
    assert.equal(conversations.total_count, 1, 'a purged conversation is not counted');
    const gone = await t.post('/agents/traces/chat', { project_id: p, trace_id: old.traceId });
    assert.equal(gone.status, 404, gone.text);
    assert.equal(
      (await ok(t, '/agents/traces/chat', { project_id: p, trace_id: fresh.traceId })).trace_id,
      fresh.traceId,
    );
    const oldChat = await ok(t, '/agents/conversations/chat', { project_id: p, conversation_id: 'conv-old' });
    assert.deepEqual([oldChat.turns, oldChat.total_turns], [[], 0]);
    assert.deepEqual((await ok(t, '/agents/search', { project_id: p, query: 'zanzibar' })).results, []);
    const shared = await ok(t, '/agents/search', { project_id: p, query: 'shared answer' });
    assert.deepEqual(
      shared.results.flatMap((r: { matched_messages: { trace_id: string }[] }) =>
        r.matched_messages.map((m) => m.trace_id),
      ),
      [fresh.traceId],
    );
    // The fresh trace's bodies stay (the shared answer with them); the expired ones' go.
    const left = await stored(t, p);
    assert.equal(left.span_messages, 2);
    assert.equal(left.span_message_bodies, 2, 'the ask of the fresh turn and the shared answer');
    if ('fts_zanzibar' in left) assert.equal(left.fts_zanzibar, 0);
    const record = await t.get(`/agents/v1/historical-turns/${key}?project_id=${encodeURIComponent(p)}`);
    assert.equal(record.body.status, 'absent', record.text);
    const feedback = await ok(t, '/feedback/query', { project_id: p, fields: ['weave_ref'] });
    assert.deepEqual(
      feedback.result.map((f: { weave_ref: string }) => f.weave_ref),
      [`weave:///${p}/agent_turn/${fresh.traceId}`],
    );
    // A project without a TTL keeps its spans, however old.
    assert.equal((await stored(t, keep)).spans, 2);
    assert.equal((await ok(t, '/agents/query', { project_id: keep })).total_count, 1);
  } finally {
    await t.close();
  }
});

test('a pass deletes in batches, whole traces each, until nothing expired is left', async () => {
  const t = await startTestApp();
  try {
    const p = 'ttl-agents/batches';
    const now = Date.now();
    const expired = Array.from({ length: 7 }, (_, i) =>
      turn({
        agent: `old-${i % 2}`,
        version: 'v1',
        conv: `conv-${i}`,
        startMs: now - (2 + i) * DAY_MS,
        ask: `old ${i}`,
      }),
    );
    const fresh = turn({ agent: 'old-0', version: 'v1', conv: 'conv-fresh', startMs: now - 1000, ask: 'fresh' });
    await send(t, p, [...expired.flatMap((x) => x.spans), ...fresh.spans]);
    await ok(t, '/project/ttl_settings/update', { project_id: p, retention_days: 1 });
    // Batches of 3 spans: each takes the traces of those spans, so passes return 4 or more until the last.
    const job = startRetentionJob(t.store, { intervalMs: 0, batch: 3 });
    assert.equal(await job.runOnce(), 14);
    assert.equal(await job.runOnce(), 0);
    await job.stop();
    assert.equal((await stored(t, p)).spans, 2);
    const agents = await ok(t, '/agents/query', { project_id: p });
    assert.deepEqual(
      agents.agents.map((a: Record<string, unknown>) => [a.agent_name, a.span_count, a.first_seen]),
      [['old-0', 2, iso(now - 1000)]],
    );
    // Clearing the TTL stops the purge.
    const late = turn({ agent: 'late', version: 'v1', conv: 'c', startMs: now - 30 * DAY_MS, ask: 'late' });
    await send(t, p, late.spans);
    await ok(t, '/project/ttl_settings/update', { project_id: p, retention_days: null });
    const again = startRetentionJob(t.store, { intervalMs: 0 });
    assert.equal(await again.runOnce(), 0);
    await again.stop();
    assert.equal((await stored(t, p)).spans, 4);
  } finally {
    await t.close();
  }
});
