// Optional per-key rate limit: a token bucket per API key, `perMinute` tokens refilled
// evenly. Open mode (no key) is not limited: it is one local user on loopback.
import type { FastifyInstance } from 'fastify';
import { RateLimitedError } from '../api/errors.js';

interface Bucket {
  tokens: number;
  at: number;
}

export function registerRateLimit(app: FastifyInstance, perMinute: number, now: () => number = Date.now): void {
  if (perMinute <= 0) return;
  const perMs = perMinute / 60_000;
  const buckets = new Map<string, Bucket>();
  app.addHook('preHandler', async (req) => {
    const key = req.weft?.keyId;
    if (!key) return;
    const t = now();
    const b = buckets.get(key) ?? { tokens: perMinute, at: t };
    b.tokens = Math.min(perMinute, b.tokens + (t - b.at) * perMs);
    b.at = t;
    buckets.set(key, b);
    if (b.tokens < 1) throw new RateLimitedError(Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000)));
    b.tokens -= 1;
  });
}
