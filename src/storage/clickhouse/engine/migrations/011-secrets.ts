// Migration 11: entities' secrets, sealed (storage/secrets/secret-store.ts). Each change is a
// row, the newest by seq wins; a deletion is a row marked deleted, without a value.
import type { ChMigration } from './index.js';

export const MIGRATION_11: ChMigration = {
  version: 11,
  tables: [
    {
      name: 'secrets',
      columns: `entity String, name String, sealed String, deleted UInt8, created_at Int64, updated_at Int64,
        updated_by Nullable(String), seq UInt64`,
      orderBy: '(entity, name)',
      shardBy: 'cityHash64(entity)',
      replacingBy: 'seq',
    },
  ],
};
