// Project routes (settings, stats), threads, and the retention job that enforces the time-to-live
// (started with the app, stopped when it closes).
import type { FastifyInstance } from 'fastify';
import { projectsRoutes } from '../../api/projects.js';
import type { RetentionService } from '../../service/retention/retention-service.js';
import { projectStats } from '../../service/projects/project-stats.js';
import { queryThreads } from '../../service/threads/threads-service.js';
import { threadsRoutes } from '../../api/threads.js';
import { startRetentionJob } from '../../service/retention/retention-job.js';
import type { Store } from '../../storage/store.js';
import { bindRoute } from '../bind-route.js';

export function registerProjectRoutes(app: FastifyInstance, store: Store, retention: RetentionService): void {
  bindRoute(app, projectsRoutes.ttlSettingsRead, (body) => retention.read(body));
  bindRoute(app, projectsRoutes.ttlSettingsUpdate, (body, ctx) => retention.update(body, ctx));
  bindRoute(app, projectsRoutes.projectStats, (body) => projectStats(store, body));
}

export function registerThreadRoutes(app: FastifyInstance, store: Store): void {
  bindRoute(app, threadsRoutes.threadsStreamQuery, (body) => queryThreads(store, body));
}

/** Starts the retention job (intervalMs 0: never) and bounds the call write queue. */
export function registerRetentionAndLimits(
  app: FastifyInstance,
  store: Store,
  limits: { retentionIntervalMs: number; ingestQueueBytes: number },
): void {
  store.calls.limitWriteQueue(limits.ingestQueueBytes);
  const job = startRetentionJob(store, {
    intervalMs: limits.retentionIntervalMs,
    onError: (err) => app.log.error({ err }, 'retention pass failed'),
  });
  app.addHook('onClose', () => job.stop());
}
