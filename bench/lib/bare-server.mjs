// The HTTP baseline: a bare Fastify app answering POST routes with fixed JSON bodies
// (same bytes, hence same size, as Weft's answer to the same request), plus GET /health.
// Plain JavaScript on purpose: it must start the same way as the built server
// (`node file.js`, no TypeScript loader), so the startup baseline is comparable.
// Usage: node bench/lib/bare-server.mjs <port> <routes.json>   where routes.json is
// {"<path>": "<response body>", ...}. Prints "bare listening on <url>".
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const port = Number(process.argv[2]);
const routes = process.argv[3] ? JSON.parse(readFileSync(process.argv[3], 'utf8')) : {};
const app = Fastify({ logger: false, bodyLimit: 32 * 1024 * 1024 });
app.get('/health', async () => ({ status: 'ok' }));
for (const [path, body] of Object.entries(routes)) {
  app.post(path, async (_req, reply) => reply.type('application/json').send(body));
}
const address = await app.listen({ host: '127.0.0.1', port });
process.stdout.write(`bare listening on ${address}\n`);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    app.close().then(() => process.exit(0));
  });
}
