// One valid request per JSON route, against a few rows written first: the starting point
// of the fuzz and SQL-injection sweeps.
import assert from 'node:assert/strict';
import { PROJECT, type TestApp } from './test-app.js';
import { start, end, startItem, endItem } from './calls.js';
import { jsonSafe, prepareTurn } from './historical-turn.js';

/** A historical turn, committed by seedFixtures: its valid example is then replayed (200). */
const TURN = prepareTurn({
  projectId: PROJECT,
  conversationId: 'fixture-conversation',
  turnKey: 'fixture-turn',
  agentName: 'fixture-agent',
  startNs: 1_763_700_000_000_000_000n,
  endNs: 1_763_700_001_000_000_000n,
});
const TURN_URL = `/agents/v1/historical-turns/${String(TURN.logical_key)}`;
const TURN_BODY = {
  project_id: PROJECT,
  capability_version: 'historical-turn-v1',
  turn: jsonSafe(TURN),
  wb_user_id: null,
};

export interface Fixtures {
  callId: string;
  traceId: string;
  objectId: string;
  objDigest: string;
  tableDigest: string;
  rowDigest: string;
  feedbackId: string;
  costId: string;
}

export async function seedFixtures(t: TestApp): Promise<Fixtures> {
  const s = start({ inputs: { q: 'hello', n: 3 }, display_name: 'fixture' });
  const up = await t.post('/call/upsert_batch', {
    batch: [
      startItem(s),
      endItem(end(s.id, { summary: { usage: { 'gpt-4o': { prompt_tokens: 3, completion_tokens: 4, requests: 1 } } } })),
    ],
  });
  assert.equal(up.status, 200, up.text);
  const obj = await t.post('/obj/create', {
    obj: { project_id: PROJECT, object_id: 'fixture-obj', val: { a: 1, b: 'two' } },
  });
  assert.equal(obj.status, 200, obj.text);
  const table = await t.post('/table/create', {
    table: {
      project_id: PROJECT,
      rows: [
        { x: 1, s: 'a' },
        { x: 2, s: 'b' },
      ],
    },
  });
  assert.equal(table.status, 200, table.text);
  const fb = await t.post('/feedback/create', {
    project_id: PROJECT,
    weave_ref: `weave:///${PROJECT}/call/${s.id}`,
    feedback_type: 'note',
    payload: { note: 'fixture' },
  });
  assert.equal(fb.status, 200, fb.text);
  const cost = await t.post('/cost/create', {
    project_id: PROJECT,
    costs: { 'fixture-llm': { prompt_token_cost: 0.001, completion_token_cost: 0.002 } },
  });
  assert.equal(cost.status, 200, cost.text);
  const turn = await t.app.inject({ method: 'PUT', url: TURN_URL, payload: TURN_BODY });
  assert.equal(turn.statusCode, 201, turn.body);
  return {
    callId: s.id,
    traceId: s.trace_id,
    objectId: 'fixture-obj',
    objDigest: obj.body.digest,
    tableDigest: table.body.digest,
    rowDigest: table.body.row_digests[0],
    feedbackId: fb.body.id,
    costId: cost.body.ids[0][0],
  };
}

export interface Example {
  method: 'POST' | 'PUT';
  url: string;
  body: Record<string, unknown>;
}

