// Runs every *.test.ts under src/ and test/ with node's test runner (TypeScript via tsx).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureChromium } from './ensure-chromium.mjs';
import { ensureChdb } from './ensure-chdb.mjs';

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) find(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

// Test files run in parallel, each in its own process: many of them spend their time waiting
// on child processes (the SDK, a server on a socket), so more files than cores fit.
// WEFT_TEST_CONCURRENCY overrides.
const CONCURRENCY = Number(process.env.WEFT_TEST_CONCURRENCY || 3);
const filter = process.argv.slice(2);
const files = ['src', 'test'].flatMap((d) => find(d)).filter((f) => filter.length === 0 || filter.some((s) => f.includes(s))).sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
if (files.some((f) => f.includes('/ui/'))) ensureChromium();
if (files.some((f) => f.includes('clickhouse'))) ensureChdb();
const res = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${CONCURRENCY}`, '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(res.status ?? 1);
