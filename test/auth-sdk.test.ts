// The real weave SDK against a keyed Weft: with a created key its calls are stored as that
// key's user; with a wrong key its writes are rejected and nothing is stored.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { assertRanCleanly, eventually, runSdk } from './sdk/sdk-harness.js';
import { startTestApp, bearer, type TestApp } from './helpers/test-app.js';
import { jsonl } from './helpers/calls.js';

let t: TestApp;
let url: string;
before(async () => {
  t = await startTestApp({ keys: [{ user: 'sdk-writer', entity: 'sdk-auth', role: 'writer' }] });
  url = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await t.close();
});

const callsOf = async (project: string) =>
  jsonl((await t.post('/calls/stream_query', { project_id: project }, bearer(t.keys[0]!.key))).text);
const OP = `
  const shout = weave.op(async function shout(text) { return text.toUpperCase() + '!'; });
  out.result = await shout('keyed');
`;

test("with a created key, the SDK writes calls stored as the key's user", async () => {
  const run = await runSdk(url, 'sdk-auth/ok', OP, { env: { WANDB_API_KEY: t.keys[0]!.key } });
  assertRanCleanly(run);
  assert.equal(run.result.result, 'KEYED!');
  const calls = await eventually(async () => {
    const c = await callsOf('sdk-auth/ok');
    return c.length === 1 && c[0].ended_at ? c : null;
  }, 'one ended call');
  assert.equal(calls[0].wb_user_id, t.keys[0]!.user_id);
  assert.equal(calls[0].wb_username, 'sdk-writer');
  assert.equal(calls[0].output, 'KEYED!');
});

test("with a wrong key, the SDK's writes are rejected and nothing is stored", async () => {
  const run = await runSdk(url, 'sdk-auth/denied', OP, { env: { WANDB_API_KEY: 'weft_wrong-key' }, timeoutMs: 60_000 });
  // The op itself runs (the SDK traces in the background); what matters is the server side.
  await new Promise((r) => setTimeout(r, 500));
  assert.deepEqual(await callsOf('sdk-auth/denied'), [], `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
  assert.match(run.stdout + run.stderr, /401|Unauthorized|API key/i);
});
