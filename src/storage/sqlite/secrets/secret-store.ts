// Secrets on SQLite: one row per (entity, name) in `secrets` (migration 24); written through the
// writer (sqlite/secrets/secret-writes.ts), read here by the key.
import type { SecretRecord, SecretStore } from '../../secrets/secret-store.js';
import type { SqliteDb } from '../engine/database.js';
import type { SqliteWriter } from '../engine/writer.js';

export function createSqliteSecretStore(db: SqliteDb, writer: SqliteWriter): SecretStore {
  const one = db.prepare('SELECT sealed FROM secrets WHERE entity = ? AND name = ?').pluck();
  const all = db.prepare(
    'SELECT name, created_at AS createdAt, updated_at AS updatedAt, updated_by AS updatedBy FROM secrets WHERE entity = ? ORDER BY name',
  );
  return {
    set: (entity, name, sealed, at, userId) => writer.run('secrets.set', [entity, name, sealed, at, userId]),
    async get(entity, name) {
      return (one.get(entity, name) as string | undefined) ?? null;
    },
    async list(entity) {
      return all.all(entity) as SecretRecord[];
    },
    delete: (entity, name) => writer.run('secrets.delete', [entity, name]),
  };
}
