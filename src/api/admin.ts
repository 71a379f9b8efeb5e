// Request and response schemas of the admin API: API keys (admin role only).
import { Type, type Static } from 'typebox';
import { Strict } from './common.js';
import { defineRoute } from './route-spec.js';

const Role = Type.Union([Type.Literal('admin'), Type.Literal('writer'), Type.Literal('reader')]);
const Grant = Type.Object({ entity: Type.String(), project: Type.Union([Type.String(), Type.Null()]), role: Role });

export const KeyCreateReq = Strict({
  user: Type.String({ minLength: 1, description: 'User name; the user is created if new' }),
  entity: Type.String({ minLength: 1 }),
  role: Role,
  project: Type.Optional(
    Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
      description: 'Only this project of the entity; absent: every project',
    }),
  ),
});
export type KeyCreateReq = Static<typeof KeyCreateReq>;

export const KeyCreateRes = Type.Object({
  id: Type.String(),
  key: Type.String({ description: 'The key itself: shown this once, never stored' }),
  user_id: Type.String(),
  user: Type.String(),
  entity: Type.String(),
  project: Type.Union([Type.String(), Type.Null()]),
  role: Role,
  created_at: Type.String(),
});

export const KeyListReq = Strict({});
export const KeyListRes = Type.Object({
  keys: Type.Array(
    Type.Object({
      id: Type.String(),
      prefix: Type.String({ description: 'The first characters of the key, to recognise it' }),
      user_id: Type.String(),
      user: Type.String(),
      roles: Type.Array(Grant),
      created_at: Type.String(),
      revoked_at: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});

export const KeyRevokeReq = Strict({ id: Type.String({ minLength: 1 }) });
export type KeyRevokeReq = Static<typeof KeyRevokeReq>;
export const KeyRevokeRes = Type.Object({ id: Type.String(), revoked_at: Type.String() });

const tag = 'Admin';
export const adminRoutes = {
  keyCreate: defineRoute({
    access: 'admin',
    baseOnly: true,
    id: 'admin_key_create',
    method: 'POST',
    path: '/admin/keys/create',
    tag,
    summary: 'Create an API key (returned once)',
    body: KeyCreateReq,
    response: KeyCreateRes,
    errors: [400, 401, 403],
  }),
  keyList: defineRoute({
    access: 'admin',
    baseOnly: true,
    id: 'admin_key_list',
    method: 'POST',
    path: '/admin/keys/list',
    tag,
    summary: 'List API keys (never the keys themselves)',
    body: KeyListReq,
    response: KeyListRes,
    errors: [401, 403],
  }),
  keyRevoke: defineRoute({
    access: 'admin',
    baseOnly: true,
    id: 'admin_key_revoke',
    method: 'POST',
    path: '/admin/keys/revoke',
    tag,
    summary: 'Revoke an API key',
    body: KeyRevokeReq,
    response: KeyRevokeRes,
    errors: [401, 403, 404],
  }),
} as const;
