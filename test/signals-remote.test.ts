// Remote scorers over Weave's HTTP contract, on either engine, against a loopback scorer:
// agent turns as schema version 2 (`scoring_target`), calls as version 1 (`original_call`);
// the headers (bearer from a secret or an OAuth token, Idempotency-Key, X-Correlation-ID,
// X-Weave-Schema-Version); a turn re-sent with the same key after a 503; a redirect not
// followed; the result written as feedback.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hexId, otlpJson } from './helpers/agent-spans.js';
import { end, endItem, start, startItem } from './helpers/calls.js';
import { createObj, eventually, publishMonitor } from './helpers/signals.js';
import { PROJECT, startTestApp, type TestApp } from './helpers/test-app.js';

const ENTITY = PROJECT.split('/')[0]!;
let scorerServer: Server;
let base: string;
let t: TestApp;
const received: { path: string; headers: IncomingHttpHeaders; body: any }[] = [];
let failNext = 0;

before(async () => {
  scorerServer = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const path = req.url ?? '';
      if (path === '/token') {
        const form = new URLSearchParams(raw);
        const ok = form.get('client_secret') === 'oauth-secret' && form.get('grant_type') === 'client_credentials';
        res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(ok ? { access_token: 'from-oauth', expires_in: 60 } : { error: 'no' }));
      }
      const body = JSON.parse(raw);
      received.push({ path, headers: req.headers, body });
      if (path === '/redirect') {
        res.writeHead(307, { location: `${base}/score` });
        return res.end();
      }
      if (failNext > 0) {
        failNext--;
        res.writeHead(503);
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          schema_version: body.schema_version,
          result: { scores: [{ value: 'On Topic', reason: 'stays on the question' }, { value: 0.6 }] },
        }),
      );
    });
  });
  await new Promise<void>((r) => scorerServer.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(scorerServer.address() as AddressInfo).port}`;
  t = await startTestApp({ outboundAllowedHosts: [new URL(base).host], signals: { pollMs: 100 } });
  for (const [name, value] of [
    ['SCORER_TOKEN', 'static-token'],
    ['OAUTH_SECRET', 'oauth-secret'],
  ])
    assert.equal((await t.post('/admin/secrets/set', { entity: ENTITY, name, value })).status, 200);
});
after(async () => {
  await t?.close();
  scorerServer?.closeAllConnections();
  scorerServer?.close();
});

const remoteScorer = (name: string, path: string, auth: Record<string, unknown>) =>
  createObj(t, name, {
    _type: 'RemoteScorer',
    name,
    description: null,
    column_map: null,
    endpoint_url: `${base}${path}`,
    config: { strict: true },
    auth_config: auth,
    _class_name: 'RemoteScorer',
    _bases: ['Scorer', 'Object', 'BaseModel'],
  });
const staticBearer = { mode: 'static_bearer', bearer_secret_name: 'SCORER_TOKEN' };

function sendTurn(agent: string) {
  const traceId = hexId(16);
  const now = Date.now();
  const body = otlpJson({ 'wandb.entity': ENTITY, 'wandb.project': PROJECT.split('/')[1]! }, [
    {
      traceId,
      spanId: hexId(8),
      name: `invoke_agent ${agent}`,
      startMs: now,
      endMs: now + 20,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': agent,
        'gen_ai.conversation.id': 'conv-remote',
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Hi' }] }]),
        'gen_ai.output.messages': JSON.stringify([
          { role: 'assistant', parts: [{ type: 'text', content: 'Hello!' }], finish_reason: 'stop' },
        ]),
      },
    },
  ]);
  return { traceId, post: () => t.postRaw('/agents/otel/v1/traces', body, 'application/json') };
}

const feedbackOn = async (ref: string) =>
  (
    await t.post('/feedback/query', {
      project_id: PROJECT,
      query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: ref }] } },
    })
  ).body.result as any[];
const waitFeedback = (ref: string) =>
  eventually('feedback', async () => {
    const rows = await feedbackOn(ref);
    return rows.length > 0 ? rows : null;
  });

test('an agent turn goes as schema version 2; a 503 is re-sent with the same key; tags and rating written', async () => {
  const scorer = await remoteScorer('tone', '/score', staticBearer);
  const monitor = await publishMonitor(t, 'remote-turns', [scorer], { op_names: ['weave.genai.turn_ended'] });
  failNext = 1;
  const turn = sendTurn('helper');
  assert.equal((await turn.post()).status, 200);
  const [fb] = await waitFeedback(`weave:///${PROJECT}/agent_turn/${turn.traceId}`);
  assert.equal(fb.feedback_type, 'wandb.agent_monitor');
  assert.deepEqual(fb.scorer_tags, ['on-topic']);
  assert.deepEqual(fb.scorer_ratings, { _rating_: 0.6 });
  assert.equal(fb.trigger_ref, monitor);

  const sent = received.filter((r) => r.body.scoring_target?.payload?.trace_id === turn.traceId);
  assert.equal(sent.length, 2, 'sent, then re-sent after the 503');
  assert.equal(sent[0]!.headers['idempotency-key'], sent[1]!.headers['idempotency-key']);
  assert.notEqual(sent[0]!.headers['x-correlation-id'], sent[1]!.headers['x-correlation-id']);
  const { headers, body } = sent[1]!;
  assert.equal(headers.authorization, 'Bearer static-token');
  assert.equal(headers['x-weave-schema-version'], '2');
  assert.equal(body.schema_version, 2);
  assert.deepEqual(body.scorer, { name: 'tone', ref: scorer, config: { strict: true } });
  assert.equal(body.monitor.name, 'remote-turns');
  assert.equal(body.scoring_target.type, 'agent_turn');
  assert.equal(body.scoring_target.schema_version, 1);
  const p = body.scoring_target.payload;
  assert.equal(p.event_type, 'weave.genai.turn_ended');
  assert.equal(p.project_id, PROJECT);
  assert.deepEqual(p.agent, { name: 'helper', version: null, description: null });
  assert.deepEqual(p.conversation, { id: 'conv-remote', name: null });
  assert.deepEqual(p.messages.input, [{ role: 'user', content: 'Hi', finish_reason: null }]);
  assert.deepEqual(p.messages.output, [{ role: 'assistant', content: 'Hello!', finish_reason: 'stop' }]);
  // The scoring call named in the body is the one the feedback's call_ref points at.
  assert.equal(fb.call_ref, `weave:///${PROJECT}/call/${body.scoring_call_id}`);
});

