// Entities' secrets (model providers' API keys): set, listed by name and dates, deleted, by an
// admin of the entity (the local user in open mode), and read only by the server itself for its
// outbound requests (`value`), never answered. Values are sealed before they reach the store
// (secret-box.ts); server-wide fallbacks come from the environment as WEFT_SECRET_<NAME>.
import { InvalidRequestError, NotFoundError } from '../../api/errors.js';
import type { SecretStore } from '../../storage/secrets/secret-store.js';
import { formatTimestamp, nowMicros } from '../../time.js';
import { adminEntities, type Access } from '../auth/auth-access.js';
import { ForbiddenError } from '../auth/auth-errors.js';
import { openSecret, sealSecret } from './secret-box.js';

/** Secret names as providers' conventions have them (OPENAI_API_KEY, my-gateway.key). */
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;
const ENTITY = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/;
/** Bytes a secret's value may hold (keys and tokens are far shorter). */
export const SECRET_VALUE_MAX_BYTES = 16 * 1024;
const ENV_PREFIX = 'WEFT_SECRET_';

export interface SecretsDeps {
  readonly store: SecretStore;
  readonly key: () => Buffer;
  /** The environment WEFT_SECRET_<NAME> fallbacks are read from. */
  readonly env?: NodeJS.ProcessEnv;
}

function checkEntity(entity: string, caller: Access): void {
  if (!ENTITY.test(entity)) throw new InvalidRequestError(`Invalid entity ${JSON.stringify(entity)}`);
  if (!caller.all && !adminEntities(caller).has(entity)) throw new ForbiddenError(`No admin role on entity ${entity}`);
}

function checkName(name: string): void {
  if (!NAME.test(name))
    throw new InvalidRequestError(
      `Invalid secret name ${JSON.stringify(name)}: letters, digits, _ . - (a letter or _ first), at most 128`,
    );
}

export function createSecretsService({ store, key, env = process.env }: SecretsDeps) {
  return {
    async set(input: { entity: string; name: string; value: string }, caller: Access, userId: string | null) {
      checkEntity(input.entity, caller);
      checkName(input.name);
      if (input.value.length === 0) throw new InvalidRequestError('A secret needs a value');
      if (Buffer.byteLength(input.value, 'utf8') > SECRET_VALUE_MAX_BYTES)
        throw new InvalidRequestError(`A secret's value holds at most ${SECRET_VALUE_MAX_BYTES} bytes`);
      const at = nowMicros();
      await store.set(input.entity, input.name, sealSecret(key(), input.entity, input.name, input.value), at, userId);
      return { entity: input.entity, name: input.name, updated_at: formatTimestamp(at) };
    },

    async list(entity: string, caller: Access) {
      checkEntity(entity, caller);
      const secrets = (await store.list(entity)).map((s) => ({
        name: s.name,
        created_at: formatTimestamp(s.createdAt),
        updated_at: formatTimestamp(s.updatedAt),
        updated_by: s.updatedBy,
      }));
      return { entity, secrets };
    },

    async delete(entity: string, name: string, caller: Access) {
      checkEntity(entity, caller);
      checkName(name);
      if (!(await store.delete(entity, name, nowMicros())))
        throw new NotFoundError(`Entity ${entity} has no secret ${name}`);
      return { entity, name, deleted: true as const };
    },

    /** Whether `value` would find one; opens nothing. */
    async has(entity: string, name: string): Promise<boolean> {
      if ((await store.get(entity, name)) !== null) return true;
      return Boolean(env[`${ENV_PREFIX}${name}`]);
    },

    /** The value the server uses: the entity's secret, else WEFT_SECRET_<NAME>, else null. Never answered. */
    async value(entity: string, name: string): Promise<string | null> {
      const sealed = await store.get(entity, name);
      if (sealed !== null) return openSecret(key(), entity, name, sealed);
      return env[`${ENV_PREFIX}${name}`] || null;
    },
  };
}

export type SecretsService = ReturnType<typeof createSecretsService>;
