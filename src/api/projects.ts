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

const tag = 'Projects';
export const projectsRoutes = {
  ttlSettingsRead: defineRoute({
    access: 'admin', id: 'project_ttl_settings_read', method: 'POST', path: '/project/ttl_settings/read', tag,
    summary: "Read the project's call time-to-live", body: ProjectTTLSettingsReadReq, response: ProjectTTLSettingsReadRes,
  }),
  ttlSettingsUpdate: defineRoute({
    access: 'admin', id: 'project_ttl_settings_update', method: 'POST', path: '/project/ttl_settings/update', tag,
    summary: "Set the project's call time-to-live (applies to calls written afterwards)",
    body: ProjectTTLSettingsUpdateReq, response: ProjectTTLSettingsUpdateRes, errors: [400],
  }),
} as const;
