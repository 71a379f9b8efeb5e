// Scoring goes out under the outbound rules and keeps secrets, on either engine: a judge whose
// provider is at a private address and a remote scorer on a loopback name the operator did not
// allow are refused (no connection made), and the monitor's status says why; after judges and
// a remote scorer ran with their keys, no key is in any stored byte or log line.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hexId } from './helpers/agent-spans.js';
import { agentTurn, createObj, eventually, type Judge, startJudge } from './helpers/signals.js';
import { storedText } from './helpers/stored-text.js';
import { PROJECT, startTestApp, type TestApp } from './helpers/test-app.js';

const ENTITY = PROJECT.split('/')[0]!;
const JUDGE_KEY = `sk-judge-${hexId(12)}`;
const BEARER = `bearer-${hexId(12)}`;
let judge: Judge;
let t: TestApp;
let scorerServer: Server;
let scorerUrl: string;
/** A loopback service the operator did not allow: it must never be reached. */
let internal: Server;
let internalHits = 0;
const received: { authorization: string | undefined }[] = [];
const lines: string[] = [];

before(async () => {
  judge = await startJudge();
  scorerServer = createServer((req, res) => {
    received.push({ authorization: req.headers.authorization });
    req.resume().on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: { value: 0.5, reason: 'remote' } }));
    });
  });
  await new Promise<void>((r) => scorerServer.listen(0, '127.0.0.1', r));
  scorerUrl = `http://127.0.0.1:${(scorerServer.address() as AddressInfo).port}`;
  internal = createServer((_req, res) => {
    internalHits++;
    res.end('{}');
  });
  await new Promise<void>((r) => internal.listen(0, '127.0.0.1', r));
  // The judge and the scorer may be reached by address; nothing else on loopback, nothing private.
  t = await startTestApp({
    outboundAllowedHosts: [new URL(judge.url).host, new URL(scorerUrl).host],
    signals: { pollMs: 100 },
    log: { level: 'debug', destination: { write: (chunk: string) => void lines.push(chunk) } },
  });
  for (const [name, value] of [
    ['JUDGE_KEY', JUDGE_KEY],
    ['SCORER_TOKEN', BEARER],
  ]) {
    const r = await t.post('/admin/secrets/set', { entity: ENTITY, name, value });
    assert.equal(r.status, 200, r.text);
  }
  await createObj(t, 'judges', { base_url: `${judge.url}/v1`, api_key_name: 'JUDGE_KEY' }, 'Provider');
  await createObj(t, 'judges-grader', { name: 'grader', provider: 'judges', max_tokens: 100 }, 'ProviderModel');
  await createObj(t, 'private', { base_url: 'http://10.20.30.40:8000/v1', api_key_name: 'JUDGE_KEY' }, 'Provider');
  await createObj(t, 'private-grader', { name: 'grader', provider: 'private', max_tokens: 100 }, 'ProviderModel');
});
after(async () => {
  await t?.close();
  judge?.close();
  scorerServer?.closeAllConnections();
  scorerServer?.close();
  internal?.close();
});

const publish = async (name: string, scorer: Record<string, unknown>) => {
  const r = await t.post('/signals/publish', { project_id: PROJECT, name, target: 'agent_turn', scorer });
  assert.equal(r.status, 200, r.text);
};
const send = async () => {
  const turn = agentTurn('support', 'Hello', 'Hi!');
  const r = await t.postRaw('/agents/otel/v1/traces', turn.body, 'application/json');
  assert.equal(r.status, 200, r.text);
  return turn;
};
const statusOf = (name: string) =>
  eventually(`${name} has an outcome`, async () => {
    const r = await t.post('/signals/status', { project_id: PROJECT });
    const m = (r.body.monitors as any[]).find((x) => x.monitor_id === name);
    return m?.status ? m : null;
  });
const off = (name: string, scorer: Record<string, unknown>) =>
  t.post('/signals/publish', { project_id: PROJECT, name, target: 'agent_turn', active: false, scorer });

test('a private provider address and a loopback name not allowed are refused, and the status says so', async () => {
  const privateJudge = {
    type: 'judge',
    kind: 'rating',
    scoring_prompt: 'Rate {output_messages}',
    model: 'custom::private::grader',
  };
  const byName = {
    type: 'remote',
    url: `http://localhost:${(internal.address() as AddressInfo).port}/score`,
    secret_name: 'SCORER_TOKEN',
  };
  await publish('private-judge', privateJudge);
  await publish('by-name', byName);
  const asked = judge.asked.length;
  await send();
  const [a, b] = [await statusOf('private-judge'), await statusOf('by-name')];
  assert.equal(a.status, 'error');
  assert.match(a.last_error, /10\.20\.30\.40|not allowed|refus/i);
  assert.equal(b.status, 'error');
  assert.match(b.last_error, /localhost|not allowed|refus/i);
  assert.equal(internalHits, 0, 'the loopback service was not reached');
  assert.equal(judge.asked.length, asked);
  await off('private-judge', privateJudge);
  await off('by-name', byName);
});

test('after a judge and a remote scorer ran with their keys, no key is stored or logged', async () => {
  await publish('graded', {
    type: 'judge',
    kind: 'rating',
    scoring_prompt: 'Rate {output_messages}',
    model: 'custom::judges::grader',
  });
  await publish('remote', { type: 'remote', url: `${scorerUrl}/score`, secret_name: 'SCORER_TOKEN' });
  judge.verdict = JSON.stringify({ value: 1, reason: 'fine' });
  const turn = await send();
  const rows = await eventually('two rows', async () => {
    const r = await t.post('/feedback/query', {
      project_id: PROJECT,
      query: {
        $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: `weave:///${PROJECT}/agent_turn/${turn.traceId}` }] },
      },
    });
    return r.body.result.length === 2 ? r.body.result : null;
  });
  assert.equal(rows.length, 2);
  assert.equal(judge.asked.at(-1)!.authorization, `Bearer ${JUDGE_KEY}`);
  assert.equal(received.at(-1)!.authorization, `Bearer ${BEARER}`);
  const stored = await storedText(t);
  const logged = lines.join('\n');
  assert.ok(logged.length > 0, 'the log is captured');
  for (const secret of [JUDGE_KEY, BEARER]) {
    assert.ok(!stored.includes(secret), 'a key reached storage');
    assert.ok(!logged.includes(secret), 'a key reached the log');
  }
});
