// The commit latency of the ClickHouse engine (StoreStats.onCommit): an insert is acknowledged
// once ClickHouse has stored it (synchronous inserts, clickhouse/engine/client.ts), so the time of
// one successful insert is the time of one commit. Every store of the engine inserts through
// the client this returns; other calls go to the client unchanged.
import { performance } from 'node:perf_hooks';
import type { ClickHouseClient } from '@clickhouse/client';
import type { CommitListeners } from '../../engine/commit-listeners.js';

export function withInsertTiming(client: ClickHouseClient, commits: CommitListeners): ClickHouseClient {
  const insert: ClickHouseClient['insert'] = async (params) => {
    const began = performance.now();
    const result = await client.insert(params);
    commits.emit((performance.now() - began) / 1000);
    return result;
  };
  return new Proxy(client, {
    get(target, name) {
      if (name === 'insert') return insert;
      const value = Reflect.get(target, name, target) as unknown;
      // Methods run on the client itself, never on the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