/** Keyed by `${method} ${path}` of the route table. */
export function validExamples(f: Fixtures): Record<string, Example> {
  const P = PROJECT;
  const s = start({ inputs: { q: 'fuzz' } });
  const idEq = (id: string) => ({ $expr: { $eq: [{ $getField: 'id' }, { $literal: id }] } });
  const query = {
    $expr: {
      $and: [
        { $eq: [{ $getField: 'inputs.q' }, { $literal: 'hello' }] },
        { $gt: [{ $getField: 'started_at' }, { $literal: 0 }] },
      ],
    },
  };
  const feedback = {
    project_id: P,
    weave_ref: `weave:///${P}/call/${f.callId}`,
    creator: 'me',
    feedback_type: 'wandb.agent_monitor',
    payload: { note: 'x', n: 1 },
    scorer_tags: ['t'],
    scorer_tag_reasons: { t: 'because' },
    scorer_tag_confidences: { t: 0.5 },
  };
  const objUrl = `/objs/${encodeURIComponent(f.objectId)}`;
  const ex: Record<string, Omit<Example, 'method'> & { method?: Example['method'] }> = {
    'POST /call/start': { url: '/call/start', body: { start: s } },
    'POST /call/end': { url: '/call/end', body: { end: end(f.callId) } },
    'POST /call/upsert_batch': {
      url: '/call/upsert_batch',
      body: { batch: [startItem(start()), endItem(end(f.callId))] },
    },
    'POST /call/update': { url: '/call/update', body: { project_id: P, call_id: f.callId, display_name: 'renamed' } },
    'POST /call/read': {
      url: '/call/read',
      body: { project_id: P, id: f.callId, include_costs: true, include_storage_size: true },
    },
    'POST /calls/delete': { url: '/calls/delete', body: { project_id: P, call_ids: ['no-such-call'] } },
    'POST /calls/query_stats': {
      url: '/calls/query_stats',
      body: {
        project_id: P,
        filter: { op_names: [s.op_name], trace_roots_only: true },
        query,
        limit: 10,
        expand_columns: ['inputs.q'],
      },
    },
    'POST /calls/stream_query': {
      url: '/calls/stream_query',
      body: {
        project_id: P,
        filter: { call_ids: [f.callId] },
        query,
        limit: 5,
        offset: 0,
        sort_by: [{ field: 'started_at', direction: 'desc' }],
        include_costs: true,
        include_feedback: true,
        columns: ['id', 'inputs.q'],
        expand_columns: ['inputs.q'],
      },
    },
    'POST /calls/query': {
      url: '/calls/query',
      body: {
        project_id: P,
        filter: { trace_ids: [f.traceId] },
        query,
        limit: 5,
        sort_by: [{ field: 'inputs.n', direction: 'asc' }],
        include_usernames: true,
        columns: ['id', 'output'],
      },
    },
    'POST /obj/create': {
      url: '/obj/create',
      body: {
        obj: { project_id: P, object_id: 'fuzz-obj', val: { k: 'v', list: [1, 2] }, builtin_object_class: null },
      },
    },
    'POST /obj/read': {
      url: '/obj/read',
      body: { project_id: P, object_id: f.objectId, digest: f.objDigest, include_tags_and_aliases: true },
    },
    'POST /objs/query': {
      url: '/objs/query',
      body: {
        project_id: P,
        filter: { object_ids: [f.objectId], latest_only: true, tags: ['t'] },
        limit: 10,
        sort_by: [{ field: 'created_at', direction: 'desc' }],
        include_storage_size: true,
      },
    },
    'POST /obj/delete': {
      url: '/obj/delete',
      body: { project_id: P, object_id: 'no-such-obj', digests: [f.objDigest] },
    },
    'PUT /objs/:object_id/versions/:digest/tags': {
      method: 'PUT',
      url: `${objUrl}/versions/${f.objDigest}/tags`,
      body: { project_id: P, tags: ['t1', 't2'] },
    },
    'POST /objs/:object_id/versions/:digest/tags/remove': {
      url: `${objUrl}/versions/${f.objDigest}/tags/remove`,
      body: { project_id: P, tags: ['t2'] },
    },
    'PUT /objs/:object_id/aliases': {
      method: 'PUT',
      url: `${objUrl}/aliases`,
      body: { project_id: P, digest: f.objDigest, aliases: ['prod'] },
    },
    'POST /objs/:object_id/aliases/remove': {
      url: `${objUrl}/aliases/remove`,
      body: { project_id: P, aliases: ['staging'] },
    },
    'POST /feedback/create': { url: '/feedback/create', body: feedback },
    'POST /feedback/batch/create': {
      url: '/feedback/batch/create',
      body: { batch: [feedback, { ...feedback, feedback_type: 'wandb.agent_user_feedback' }] },
    },
    'POST /feedback/query': {
      url: '/feedback/query',
      body: {
        project_id: P,
        fields: ['id', 'payload.note'],
        query: { $expr: { $eq: [{ $getField: 'feedback_type' }, { $literal: 'note' }] } },
        sort_by: [{ field: 'created_at', direction: 'asc' }],
        limit: 10,
      },
    },
    'POST /feedback/purge': { url: '/feedback/purge', body: { project_id: P, query: idEq('no-such-feedback') } },
    'POST /feedback/replace': { url: '/feedback/replace', body: { ...feedback, feedback_id: 'no-such-feedback' } },
    'POST /feedback/stats': {
      url: '/feedback/stats',
      body: {
        project_id: P,
        start: '2026-01-01T00:00:00Z',
        end: '2026-01-02T00:00:00Z',
        feedback_type: 'wandb.agent_monitor',
        timezone: 'Europe/Paris',
        metrics: [{ json_path: 'n', value_type: 'numeric', aggregations: ['avg', 'sum'], percentiles: [50, 95] }],
      },
    },
    'POST /feedback/aggregate': {
      url: '/feedback/aggregate',
      body: {
        project_id: P,
        after_ms: 1_767_225_600_000,
        before_ms: 1_767_312_000_000,
        time_bucket_seconds: 3600,
        tags: ['t'],
        group_by: ['scorer_id', 'span_agent_name'],
      },
    },
    'POST /feedback/payload_schema': {
      url: '/feedback/payload_schema',
      body: {
        project_id: P,
        start: '2026-01-01T00:00:00Z',
        end: '2026-01-02T00:00:00Z',
        trigger_ref: 'weave:///x/y/object/mon:*',
        sample_limit: 10,
      },
    },
    'POST /table/create': {
      url: '/table/create',
      body: { table: { project_id: P, rows: [{ a: 1 }, { a: 'two', nested: { x: [1] } }] } },
    },
    'POST /table/update': {
      url: '/table/update',
      body: {
        project_id: P,
        base_digest: f.tableDigest,
        updates: [{ append: { row: { x: 3 } } }, { insert: { index: 0, row: { x: 0 } } }, { pop: { index: 1 } }],
      },
    },
    'POST /table/query': {
      url: '/table/query',
      body: {
        project_id: P,
        digest: f.tableDigest,
        filter: { row_digests: [f.rowDigest] },
        limit: 10,
        offset: 0,
        sort_by: [{ field: 'x', direction: 'desc' }],
      },
    },
    'POST /table/query_stream': {
      url: '/table/query_stream',
      body: { project_id: P, digest: f.tableDigest, limit: 10, sort_by: [{ field: 's', direction: 'asc' }] },
    },
    'POST /table/query_stats': { url: '/table/query_stats', body: { project_id: P, digest: f.tableDigest } },
    'POST /table/query_stats_batch': {
      url: '/table/query_stats_batch',
      body: { project_id: P, digests: [f.tableDigest], include_storage_size: true },
    },
    'POST /table/create_from_digests': {
      url: '/table/create_from_digests',
      body: { project_id: P, row_digests: [f.rowDigest, f.rowDigest] },
    },
    'POST /file/content': { url: '/file/content', body: { project_id: P, digest: 'no-such-file' } },
    'POST /files/content': { url: '/files/content', body: { project_id: P, digest: 'no-such-file' } },
    'POST /files/stats': { url: '/files/stats', body: { project_id: P } },
    'POST /refs/read_batch': {
      url: '/refs/read_batch',
      body: {
        refs: [
          `weave:///${P}/object/${f.objectId}:${f.objDigest}`,
          `weave:///${P}/object/${f.objectId}:${f.objDigest}/attr/a`,
        ],
      },
    },
    'POST /cost/create': {
      url: '/cost/create',
      body: {
        project_id: P,
        costs: {
          'fuzz-llm': {
            prompt_token_cost: 1,
            completion_token_cost: 2,
            provider_id: 'p',
            effective_date: '2026-01-01T00:00:00Z',
          },
        },
      },
    },
    'POST /cost/query': {
      url: '/cost/query',
      body: {
        project_id: P,
        fields: ['id', 'llm_id'],
        query: { $expr: { $eq: [{ $getField: 'llm_id' }, { $literal: 'fixture-llm' }] } },
        sort_by: [{ field: 'llm_id', direction: 'asc' }],
        limit: 10,
      },
    },
    'POST /cost/purge': { url: '/cost/purge', body: { project_id: P, query: idEq('no-such-cost') } },
    'POST /files/query_stats': { url: '/files/query_stats', body: { project_id: P } },
    'POST /project/stats': { url: '/project/stats', body: { project_id: P, include_file_storage_size: false } },
    'POST /threads/stream_query': {
      url: '/threads/stream_query',
      body: {
        project_id: P,
        filter: { thread_ids: ['th'] },
        sort_by: [{ field: 'turn_count', direction: 'desc' }],
        limit: 5,
      },
    },
    'POST /v2/:entity/:project/calls/complete': {
      url: `/v2/${P}/calls/complete`,
      body: {
        batch: [
          {
            ...start({ inputs: { q: 'v2' } }),
            ended_at: '2026-11-21T05:03:30.000Z',
            output: 'ok',
            summary: null,
            exception: null,
          },
        ],
      },
    },
    'POST /v2/:entity/:project/call/start': { url: `/v2/${P}/call/start`, body: { start: start() } },
    'PUT /agents/v1/historical-turns/:logical_key': { method: 'PUT', url: TURN_URL, body: TURN_BODY },
    // Models no provider serves: Weave's 200 with response.error, and nothing leaves the host.
    'POST /completions/create': {
      url: '/completions/create',
      body: { project_id: P, inputs: { model: 'custom::nowhere::m', messages: [{ role: 'user', content: 'hi' }] } },
    },
    'POST /completions/create_stream': {
      url: '/completions/create_stream',
      body: { project_id: P, inputs: { model: 'unknown-model', messages: [{ role: 'user', content: 'hi' }] } },
    },
    'POST /completions/models': { url: '/completions/models', body: { project_id: P } },
    'POST /v2/:entity/:project/call/end': {
      url: `/v2/${P}/call/end`,
      body: { end: { ...end(f.callId), started_at: '2026-11-21T05:03:29.057Z', trace_id: f.traceId } },
    },
  };
  // OTLP/JSON: the project is the resource's (the route reads no project_id from the body).
  const otlp = {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'wandb.project', value: { stringValue: P } }] },
        scopeSpans: [
          {
            spans: [
              {
                traceId: '5b8efff798038103d269b633813fc60c',
                spanId: 'eee19b7ec3c1b174',
                name: 'fuzz',
                startTimeUnixNano: '1763700000000000000',
                endTimeUnixNano: '1763700001000000000',
              },
            ],
          },
        ],
      },
    ],
  };
  for (const path of ['/otel/v1/traces', '/v1/traces', '/otel/v1/trace', '/agents/otel/v1/traces'])
    ex[`POST ${path}`] = { url: path, body: otlp };
  return Object.fromEntries(
    Object.entries(ex).map(([k, v]) => [k, { method: v.method ?? 'POST', url: v.url, body: v.body }]),
  );
}

/**
 * A body derived from a route's schema (required properties only), for routes added
 * after these examples were written: they are still fuzzed, from a plausible start.
 */
export function exampleFromSchema(schema: any, key = ''): unknown {
  if (schema === undefined || schema === null) return {};
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.anyOf))
    return exampleFromSchema(schema.anyOf.find((s: any) => s.type !== 'null') ?? schema.anyOf[0], key);
  const type = Array.isArray(schema.type) ? schema.type.find((x: string) => x !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required: string[] = schema.required ?? [];
      for (const [k, v] of Object.entries(schema.properties ?? {}))
        if (required.includes(k)) out[k] = exampleFromSchema(v, k);
      return out;
    }
    case 'array':
      // As few items as the schema allows.
      return Array.from({ length: schema.minItems ?? 0 }, () => exampleFromSchema(schema.items));
    case 'string':
      return key === 'project_id' ? PROJECT : schema.format === 'date-time' ? '2026-01-01T00:00:00Z' : 'x';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
