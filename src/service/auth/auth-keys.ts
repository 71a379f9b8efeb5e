// API keys: creation (the key is returned once and stored only as a hash), lookup,
// listing and revocation. Shared by the CLI and the admin HTTP API.
//
// Hash choice: a key is `weft_` + 32 random bytes (256 bits), so a plain SHA-256 of it is
// enough: stretching (scrypt) protects low-entropy secrets like passwords, and would cost
// every request tens of milliseconds. The hash itself is the lookup index (no key id
// prefix needed), and the key id shown in listings is a separate random id.
import { createHash, randomBytes } from 'node:crypto';
import { InvalidRequestError, NotFoundError } from '../../api/errors.js';
import { ROLES, type AuthStore, type Grant, type Role, type StoredUser } from '../../storage/auth/auth-store.js';
import { managedScope, mayManage, type Access } from './auth-access.js';
import { ForbiddenError } from './auth-errors.js';

export const KEY_PREFIX = 'weft_';

export const hashKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

export interface CreateKeyInput {
  readonly user: string;
  readonly entity: string;
  readonly role: string;
  readonly project?: string | null;
}

export interface CreatedKey {
  readonly id: string;
  /** The key itself: shown once, never stored. */
  readonly key: string;
  readonly user_id: string;
  readonly user: string;
  readonly entity: string;
  readonly project: string | null;
  readonly role: Role;
  readonly created_at: string;
}

export interface ListedKey {
  readonly id: string;
  readonly prefix: string;
  readonly user_id: string;
  readonly user: string;
  readonly roles: readonly Grant[];
  readonly created_at: string;
  readonly revoked_at: string | null;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/;

function checkInput(input: CreateKeyInput): Grant {
  if (!NAME.test(input.user)) throw new InvalidRequestError(`Invalid user name ${JSON.stringify(input.user)}`);
  if (!NAME.test(input.entity)) throw new InvalidRequestError(`Invalid entity ${JSON.stringify(input.entity)}`);
  const project = input.project ?? null;
  if (project !== null && !NAME.test(project))
    throw new InvalidRequestError(`Invalid project ${JSON.stringify(project)}`);
  if (!(ROLES as readonly string[]).includes(input.role))
    throw new InvalidRequestError(`Role must be one of ${ROLES.join(', ')}`);
  return { entity: input.entity, project, role: input.role as Role };
}

export async function createKey(auth: AuthStore, input: CreateKeyInput, caller: Access): Promise<CreatedKey> {
  const grant = checkInput(input);
  if (!mayManage(caller, [grant])) throw new ForbiddenError(`No admin role on entity ${grant.entity}`);
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  const createdAt = new Date().toISOString();
  const id = `key_${randomBytes(8).toString('hex')}`;
  const outcome = await auth.createKey(
    input.user,
    `user_${randomBytes(8).toString('hex')}`,
    grant,
    {
      id,
      hash: hashKey(key),
      prefix: key.slice(0, KEY_PREFIX.length + 6),
      createdAt,
    },
    managedScope(caller),
  );
  if ('refused' in outcome) {
    throw new ForbiddenError(
      `User ${input.user} holds roles in entities you do not administer: only an admin of all of them, or the weft CLI, can give it keys or roles`,
    );
  }
  const user: StoredUser = outcome.created;
  return {
    id,
    key,
    user_id: user.id,
    user: user.name,
    entity: grant.entity,
    project: grant.project,
    role: grant.role,
    created_at: createdAt,
  };
}

/** The keys whose users the caller may manage (all of them for the CLI / open mode). */
export async function listKeys(auth: AuthStore, caller: Access): Promise<ListedKey[]> {
  const keys = await auth.listKeys();
  const grants = await auth.grantsOf([...new Set(keys.map((k) => k.user.id))]);
  return keys
    .filter((k) => mayManage(caller, grants.get(k.user.id) ?? []))
    .map((k) => ({
      id: k.id,
      prefix: k.prefix,
      user_id: k.user.id,
      user: k.user.name,
      roles: grants.get(k.user.id) ?? [],
      created_at: k.createdAt,
      revoked_at: k.revokedAt,
    }));
}

/** Revokes a live key of a user the caller manages; any other key is reported missing (404), as list hides it. */
export async function revokeKey(
  auth: AuthStore,
  id: string,
  caller: Access,
): Promise<{ id: string; revoked_at: string }> {
  const at = new Date().toISOString();
  if ((await auth.revokeKey(id, at, managedScope(caller))) !== 'revoked')
    throw new NotFoundError(`No live key ${id} among the keys you manage`);
  return { id, revoked_at: at };
}
