// OpenTelemetry trace export (OTLP/HTTP). The request is an ExportTraceServiceRequest in
// protobuf or JSON; its schema is the OTLP protobuf definition (ingest/otlp/otlp-proto.ts),
// which both encodings are decoded against. The schemas here describe the JSON encoding for
// the OpenAPI document only.
import { Type } from 'typebox';
import { DataList } from './limits.js';
import { defineRoute, type RouteSpec } from './route-spec.js';

export const OtlpExportReq = Type.Object(
  { resourceSpans: Type.Optional(DataList(Type.Record(Type.String(), Type.Unknown()))) },
  { description: 'ExportTraceServiceRequest (OTLP/JSON: hex trace and span ids, int64 as string or number)' },
);

export const OtlpExportRes = Type.Object(
  {
    partialSuccess: Type.Optional(
      Type.Object({
        rejectedSpans: Type.String({ description: 'int64, as a decimal string' }),
        errorMessage: Type.String(),
      }),
    ),
  },
  { description: 'ExportTraceServiceResponse; partialSuccess only when spans were rejected' },
);

/** What every OTLP export route shares (the calls' and the agents' alike). */
export const otlpRouteBase = {
  access: 'write',
  method: 'POST',
  tag: 'OpenTelemetry',
  body: OtlpExportReq,
  response: OtlpExportRes,
  requestBody: 'otlp',
  reply: 'otlp',
  carriesData: true,
  errors: [400, 413, 415, 503],
} as const;

const summary =
  'Export OpenTelemetry spans (OTLP/HTTP, protobuf or JSON): each span becomes a call. ' +
  'The project: the project_id header, else the resource attributes wandb.entity and wandb.project.';

export const otlpRoutes = {
  otelTraces: defineRoute({ ...otlpRouteBase, id: 'otel_export', path: '/otel/v1/traces', summary }),
  // The path stock exporters post to when OTEL_EXPORTER_OTLP_ENDPOINT is the server's base URL.
  v1Traces: defineRoute({ ...otlpRouteBase, id: 'otel_export_v1', path: '/v1/traces', summary, hidden: true }),
  otelTrace: defineRoute({
    ...otlpRouteBase,
    id: 'otel_export_singular',
    path: '/otel/v1/trace',
    summary,
    hidden: true,
  }),
} as const satisfies Record<string, RouteSpec>;
