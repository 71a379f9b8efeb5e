// Request and response schemas of the secrets API: an entity's secrets (model providers' API
// keys), for admins of the entity (the local user in open mode). Values go in, never out.
import { Type } from 'typebox';
import { Strict } from './common.js';
import { defineRoute } from './route-spec.js';

const Entity = Type.String({ minLength: 1, maxLength: 128 });
const Name = Type.String({ minLength: 1, maxLength: 128, description: 'e.g. OPENAI_API_KEY' });

export const SecretSetReq = Strict({
  entity: Entity,
  name: Name,
  value: Type.String({ description: 'The secret: stored sealed, never returned' }),
});
export const SecretSetRes = Type.Object({ entity: Type.String(), name: Type.String(), updated_at: Type.String() });

export const SecretListReq = Strict({ entity: Entity });
export const SecretListRes = Type.Object({
  entity: Type.String(),
  secrets: Type.Array(
    Type.Object({
      name: Type.String(),
      created_at: Type.String(),
      updated_at: Type.String(),
      updated_by: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});

export const SecretDeleteReq = Strict({ entity: Entity, name: Name });
export const SecretDeleteRes = Type.Object({ entity: Type.String(), name: Type.String(), deleted: Type.Literal(true) });

const tag = 'Admin';
export const secretsRoutes = {
  secretSet: defineRoute({
    access: 'admin',
    baseOnly: true,
    id: 'admin_secret_set',
    method: 'POST',
    path: '/admin/secrets/set',
    tag,
    summary: "Set an entity's secret (its value is stored sealed and never returned)",
    body: SecretSetReq,
    response: SecretSetRes,
    errors: [400, 401, 403],
  }),
  secretList: defineRoute({
    access: 'admin',
    baseOnly: true,
    id: 'admin_secret_list',
    method: 'POST',
    path: '/admin/secrets/list',
    tag,
    summary: "List an entity's secrets: names and dates, never values",
    body: SecretListReq,
    response: SecretListRes,
    errors: [400, 401, 403],
  }),
  secretDelete: defineRoute({
    access: 'admin',
    baseOnly: true,
    id: 'admin_secret_delete',
    method: 'POST',
    path: '/admin/secrets/delete',
    tag,
    summary: "Delete an entity's secret",
    body: SecretDeleteReq,
    response: SecretDeleteRes,
    errors: [400, 401, 403, 404],
  }),
} as const;
