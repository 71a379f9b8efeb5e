import type { FastifyInstance } from 'fastify';
import type { Store } from '../../storage/store.js';

export function registerFileRoutes(_app: FastifyInstance, _store: Store): void {}
