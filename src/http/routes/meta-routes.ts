import type { FastifyInstance } from 'fastify';
import { metaRoutes, WEFT_VERSION } from '../../api/meta.js';
import { buildOpenApi } from '../../api/openapi.js';
import { ROUTES } from '../../api/routes.js';
import { bindRoute } from '../bind-route.js';
import type { Store } from '../../storage/store.js';

export function registerMetaRoutes(app: FastifyInstance, store: Pick<Store, 'health'>): void {
  const openapi = buildOpenApi(ROUTES);
  bindRoute(app, metaRoutes.health, async () => store.health());
  bindRoute(app, metaRoutes.serverInfo, async () => ({
    min_required_weave_python_version: '0.0.1',
    trace_server_version: WEFT_VERSION,
  }));
  bindRoute(app, metaRoutes.openapi, async () => openapi);
}
