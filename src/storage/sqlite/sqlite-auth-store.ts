// AuthStore on SQLite: users, user_roles and api_keys (sqlite-auth-schema.ts).
import { grantsWithin, type AuthStore, type CreateKeyOutcome, type Grant, type KeyRecord, type NewKey, type Role, type StoredUser } from '../auth-store.js';
import type { SqliteDb } from './sqlite-database.js';

interface RoleRow { user_id: string; entity: string; project: string; role: Role }
interface KeyRow { id: string; user_id: string; user_name: string; prefix: string; created_at: string; revoked_at: string | null }

const toGrant = (r: RoleRow): Grant => ({ entity: r.entity, project: r.project === '' ? null : r.project, role: r.role });

export function createSqliteAuthStore(db: SqliteDb): AuthStore {
  const anyKey = db.prepare('SELECT EXISTS (SELECT 1 FROM api_keys) AS found');
  const byHash = db.prepare(
    `SELECT k.id AS key_id, u.id AS user_id, u.name AS user_name
       FROM api_keys k JOIN users u ON u.id = k.user_id
      WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
  );
  const rolesOf = db.prepare('SELECT user_id, entity, project, role FROM user_roles WHERE user_id IN (SELECT value FROM json_each(?))');
  const userByName = db.prepare('SELECT id, name FROM users WHERE name = ?');
  const insertUser = db.prepare('INSERT INTO users (id, name, created_at) VALUES (?, ?, ?)');
  const upsertRole = db.prepare(
    `INSERT INTO user_roles (user_id, entity, project, role) VALUES (?, ?, ?, ?)
     ON CONFLICT (user_id, entity, project) DO UPDATE SET role = excluded.role`,
  );
  const insertKey = db.prepare('INSERT INTO api_keys (id, user_id, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?)');
  const allKeys = db.prepare(
    `SELECT k.id, k.user_id, u.name AS user_name, k.prefix, k.created_at, k.revoked_at
       FROM api_keys k JOIN users u ON u.id = k.user_id ORDER BY k.created_at, k.id`,
  );
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const keyUser = db.prepare('SELECT user_id FROM api_keys WHERE id = ? AND revoked_at IS NULL').pluck();
  const names = db.prepare('SELECT id, name FROM users WHERE id IN (SELECT value FROM json_each(?))');

  const grantsOf = (userIds: readonly string[]): Map<string, Grant[]> => {
    const out = new Map<string, Grant[]>(userIds.map((id) => [id, []]));
    for (const r of rolesOf.all(JSON.stringify(userIds)) as RoleRow[]) out.get(r.user_id)?.push(toGrant(r));
    return out;
  };

  const create = db.transaction((userName: string, newUserId: string, grant: Grant, key: NewKey, scope: readonly string[] | null): CreateKeyOutcome => {
    let user = userByName.get(userName) as StoredUser | undefined;
    if (user !== undefined && !grantsWithin(grantsOf([user.id]).get(user.id) ?? [], scope)) return { refused: 'foreign-user' };
    if (user === undefined) {
      insertUser.run(newUserId, userName, key.createdAt);
      user = { id: newUserId, name: userName };
    }
    upsertRole.run(user.id, grant.entity, grant.project ?? '', grant.role);
    insertKey.run(key.id, user.id, key.hash, key.prefix, key.createdAt);
    return { created: { id: user.id, name: user.name } };
  });
  const revokeWithin = db.transaction((id: string, at: string, scope: readonly string[] | null): 'revoked' | 'missing' => {
    const userId = keyUser.get(id) as string | undefined;
    if (userId === undefined || !grantsWithin(grantsOf([userId]).get(userId) ?? [], scope)) return 'missing';
    return revoke.run(at, id).changes > 0 ? 'revoked' : 'missing';
  });

  // hasKeys runs on every request. Keys are never deleted (a revoked key still counts), so
  // once true it stays true. While false, the answer can only change by a commit: one of
  // this connection's (createKey sets the flag) or another connection's (the CLI), which
  // PRAGMA data_version reveals without touching any table.
  let keyed = false;
  let seenVersion = -1;
  const hasKeys = (): boolean => {
    if (keyed) return true;
    const version = db.pragma('data_version', { simple: true }) as number;
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
      return { keyId: row.key_id, user: { id: row.user_id, name: row.user_name }, grants: grantsOf([row.user_id]).get(row.user_id) ?? [] };
    },
    async createKey(userName, newUserId, grant, key, scope) {
      const outcome = create.immediate(userName, newUserId, grant, key, scope);
      if ('created' in outcome) keyed = true;
      return outcome;
    },
    async listKeys() {
      return (allKeys.all() as KeyRow[]).map((r): KeyRecord => ({
        id: r.id,
        user: { id: r.user_id, name: r.user_name },
        prefix: r.prefix,
        createdAt: r.created_at,
        revokedAt: r.revoked_at,
      }));
    },
    async grantsOf(userIds) {
      return grantsOf(userIds);
    },
    async revokeKey(id, at, scope) {
      return revokeWithin.immediate(id, at, scope);
    },
    async usernames(ids) {
      // Users are only made with keys: no key, no user to name (and no query on each read).
      if (ids.length === 0 || !hasKeys()) return new Map();
      return new Map((names.all(JSON.stringify(ids)) as StoredUser[]).map((u) => [u.id, u.name]));
    },
  };
}
