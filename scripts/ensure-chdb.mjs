// The ClickHouse tests run the real engine in process: chdb (ClickHouse 26.7, ~550 MB
// installed). It is kept out of the package's dependencies, so that a user's
// `npm install` stays light, and installed here, outside node_modules, on first use by
// the test command (a later `npm install` does not prune it).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

export const CHDB_VERSION = '3.4.0';
export const CHDB_DIR = join(dirname(dirname(fileURLToPath(import.meta.url))), '.cache', 'chdb');

export function ensureChdb() {
  const manifest = join(CHDB_DIR, 'node_modules', 'chdb', 'package.json');
  if (existsSync(manifest)) return;
  mkdirSync(CHDB_DIR, { recursive: true });
  // Its own package.json, so npm installs here and never into the repository's project.
  writeFileSync(
    join(CHDB_DIR, 'package.json'),
    '{ "private": true, "description": "chdb for Weft\'s ClickHouse tests" }\n',
  );
  console.error(
    `Installing chdb ${CHDB_VERSION} (in-process ClickHouse, ~180 MB download) into ${CHDB_DIR} for the ClickHouse tests...`,
  );
  const r = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      CHDB_DIR,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `chdb@${CHDB_VERSION}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (r.status !== 0 || !existsSync(manifest)) {
    console.error('Installing chdb failed.');
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureChdb();
