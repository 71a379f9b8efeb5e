// Users, their roles and their API keys. Keys are held only as hashes: the store never
// sees a key in clear text.

export type Role = 'admin' | 'writer' | 'reader';
export const ROLES: readonly Role[] = ['reader', 'writer', 'admin'];

/** A role on a whole entity (project null) or on one project of it. */
export interface Grant {
  readonly entity: string;
  readonly project: string | null;
  readonly role: Role;
}

export interface StoredUser {
  readonly id: string;
  readonly name: string;
}

/** A key as listed: never its secret, only its id and the few characters shown at creation. */
export interface KeyRecord {
  readonly id: string;
  readonly user: StoredUser;
  readonly prefix: string;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

export interface NewKey {
  readonly id: string;
  readonly hash: string;
  readonly prefix: string;
  readonly createdAt: string;
}

/** A key was made for `user`; or the named user holds roles outside the caller's scope. */
export type CreateKeyOutcome = { readonly created: StoredUser } | { readonly refused: 'foreign-user' };

/**
 * True when `scope` is null (any entity) or the grants are not empty and every one names an
 * entity of `scope` (a user without roles belongs to no admin).
 */
export function grantsWithin(grants: readonly Grant[], scope: readonly string[] | null): boolean {
  return scope === null || (grants.length > 0 && grants.every((g) => scope.includes(g.entity)));
}

export interface AuthStore {
  /** True once any key was ever created (revoked ones count: revoking never reopens a server). */
  hasKeys(): Promise<boolean>;
  /** The live (not revoked) key with this hash, with its user and the user's roles. */
  findKey(
    hash: string,
  ): Promise<{ readonly keyId: string; readonly user: StoredUser; readonly grants: readonly Grant[] } | null>;
  /**
   * In one transaction: the user named `userName` (created with `newUserId` if absent),
   * its role `grant` (replacing the role it had on the same entity / project), the key.
   * `scope` bounds whose keys the caller manages: null = everyone's; else an existing user
   * holding any role on an entity outside `scope` is refused and nothing is written
   * (checked inside the transaction, so no concurrent grant slips between check and write).
   */
  createKey(
    userName: string,
    newUserId: string,
    grant: Grant,
    key: NewKey,
    scope: readonly string[] | null,
  ): Promise<CreateKeyOutcome>;
  listKeys(): Promise<KeyRecord[]>;
  /** The roles of the users, by user id. */
  grantsOf(userIds: readonly string[]): Promise<Map<string, Grant[]>>;
  /**
   * Marks a live key revoked when its user's roles all lie in `scope` (null = any user):
   * 'revoked', or 'missing' when no such live key exists for this scope.
   */
  revokeKey(id: string, at: string, scope: readonly string[] | null): Promise<'revoked' | 'missing'>;
  /** Names of stored users, by id (ids not stored are absent). */
  usernames(ids: readonly string[]): Promise<Map<string, string>>;
}
