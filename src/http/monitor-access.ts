// Who may read a `monitor` route (/metrics) without an API key: a peer on the loopback
// interface (a Prometheus or agent on the same host), or whoever sends the metrics token
// (WEFT_METRICS_TOKEN) as `Authorization: Bearer <token>` (or Basic, as keys are sent).
// A loopback peer that forwards for someone else (X-Forwarded-For, Forwarded: a reverse proxy
// on the same host) is not trusted as local: the request came from elsewhere. Anyone else needs
// a key, an admin's (request-context.ts, auth-guard.ts).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { isLoopback } from './auth-mode.js';
import { keyFromAuthorization } from './auth-header.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

export type MonitorCheck = (req: FastifyRequest) => boolean;

export function trustedMonitor(token: string | null): MonitorCheck {
  // Compared as digests: equal length, in constant time, whatever the caller sent.
  const expected = token === null || token === '' ? null : digest(token);
  return (req) => {
    const forwarded = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
    if (!forwarded && isLoopback(req.socket.remoteAddress ?? '')) return true;
    if (expected === null) return false;
    const sent = keyFromAuthorization(req.headers.authorization);
    return sent !== null && timingSafeEqual(digest(sent), expected);
  };
}
