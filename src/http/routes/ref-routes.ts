// Binds the refs routes (api/refs.ts) to the ref reader.
import type { FastifyInstance } from 'fastify';
import { refsRoutes } from '../../api/refs.js';
import { readRefsBatch } from '../../service/refs/refs-read.js';
import type { Store } from '../../storage/store.js';
import { bindRoute, RawJson } from '../bind-route.js';

export function registerRefRoutes(app: FastifyInstance, store: Store): void {
  bindRoute(
    app,
    refsRoutes.refsReadBatch,
    async (body) => new RawJson(await readRefsBatch(store.objects, store.tables, body.refs)),
  );
}
