// Binds the admin API (api/admin.ts): API keys, for callers with an admin role. An admin
// manages the keys of users whose roles all lie in entities it admins.
import type { FastifyInstance } from 'fastify';
import { adminRoutes as r } from '../../api/admin.js';
import { createKey, listKeys, revokeKey } from '../../service/auth/auth-keys.js';
import type { Store } from '../../storage/store.js';
import { bindRoute } from '../bind-route.js';

export function registerAdminRoutes(app: FastifyInstance, store: Store): void {
  bindRoute(app, r.keyCreate, async (body, ctx) => createKey(store.auth, body, ctx.access));
  bindRoute(app, r.keyList, async (_body, ctx) => ({ keys: await listKeys(store.auth, ctx.access) }));
  bindRoute(app, r.keyRevoke, async (body, ctx) => revokeKey(store.auth, body.id, ctx.access));
}
