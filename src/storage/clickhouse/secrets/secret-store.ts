// Secrets on ClickHouse (migration 11): each set or delete inserts a row, and a read keeps each
// name's newest row (highest seq), a deleted secret being a row marked deleted (argMax skips
// NULLs, so a NULL value could not mark it). A secret's creation time is carried over from the
// row it replaces.
import type { ClickHouseClient } from '@clickhouse/client';
import type { SecretRecord, SecretStore } from '../../secrets/secret-store.js';
import { selectRows } from '../engine/client.js';
import { chIdentifier } from '../engine/dialect.js';
import { seqClock } from '../engine/seq-clock.js';

type Row = {
  name: string;
  sealed: string;
  deleted: number;
  created_at: string;
  updated_at: string;
  updated_by: string | null;
};

export function createClickHouseSecretStore(client: ClickHouseClient, database: string): SecretStore {
  const table = `${chIdentifier(database)}.secrets`;
  const nextSeq = seqClock().next;
  /** The newest row of each of the entity's names (of `name` alone when given), deleted ones too. */
  const newest = (entity: string, name: string | null) =>
    selectRows<Row>(
      client,
      `SELECT name, argMax(sealed, seq) AS sealed, argMax(deleted, seq) AS deleted, argMax(created_at, seq) AS created_at,
              argMax(updated_at, seq) AS updated_at, argMax(updated_by, seq) AS updated_by
       FROM ${table} WHERE entity = {e:String}${name === null ? '' : ' AND name = {n:String}'}
       GROUP BY name ORDER BY name`,
      { e: entity, n: name },
    );
  const insert = (row: Record<string, unknown>) =>
    client.insert({ table, values: [{ ...row, seq: nextSeq() }], format: 'JSONEachRow' });

  return {
    async set(entity, name, sealed, at, userId) {
      const [was] = await newest(entity, name);
      const createdAt = was !== undefined && !was.deleted ? Number(was.created_at) : at;
      await insert({ entity, name, sealed, deleted: 0, created_at: createdAt, updated_at: at, updated_by: userId });
    },
    async get(entity, name) {
      const [row] = await newest(entity, name);
      return row === undefined || row.deleted ? null : row.sealed;
    },
    async list(entity) {
      return (await newest(entity, null))
        .filter((r) => !r.deleted)
        .map(
          (r): SecretRecord => ({
            name: r.name,
            createdAt: Number(r.created_at),
            updatedAt: Number(r.updated_at),
            updatedBy: r.updated_by,
          }),
        );
    },
    async delete(entity, name, at) {
      const [was] = await newest(entity, name);
      if (was === undefined || was.deleted) return false;
      await insert({
        entity,
        name,
        sealed: '',
        deleted: 1,
        created_at: Number(was.created_at),
        updated_at: at,
        updated_by: null,
      });
      return true;
    },
  };
}
