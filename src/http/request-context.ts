// Who is calling. Until API keys exist every request is the one configured local user;
// the server, never the client, decides wb_user_id.
import type { FastifyInstance } from 'fastify';

export interface RequestContext {
  readonly userId: string;
  readonly username: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    weft: RequestContext;
  }
}

export function registerRequestContext(app: FastifyInstance, identity: RequestContext): void {
  app.decorateRequest('weft', null as unknown as RequestContext);
  app.addHook('onRequest', async (req) => {
    req.weft = identity;
  });
}
