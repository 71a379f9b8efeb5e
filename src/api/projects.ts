// Project settings: the calls' time-to-live (Weave's ProjectTTLSettings* models).
import { Type, type Static } from 'typebox';
import { defineRoute } from './route-spec.js';
import { Nullable, ProjectId, Strict } from './common.js';

/** Days of retention; null (or absent) = no time-to-live. Weave: None or >= 1. */
const RetentionDays = Nullable(Type.Integer({ description: 'Days calls are kept; null: no time-to-live' }));

export const ProjectTTLSettingsReadReq = Strict({ project_id: ProjectId });
export type ProjectTTLSettingsReadReq = Static<typeof ProjectTTLSettingsReadReq>;
export const ProjectTTLSettingsReadRes = Type.Object({ retention_days: Type.Union([Type.Integer(), Type.Null()]) });

export const ProjectTTLSettingsUpdateReq = Strict({
  project_id: ProjectId,
  retention_days: RetentionDays,
  /** Sent by the SDK; ignored: the server decides who the caller is. */
  wb_user_id: Nullable(Type.String()),
});
export type ProjectTTLSettingsUpdateReq = Static<typeof ProjectTTLSettingsUpdateReq>;
export const ProjectTTLSettingsUpdateRes = ProjectTTLSettingsReadRes;

const IncludeFlag = Nullable(Type.Boolean({ default: true }));
export const ProjectStatsReq = Strict({
  project_id: ProjectId,
  include_trace_storage_size: IncludeFlag,
  include_object_storage_size: IncludeFlag,
  include_table_storage_size: IncludeFlag,
  include_file_storage_size: IncludeFlag,
});
export type ProjectStatsReq = Static<typeof ProjectStatsReq>;
const Bytes = Type.Integer({ minimum: 0 });
export const ProjectStatsRes = Type.Object({
  trace_storage_size_bytes: Bytes,
  objects_storage_size_bytes: Bytes,
  tables_storage_size_bytes: Bytes,
  files_storage_size_bytes: Bytes,
});
export type ProjectStatsRes = Static<typeof ProjectStatsRes>;

const tag = 'Projects';
export const projectsRoutes = {
  ttlSettingsRead: defineRoute({
    access: 'admin',
    id: 'project_ttl_settings_read',
    method: 'POST',
    path: '/project/ttl_settings/read',
    tag,
    summary: "Read the project's call time-to-live",
    body: ProjectTTLSettingsReadReq,
    response: ProjectTTLSettingsReadRes,
  }),
  ttlSettingsUpdate: defineRoute({
    access: 'admin',
    id: 'project_ttl_settings_update',
    method: 'POST',
    path: '/project/ttl_settings/update',
    tag,
    summary: "Set the project's call time-to-live (applies to calls written afterwards)",
    body: ProjectTTLSettingsUpdateReq,
    response: ProjectTTLSettingsUpdateRes,
    errors: [400],
  }),
  projectStats: defineRoute({
    access: 'read',
    id: 'project_stats',
    method: 'POST',
    path: '/project/stats',
    tag,
    summary: 'Bytes stored by the project: calls, objects, tables, files (0 for a part not asked for)',
    body: ProjectStatsReq,
    response: ProjectStatsRes,
  }),
} as const;
