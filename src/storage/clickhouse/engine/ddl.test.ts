// The DDL of every deployment mode, compared with golden files (no cluster runs here; the
// single-server DDL also runs on chdb in every ClickHouse test). After an intended change:
// WEFT_UPDATE_GOLDEN=1 node --import tsx --test src/storage/clickhouse/engine/ddl.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrationDdl } from './migrations/index.js';
import { deleteStatement, tableDdl, type ChDdlMode } from './ddl.js';

const DIR = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', 'clickhouse-ddl');
const MODES: Record<string, ChDdlMode> = {
  single: { cluster: null, sharded: false },
  replicated: { cluster: 'weft_cluster', sharded: false },
  sharded: { cluster: 'weft_cluster', sharded: true },
};

for (const [name, mode] of Object.entries(MODES)) {
  test(`the ${name} DDL is the golden file's`, () => {
    const text = `${migrationDdl('weft', mode).join(';\n\n')};\n`;
    const file = join(DIR, `${name}.sql`);
    if (process.env.WEFT_UPDATE_GOLDEN === '1') writeFileSync(file, text);
    assert.equal(text, readFileSync(file, 'utf8'));
  });
}

test('modes differ where they must: ON CLUSTER, Replicated engines, Distributed tables over _local ones', () => {
  const spec = {
    name: 'feedback',
    columns: 'project_id String',
    orderBy: '(project_id)',
    shardBy: 'cityHash64(project_id)',
  };
  assert.deepEqual(tableDdl('weft', spec, MODES.single!), [
    'CREATE TABLE IF NOT EXISTS weft.feedback (project_id String) ENGINE = MergeTree ORDER BY (project_id)',
  ]);
  const [replicated] = tableDdl('weft', spec, MODES.replicated!);
  assert.match(
    replicated!,
    /weft\.feedback ON CLUSTER `weft_cluster` .* ReplicatedMergeTree\('\/clickhouse\/tables\/\{shard\}\/weft\/feedback', '\{replica\}'\)/,
  );
  const sharded = tableDdl('weft', spec, MODES.sharded!);
  assert.equal(sharded.length, 2);
  assert.match(sharded[0]!, /weft\.feedback_local ON CLUSTER/);
  assert.equal(
    sharded[1],
    "CREATE TABLE IF NOT EXISTS weft.feedback ON CLUSTER `weft_cluster` AS weft.feedback_local ENGINE = Distributed('weft_cluster', 'weft', 'feedback_local', cityHash64(project_id))",
  );
  assert.throws(() => tableDdl('weft', spec, { cluster: 'bad name;', sharded: false }), /cluster name/);
  assert.throws(() => tableDdl('we ft', spec, MODES.single!), /identifier/);
});

test("deletes run on the table, or on every shard's _local table ON CLUSTER when sharded; calls shard by trace_id", () => {
  const where = 'project_id = {p:String}';
  assert.equal(
    deleteStatement('weft', 'calls', MODES.single!, where),
    'DELETE FROM weft.calls WHERE project_id = {p:String}',
  );
  assert.equal(
    deleteStatement('weft', 'calls', MODES.replicated!, where),
    'DELETE FROM weft.calls WHERE project_id = {p:String}',
  );
  assert.equal(
    deleteStatement('weft', 'calls', MODES.sharded!, where),
    'DELETE FROM weft.calls_local ON CLUSTER `weft_cluster` WHERE project_id = {p:String}',
  );
  assert.throws(() => deleteStatement('weft', 'calls; DROP', MODES.single!, where), /identifier/);
  const calls = migrationDdl('weft', MODES.sharded!).find((s) =>
    s.startsWith('CREATE TABLE IF NOT EXISTS weft.calls ON CLUSTER'),
  );
  assert.match(calls!, /Distributed\('weft_cluster', 'weft', 'calls_local', cityHash64\(trace_id\)\)/);
  const local = migrationDdl('weft', MODES.sharded!).find((s) =>
    s.startsWith('CREATE TABLE IF NOT EXISTS weft.calls_local'),
  );
  assert.match(
    local!,
    /ReplicatedReplacingMergeTree\('\/clickhouse\/tables\/\{shard\}\/weft\/calls_local', '\{replica\}', seq\) PARTITION BY/,
  );
});
