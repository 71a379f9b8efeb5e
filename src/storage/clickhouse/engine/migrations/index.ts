// The ordered migrations of the ClickHouse engine, one file each, recorded in weft_migrations (one row per
// applied version). Never edit a released migration: add one (version 1 becomes final when
// the engine can first be selected). A migration lists table specs; clickhouse/engine/ddl.ts renders
// them for a single server, a replicated cluster or a sharded one.
import type { ClickHouseClient } from '@clickhouse/client';
import { selectRows } from '../client.js';
import { chIdentifier } from '../dialect.js';
import {
  SINGLE_SERVER,
  alterDdl,
  databaseDdl,
  dropTableDdl,
  migrationsTableDdl,
  tableDdl,
  type ChAlter,
  type ChDdlMode,
  type ChTableSpec,
} from '../ddl.js';
import { MIGRATION_1 } from './001-init.js';
import { MIGRATION_2 } from './002-input-leaves.js';
import { MIGRATION_3 } from './003-live-until.js';
import { MIGRATION_4 } from './004-spans.js';
import { MIGRATION_5 } from './005-span-messages.js';
import { MIGRATION_6 } from './006-historical-turns.js';
import { MIGRATION_7 } from './007-turn-conversations.js';
import { MIGRATION_8 } from './008-conversation-messages.js';
import { MIGRATION_9 } from './009-search-indexes.js';
import { MIGRATION_10 } from './010-first-message-traces.js';
import { MIGRATION_11 } from './011-secrets.js';
import { MIGRATION_12 } from './012-score-jobs.js';

export interface ChMigration {
  readonly version: number;
  readonly tables: readonly ChTableSpec[];
  /** Changes to tables of earlier migrations, after `tables`. */
  readonly alters?: readonly ChAlter[];
  /** Rows converted into the new tables (INSERT ... SELECT, given the quoted database), after `alters`. */
  readonly copies?: readonly ((db: string) => string)[];
  /** Tables of earlier migrations dropped last (their rows copied). */
  readonly drops?: readonly string[];
}

export const CLICKHOUSE_MIGRATIONS: readonly ChMigration[] = [
  MIGRATION_1,
  MIGRATION_2,
  MIGRATION_3,
  MIGRATION_4,
  MIGRATION_5,
  MIGRATION_6,
  MIGRATION_7,
  MIGRATION_8,
  MIGRATION_9,
  MIGRATION_10,
  MIGRATION_11,
  MIGRATION_12,
];

/** A statement, and the one run instead when it fails (an alter's fallback, ddl.ts ChAlter). */
type Step = { readonly sql: string; readonly fallback?: string };

const alterSteps = (database: string, a: ChAlter, mode: ChDdlMode): Step[] => {
  const fallbacks = a.fallback === undefined ? [] : alterDdl(database, { ...a, clause: a.fallback }, mode);
  return alterDdl(database, a, mode).map((sql, i) => ({ sql, fallback: fallbacks[i] }));
};

/** Every statement of one migration in a mode. */
const migrationSteps = (database: string, m: ChMigration, mode: ChDdlMode): Step[] => [
  ...m.tables.flatMap((t) => tableDdl(database, t, mode)).map((sql) => ({ sql })),
  ...(m.alters ?? []).flatMap((a) => alterSteps(database, a, mode)),
  ...(m.copies ?? []).map((copy) => ({ sql: copy(chIdentifier(database)) })),
  ...(m.drops ?? []).flatMap((t) => dropTableDdl(database, t, mode)).map((sql) => ({ sql })),
];

/** Every statement of the migrations, in order, for a database and a mode (golden-file tests print these). */
export function migrationDdl(
  database: string,
  mode: ChDdlMode,
  migrations: readonly ChMigration[] = CLICKHOUSE_MIGRATIONS,
): string[] {
  return [
    databaseDdl(database, mode),
    migrationsTableDdl(database, mode),
    ...migrations.flatMap((m) => migrationSteps(database, m, mode).map((s) => s.sql)),
  ];
}

/** Creates the database if needed and applies the migrations it has not recorded yet. */
export async function migrateClickHouse(
  client: ClickHouseClient,
  database: string,
  mode: ChDdlMode = SINGLE_SERVER,
  migrations: readonly ChMigration[] = CLICKHOUSE_MIGRATIONS,
): Promise<void> {
  await client.command({ query: databaseDdl(database, mode) });
  await client.command({ query: migrationsTableDdl(database, mode) });
  const db = database;
  const done = new Set(
    (await selectRows<{ version: number }>(client, `SELECT version FROM ${db}.weft_migrations`)).map((r) =>
      Number(r.version),
    ),
  );
  const newest = Math.max(0, ...done);
  const known = Math.max(0, ...migrations.map((m) => m.version));
  if (newest > known)
    throw new Error(
      `the ClickHouse database ${database} was written by a newer Weft (schema ${newest}; this Weft knows ${known}); upgrade Weft`,
    );
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    for (const step of migrationSteps(database, m, mode)) {
      try {
        await client.command({ query: step.sql });
      } catch (err) {
        // An older server without the feature (a text index): the alter's fallback instead.
        if (step.fallback === undefined) throw err;
        await client.command({ query: step.fallback });
      }
    }
    await client.insert({ table: `${db}.weft_migrations`, values: [{ version: m.version }], format: 'JSONEachRow' });
  }
}
