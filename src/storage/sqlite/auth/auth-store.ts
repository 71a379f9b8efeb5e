// AuthStore on SQLite: users, user_roles and api_keys (sqlite/auth/auth-schema.ts). Reads here,
// writes through the writer (sqlite/auth/auth-writes.ts).
import type { AuthStore, Grant, KeyRecord, StoredUser } from '../../auth/auth-store.js';
import type { SqliteDb } from '../engine/database.js';
import { ROLES_OF_USERS, toGrant } from './auth-writes.js';
import type { SqliteWriter } from '../engine/writer.js';

interface KeyRow {
  id: string;
  user_id: string;
  user_name: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export function createSqliteAuthStore(db: SqliteDb, writer: SqliteWriter): AuthStore {
  const anyKey = db.prepare('SELECT EXISTS (SELECT 1 FROM api_keys) AS found');
  const byHash = db.prepare(
    `SELECT k.id AS key_id, u.id AS user_id, u.name AS user_name
       FROM api_keys k JOIN users u ON u.id = k.user_id
      WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
  );
  const rolesOf = db.prepare(ROLES_OF_USERS);
  const allKeys = db.prepare(
    `SELECT k.id, k.user_id, u.name AS user_name, k.prefix, k.created_at, k.revoked_at
       FROM api_keys k JOIN users u ON u.id = k.user_id ORDER BY k.created_at, k.id`,
  );
  const names = db.prepare('SELECT id, name FROM users WHERE id IN (SELECT value FROM json_each(?))');
  const dataVersion = db.prepare('PRAGMA data_version').pluck();

  const grantsOf = (userIds: readonly string[]): Map<string, Grant[]> => {
    const out = new Map<string, Grant[]>(userIds.map((id) => [id, []]));
    for (const r of rolesOf.all(JSON.stringify(userIds)) as Parameters<typeof toGrant>[0][])
      out.get(r.user_id)?.push(toGrant(r));
    return out;
  };

  // hasKeys runs on every request. Keys are never deleted (a revoked key still counts), so
  // once true it stays true. While false, the answer can only change by a commit of another
  // connection (the writer's, or the CLI's), which PRAGMA data_version reveals without
  // touching any table.
  let keyed = false;
  let seenVersion = -1;
  const hasKeys = (): boolean => {
    if (keyed) return true;
    const version = dataVersion.get() as number;
    if (version === seenVersion) return false;
    seenVersion = version;
    keyed = (anyKey.get() as { found: number }).found === 1;
    return keyed;
  };
  return {
    async hasKeys() {
      return hasKeys();
    },
    async findKey(hash) {
      const row = byHash.get(hash) as { key_id: string; user_id: string; user_name: string } | undefined;
      if (row === undefined) return null;
      return {
        keyId: row.key_id,
        user: { id: row.user_id, name: row.user_name },
        grants: grantsOf([row.user_id]).get(row.user_id) ?? [],
      };
    },
    async createKey(userName, newUserId, grant, key, scope) {
      const outcome = await writer.run('auth.createKey', [userName, newUserId, grant, key, scope]);
      if ('created' in outcome) keyed = true;
      return outcome;
    },
    async listKeys() {
      return (allKeys.all() as KeyRow[]).map(
        (r): KeyRecord => ({
          id: r.id,
          user: { id: r.user_id, name: r.user_name },
          prefix: r.prefix,
          createdAt: r.created_at,
          revokedAt: r.revoked_at,
        }),
      );
    },
    async grantsOf(userIds) {
      return grantsOf(userIds);
    },
    revokeKey: (id, at, scope) => writer.run('auth.revokeKey', [id, at, scope]),
    async usernames(ids) {
      // Users are only made with keys: no key, no user to name (and no query on each read).
      if (ids.length === 0 || !hasKeys()) return new Map();
      return new Map((names.all(JSON.stringify(ids)) as StoredUser[]).map((u) => [u.id, u.name]));
    },
  };
}
