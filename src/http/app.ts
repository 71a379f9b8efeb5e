// Builds the Fastify application: parsers, validation settings, identity, errors, routes.
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { Ajv } from 'ajv';
import type { Config } from '../config.js';
import type { Store } from '../storage/store.js';
import { isTimestamp } from '../time.js';
import { registerErrorHandler } from './error-handler.js';
import { registerRequestContext } from './request-context.js';
import { registerMetaRoutes } from './routes/meta-routes.js';
import { registerCallRoutes } from './routes/call-routes.js';
import { registerObjectRoutes } from './routes/object-routes.js';
import { registerFeedbackRoutes } from './routes/feedback-routes.js';
import { registerTableRoutes } from './routes/table-routes.js';
import { registerFileRoutes } from './routes/file-routes.js';
import { registerRefRoutes } from './routes/ref-routes.js';
import { registerCostRoutes } from './routes/cost-routes.js';

// Timestamps may omit the zone (naive = UTC, as the Python SDK may send them).
function addTimestampFormat(ajv: Ajv): Ajv {
  return ajv.addFormat('date-time', { type: 'string', validate: isTimestamp });
}

export interface AppDeps {
  readonly store: Store;
  readonly config: Pick<Config, 'bodyLimit' | 'localUserId' | 'localUsername' | 'logLevel'>;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: deps.config.bodyLimit,
    logger: deps.config.logLevel === 'silent' ? false : { level: deps.config.logLevel },
    ajv: {
      customOptions: {
        // Strict request models: keep what the client sent, no coercion, defaults applied.
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: true,
        allErrors: false,
        strict: false,
      },
      // After ajv-formats is installed, so this definition of date-time wins.
      onCreate: addTimestampFormat,
    },
  });
  registerErrorHandler(app);
  registerRequestContext(app, { userId: deps.config.localUserId, username: deps.config.localUsername });
  registerMetaRoutes(app);
  registerCallRoutes(app, deps.store);
  registerObjectRoutes(app, deps.store);
  registerFeedbackRoutes(app, deps.store);
  registerTableRoutes(app, deps.store);
  await app.register(multipart, { limits: { fileSize: deps.config.bodyLimit } });
  registerFileRoutes(app, deps.store);
  registerRefRoutes(app, deps.store);
  registerCostRoutes(app, deps.store);
  await app.ready();
  return app;
}
