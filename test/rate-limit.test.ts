// The optional per-key rate limit: 429 with Retry-After past the limit, per key, never in open mode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, startTestApp, PROJECT } from './helpers/test-app.js';

test('past its per-minute budget a key gets 429 with Retry-After; other keys are unaffected', async () => {
  const t = await startTestApp({
    rateLimitPerMinute: 5,
    keys: [
      { user: 'ann', entity: 'test-entity', role: 'writer' },
      { user: 'ben', entity: 'test-entity', role: 'writer' },
    ],
  });
  try {
    const [ann, ben] = t.keys.map((k) => k.key) as [string, string];
    const read = (key: string) => t.post('/calls/query_stats', { project_id: PROJECT }, bearer(key));
    for (let i = 0; i < 5; i++) assert.equal((await read(ann)).status, 200);
    const limited = await read(ann);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error_code, 'RATE_LIMITED');
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    assert.equal(limited.body.retry_after, Number(limited.headers['retry-after']));
    assert.equal((await read(ben)).status, 200, 'the budget is per key');
    assert.equal((await t.get('/health')).status, 200, 'open routes are not limited');
  } finally {
    await t.close();
  }
});

test('open mode (no keys) is never rate limited', async () => {
  const t = await startTestApp({ rateLimitPerMinute: 2 });
  try {
    for (let i = 0; i < 6; i++) assert.equal((await t.post('/calls/query_stats', { project_id: PROJECT })).status, 200);
  } finally {
    await t.close();
  }
});
