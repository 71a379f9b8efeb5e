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

export interface AuthStore {
  /** True once any key was ever created (revoked ones count: revoking never reopens a server). */
  hasKeys(): Promise<boolean>;
  /** The live (not revoked) key with this hash, with its user and the user's roles. */
  findKey(hash: string): Promise<{ readonly keyId: string; readonly user: StoredUser; readonly grants: readonly Grant[] } | null>;
  /**
   * In one transaction: the user named `userName` (created with `newUserId` if absent),
   * its role `grant` (replacing the role it had on the same entity / project), the key.
   */
  createKey(userName: string, newUserId: string, grant: Grant, key: NewKey): Promise<StoredUser>;
  listKeys(): Promise<KeyRecord[]>;
  /** The roles of the users, by user id. */
  grantsOf(userIds: readonly string[]): Promise<Map<string, Grant[]>>;
  /** Marks a key revoked; false when no live key has this id. */
  revokeKey(id: string, at: string): Promise<boolean>;
  /** Names of stored users, by id (ids not stored are absent). */
  usernames(ids: readonly string[]): Promise<Map<string, string>>;
}
