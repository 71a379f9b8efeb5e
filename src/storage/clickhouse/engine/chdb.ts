// ClickHouse in process: `WEFT_CLICKHOUSE_URL=chdb:<dir>` runs the engine on chdb, through the
// same client code as a server. chdb is not a dependency of Weft (it weighs ~550 MB): it is
// loaded only when asked for, from node_modules or the copy the test command installs under
// .cache/chdb (of the working directory or of Weft's package). One chdb data directory per process.
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type { ClickHouseConnection } from './client.js';

const PACKAGE_ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');

/** The chdb connection of `url` when it is a `chdb:<dir>` URL, else null. */
export function chdbConnection(url: string): ClickHouseConnection | null {
  if (!url.startsWith('chdb:')) return null;
  const path = resolve(url.slice('chdb:'.length) || '.');
  const roots = [
    process.cwd(),
    join(process.cwd(), '.cache', 'chdb'),
    PACKAGE_ROOT,
    join(PACKAGE_ROOT, '.cache', 'chdb'),
  ];
  for (const root of roots) {
    try {
      const { createChdbConnection } = createRequire(join(root, 'package.json'))('chdb/connection') as {
        createChdbConnection: (o: { path: string }) => ClickHouseConnection;
      };
      return createChdbConnection({ path });
    } catch {
      // not installed there
    }
  }
  throw new Error(
    `${url} needs the chdb package, which is not installed: npm install chdb@3.4.0 (or use a ClickHouse server's http:// address)`,
  );
}
