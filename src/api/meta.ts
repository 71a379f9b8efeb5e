// Service-level routes: liveness, server info, the OpenAPI document.
import { Type } from 'typebox';
import { defineRoute } from './route-spec.js';

export const WEFT_VERSION = '0.1.0';

/** 200 either way (reads still work, and the SDKs' login needs a 2xx): degraded says why writes fail. */
export const HealthRes = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  reason: Type.Optional(Type.String({ description: 'Why writes fail, while degraded' })),
  since: Type.Optional(Type.String({ description: 'When writes started to fail' })),
});
export const ServerInfoRes = Type.Object({
  min_required_weave_python_version: Type.String(),
  trace_server_version: Type.Union([Type.String(), Type.Null()]),
});

export const metaRoutes = {
  health: defineRoute({
    access: 'open',
    id: 'health',
    method: 'GET',
    path: '/health',
    tag: 'Service',
    summary: 'Liveness check',
    body: undefined,
    response: HealthRes,
    open: true,
  }),
  serverInfo: defineRoute({
    access: 'open',
    id: 'server_info',
    method: 'GET',
    path: '/server_info',
    tag: 'Service',
    summary: 'Server version and client requirements',
    body: undefined,
    response: ServerInfoRes,
    open: true,
  }),
  openapi: defineRoute({
    access: 'open',
    id: 'openapi',
    method: 'GET',
    path: '/openapi.json',
    tag: 'Service',
    summary: 'This OpenAPI 3.1 document',
    body: undefined,
    response: Type.Object({}, { additionalProperties: true }),
    open: true,
  }),
} as const;
