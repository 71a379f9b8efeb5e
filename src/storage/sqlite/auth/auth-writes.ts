// The write procedures of users, roles and keys (run by the writer inside its transaction,
// see sqlite/engine/writer.ts). Both check the caller's scope inside the transaction, so no grant
// committed meanwhile slips between the check and the write.
import {
  grantsWithin,
  type CreateKeyOutcome,
  type Grant,
  type NewKey,
  type Role,
  type StoredUser,
} from '../../auth/auth-store.js';
import type { SqliteDb } from '../engine/database.js';

interface RoleRow {
  user_id: string;
  entity: string;
  project: string;
  role: Role;
}

export const toGrant = (r: RoleRow): Grant => ({
  entity: r.entity,
  project: r.project === '' ? null : r.project,
  role: r.role,
});
export const ROLES_OF_USERS =
  'SELECT user_id, entity, project, role FROM user_roles WHERE user_id IN (SELECT value FROM json_each(?))';

export function authWrites(db: SqliteDb) {
  const rolesOfUser = db.prepare('SELECT user_id, entity, project, role FROM user_roles WHERE user_id = ?');
  const userByName = db.prepare('SELECT id, name FROM users WHERE name = ?');
  const insertUser = db.prepare('INSERT INTO users (id, name, created_at) VALUES (?, ?, ?)');
  const upsertRole = db.prepare(
    `INSERT INTO user_roles (user_id, entity, project, role) VALUES (?, ?, ?, ?)
     ON CONFLICT (user_id, entity, project) DO UPDATE SET role = excluded.role`,
  );
  const insertKey = db.prepare(
    'INSERT INTO api_keys (id, user_id, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const keyUser = db.prepare('SELECT user_id FROM api_keys WHERE id = ? AND revoked_at IS NULL').pluck();
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const grantsOf = (userId: string): Grant[] => (rolesOfUser.all(userId) as RoleRow[]).map(toGrant);

  return {
    /** See AuthStore.createKey. */
    'auth.createKey'(
      userName: string,
      newUserId: string,
      grant: Grant,
      key: NewKey,
      scope: readonly string[] | null,
    ): CreateKeyOutcome {
      let user = userByName.get(userName) as StoredUser | undefined;
      if (user !== undefined && !grantsWithin(grantsOf(user.id), scope)) return { refused: 'foreign-user' };
      if (user === undefined) {
        insertUser.run(newUserId, userName, key.createdAt);
        user = { id: newUserId, name: userName };
      }
      upsertRole.run(user.id, grant.entity, grant.project ?? '', grant.role);
      insertKey.run(key.id, user.id, key.hash, key.prefix, key.createdAt);
      return { created: { id: user.id, name: user.name } };
    },
    /** See AuthStore.revokeKey. */
    'auth.revokeKey'(id: string, at: string, scope: readonly string[] | null): 'revoked' | 'missing' {
      const userId = keyUser.get(id) as string | undefined;
      if (userId === undefined || !grantsWithin(grantsOf(userId), scope)) return 'missing';
      return revoke.run(at, id).changes > 0 ? 'revoked' : 'missing';
    },
  };
}