test('a call goes as schema version 1 with an OAuth token; a redirect is not followed', async () => {
  const oauth = {
    mode: 'oauth_client_credentials',
    token_endpoint_url: `${base}/token`,
    client_id: 'weft',
    client_secret_name: 'OAUTH_SECRET',
  };
  const scorer = await remoteScorer('remote-check', '/score', oauth);
  await publishMonitor(t, 'remote-calls', [scorer], { op_names: [`weave:///${PROJECT}/op/answer:*`] });
  const s = start({ op: `weave:///${PROJECT}/op/answer:1`, inputs: { q: 'why' } });
  await t.post('/call/upsert_batch', { batch: [startItem(s), endItem(end(s.id, { output: 'because' }))] });
  const [fb] = await waitFeedback(`weave:///${PROJECT}/call/${s.id}`);
  assert.equal(fb.feedback_type, 'wandb.runnable.remote-check');
  const sent = received.find((r) => r.body.original_call?.call_id === s.id)!;
  assert.equal(sent.headers.authorization, 'Bearer from-oauth');
  assert.equal(sent.headers['x-weave-schema-version'], '1');
  assert.deepEqual(sent.body.original_call.inputs, { q: 'why' });
  assert.equal(sent.body.original_call.output, 'because');
  assert.deepEqual(
    fb.payload.output,
    sent && { scores: [{ value: 'On Topic', reason: 'stays on the question' }, { value: 0.6 }] },
  );

  const moved = await remoteScorer('moved', '/redirect', staticBearer);
  await publishMonitor(t, 'redirected', [moved], { op_names: [`weave:///${PROJECT}/op/moved:*`] });
  const c = start({ op: `weave:///${PROJECT}/op/moved:1`, inputs: {} });
  await t.post('/call/upsert_batch', { batch: [startItem(c), endItem(end(c.id, { output: 1 }))] });
  await eventually('the failed job', async () => ((await t.store.scoreJobs.counts(PROJECT)).failed > 0 ? true : null));
  assert.equal(received.filter((r) => r.path === '/redirect').length, 1);
  assert.equal(
    received.filter((r) => r.body.original_call?.call_id === c.id).length,
    1,
    'the redirect was not followed',
  );
  assert.deepEqual(await feedbackOn(`weave:///${PROJECT}/call/${c.id}`), []);
});
