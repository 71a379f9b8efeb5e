// The ClickHouse project settings store keeps a project's time-to-live for the write path
// (clickhouse/settings/settings-store.ts): statements counted on the real engine (chdb), with
// a clock of the test's. Two stores on one database stand for two replicas.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ClickHouseClient } from '@clickhouse/client';
import { chdbClient } from '../helpers/clickhouse-engine.js';
import { migrateClickHouse } from '../../src/storage/clickhouse/engine/migrations/index.js';
import { createClickHouseProjectSettingsStore } from '../../src/storage/clickhouse/settings/settings-store.js';

const database = `weft_settings_cache_${process.pid}`;
after(async () => {
  await chdbClient().command({ query: `DROP DATABASE IF EXISTS ${database}` });
});

/** The process's chdb client, counting the SELECTs that go through it. */
function counting(client: ClickHouseClient): { client: ClickHouseClient; selects: () => number } {
  let n = 0;
  const wrapped = new Proxy(client, {
    get(target, name) {
      const v = Reflect.get(target, name, target) as unknown;
      if (name === 'query')
        return (p: Parameters<ClickHouseClient['query']>[0]) => {
          n++;
          return target.query(p);
        };
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { client: wrapped, selects: () => n };
}

test('a time-to-live is read again only when the kept answer is older than the caller allows; a change through this store is seen at once', async () => {
  await migrateClickHouse(chdbClient(), database);
  let clock = 0;
  const mine = counting(chdbClient());
  const store = createClickHouseProjectSettingsStore(mine.client, database, () => clock);
  const replica = createClickHouseProjectSettingsStore(chdbClient(), database);
  const P = 'team/cache';

  assert.equal(await store.getRetentionDays(P, 1000), null);
  assert.equal(mine.selects(), 1);
  clock += 999;
  assert.equal(await store.getRetentionDays(P, 1000), null);
  assert.equal(mine.selects(), 1, 'kept while younger than 1000 ms');

  // Another replica changes it: a write-path read may still see the kept answer; a current one does not.
  await replica.setRetentionDays(P, 4, 1, null);
  assert.equal(await store.getRetentionDays(P, 1000), null);
  assert.equal(await store.getRetentionDays(P), 4, 'maxAgeMs 0 (the settings endpoint) always asks');
  assert.equal(mine.selects(), 2);
  clock += 2000;
  await replica.setRetentionDays(P, 6, 2, null);
  assert.equal(await store.getRetentionDays(P, 1000), 6, 'asked again once the kept answer is too old');
  assert.equal(mine.selects(), 3);

  // Its own change is seen at once, whatever age the caller allows.
  await store.setRetentionDays(P, null, 3, null);
  assert.equal(await store.getRetentionDays(P, 60_000), null);
  assert.equal(mine.selects(), 4);
  // Projects are kept apart.
  assert.equal(await store.getRetentionDays('team/other', 60_000), null);
  assert.equal(mine.selects(), 5);
});
