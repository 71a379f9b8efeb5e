// Builds the Fastify application: parsers, validation settings, identity, errors, routes.
import { secretsKeySource } from '../service/secrets/secret-key.js';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { DEFAULTS, type Config } from '../config.js';
import type { Store } from '../storage/store.js';
import { lazyValidator } from './lazy-validators.js';
import { registerErrorHandler } from './error-handler.js';
import { registerRequestContext } from './request-context.js';
import { registerRetentionAndLimits } from './routes/project-routes.js';
import { defaultUiDir } from './routes/ui-routes.js';
import { ROUTE_BINDINGS } from './routes/index.js';
import { createServices } from '../service/services.js';
import { SIGNALS_DEFAULTS } from '../service/signals/signals-service.js';
import { registerAuthGuard } from './auth-guard.js';
import { registerRateLimit } from './rate-limit.js';
import { fastifyLogging } from './request-log.js';
import type { LogDestination } from './pretty-log.js';
import { registerObservability } from './observability.js';
import { trustedMonitor } from './monitor-access.js';
import { browserGuard } from './browser-guard.js';
import { hostPolicy } from './host-policy.js';
import { ROUTE_GROUPS, ROUTES } from '../api/routes.js';
import { servedPaths, type RouteAccess, type RouteSpec } from '../api/route-spec.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The access of a route outside the route table (the web UI's pages and redirects). */
    access?: RouteAccess;
  }
}

/** The spec of a request's route, by method and path pattern (undefined: no such route). */
function routeSpecs(): (req: FastifyRequest) => RouteSpec | undefined {
  const byRoute = new Map<string, RouteSpec>(
    ROUTES.flatMap((s) => servedPaths(s).map((p) => [`${s.method} ${p}`, s] as const)),
  );
  // HEAD is served by the GET route (Fastify adds it), so it is checked as that route.
  return (req) =>
    req.routeOptions.url === undefined
      ? undefined
      : byRoute.get(`${req.method === 'HEAD' ? 'GET' : req.method} ${req.routeOptions.url}`);
}

export interface AppDeps {
  readonly store: Store;
  readonly config: Pick<Config, 'bodyLimit' | 'localUserId' | 'localUsername' | 'logLevel'> &
    Partial<
      Pick<
        Config,
        | 'allowedHosts'
        | 'ingestQueueBytes'
        | 'retentionIntervalMs'
        | 'rateLimitPerMinute'
        | 'defaultEntity'
        | 'logFormat'
        | 'metricsToken'
        | 'dataDir'
        | 'secretsKey'
        | 'outboundAllowedHosts'
        | 'signalsConcurrency'
        | 'signalsBacklog'
      >
    >;
  /** Where log lines go (default: stdout). */
  readonly logDestination?: LogDestination;
  /** The signals worker's bounds (default: SIGNALS_DEFAULTS). */
  readonly signals?: { readonly concurrency?: number; readonly pollMs?: number };
  /** Where WEFT_PROVIDER_<NAME>_BASE_URL and WEFT_SECRET_<NAME> are read (default: process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** The built web UI's directory (default: <package root>/dist/ui); null: none, the UI answers 503. */
  readonly uiDir?: string | null;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: deps.config.bodyLimit,
    ...fastifyLogging({
      level: deps.config.logLevel,
      format: deps.config.logFormat ?? DEFAULTS.logFormat,
      ...(deps.logDestination ? { destination: deps.logDestination } : {}),
    }),
  });
  app.setValidatorCompiler(({ schema }) => lazyValidator(schema));
  registerErrorHandler(app, (err) => deps.store.storageFault(err));
  const { store, metrics } = registerObservability(
    app,
    deps.store,
    deps.config.ingestQueueBytes ?? DEFAULTS.ingestQueueBytes,
  );
  const specOf = routeSpecs();
  // A route declares its access in its spec, or (outside the route table) in its Fastify config;
  // one declaring none is admin-only (fail closed). No route at all (a 404): undefined.
  const accessOf = (req: FastifyRequest): RouteAccess | undefined => {
    if (req.routeOptions.url === undefined) return undefined;
    const s = specOf(req);
    if (s === undefined) return req.routeOptions.config.access ?? 'admin';
    return s.access ?? (s.open ? 'open' : 'admin');
  };
  registerRequestContext(app, {
    local: { userId: deps.config.localUserId, username: deps.config.localUsername },
    auth: store.auth,
    accessOf,
    trustedMonitor: trustedMonitor(deps.config.metricsToken ?? null),
    guard: browserGuard(hostPolicy(deps.config.allowedHosts ?? DEFAULTS.allowedHosts)),
  });
  registerAuthGuard(app, accessOf, (req) => specOf(req)?.requestBody === 'multipart');
  registerRateLimit(app, deps.config.rateLimitPerMinute ?? 0);
  await app.register(multipart, { limits: { fileSize: deps.config.bodyLimit } });
  registerRetentionAndLimits(app, store, { ...DEFAULTS, ...deps.config });
  // Every service once, over the metered store; then every route group, in the table's order.
  const services = createServices(store, {
    secretsKey: secretsKeySource(deps.config.secretsKey ?? null, deps.config.dataDir ?? DEFAULTS.dataDir),
    outboundAllowedHosts: deps.config.outboundAllowedHosts ?? DEFAULTS.outboundAllowedHosts,
    env: deps.env ?? process.env,
    signals: {
      concurrency: deps.signals?.concurrency ?? deps.config.signalsConcurrency ?? SIGNALS_DEFAULTS.concurrency,
      backlog: deps.config.signalsBacklog ?? SIGNALS_DEFAULTS.backlog,
      pollMs: deps.signals?.pollMs ?? SIGNALS_DEFAULTS.pollMs,
      log: (message, err) => app.log.error({ err }, message),
    },
  });
  services.signals.start();
  app.addHook('onClose', () => services.signals.stop());
  const opts = {
    bodyLimit: deps.config.bodyLimit,
    defaultEntity: deps.config.defaultEntity ?? null,
    uiDir: deps.uiDir === undefined ? defaultUiDir() : deps.uiDir,
    metrics,
  };
  for (const group of Object.keys(ROUTE_GROUPS) as (keyof typeof ROUTE_GROUPS)[])
    await ROUTE_BINDINGS[group](app, services, opts);
  await app.ready();
  return app;
}
