// How the server stops (SIGTERM, SIGINT): no new connections; requests in flight finish (a
// request arriving meanwhile on an open connection gets Fastify's 503); each kept-alive
// connection is closed as soon as it is idle, for a client that keeps one alive (the SDKs
// retry a 503 on it) would otherwise hold the stop for the keep-alive timeout, 72 s (measured:
// 70 s under load); whatever still runs after the deadline is cut off.
import type { FastifyInstance } from 'fastify';

export async function closeGracefully(app: FastifyInstance, deadlineMs = 10_000): Promise<void> {
  const reaper = setInterval(() => app.server.closeIdleConnections(), 50);
  const deadline = setTimeout(() => app.server.closeAllConnections(), deadlineMs);
  try {
    await app.close();
  } finally {
    clearInterval(reaper);
    clearTimeout(deadline);
  }
}
