// Runs every *.test.ts under src/ and test/ with node's test runner (TypeScript via tsx).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureChromium } from './ensure-chromium.mjs';
import { ensureChdb } from './ensure-chdb.mjs';
import { envFor, ltsNode, NodeUnavailableError } from './lts-node.mjs';

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

/**
 * `--contract`: the HTTP contract suite on SQLite (each file that also runs on ClickHouse
 * through a twin in test/clickhouse/), the SDK end-to-end scenarios, and the server process
 * tests: what CI runs again on the other LTS line.
 */
function contractFiles() {
  const twins = find('test/clickhouse')
    .map((f) => readFileSync(f, 'utf8').match(/import\('\.\.\/([\w-]+)\.test\.js'\)/)?.[1])
    .filter(Boolean);
  return [
    ...twins.map((name) => join('test', `${name}.test.ts`)),
    ...find('test/sdk'),
    join('test', 'server-socket.test.ts'),
    join('test', 'server-signals.test.ts'),
  ];
}

const contract = process.argv.includes('--contract');
const filter = process.argv.slice(2).filter((a) => a !== '--contract');
const files = (contract ? contractFiles() : ['src', 'test'].flatMap((d) => find(d)))
  .filter((f) => filter.length === 0 || filter.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
if (files.some((f) => f.includes('/ui/'))) ensureChromium();
if (files.some((f) => f.includes('clickhouse'))) ensureChdb();
// The tests run on a supported Node (22 or 24), fetched once when this one is older
// (lts-node.mjs); WEFT_TEST_NODE=22 (or 24) runs them on that line.
const wanted = process.env.WEFT_TEST_NODE ? Number(process.env.WEFT_TEST_NODE) : null;
let node;
try {
  node = ltsNode(wanted);
} catch (err) {
  if (!(err instanceof NodeUnavailableError)) throw err;
  console.error(`weft: ${err.message}`);
  process.exit(1);
}
console.error(
  `Running ${files.length} test files on Node.js ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()}`,
);
const res = spawnSync(
  node,
  ['--import', 'tsx', '--test', `--test-concurrency=${CONCURRENCY}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: envFor(node) },
);
process.exit(res.status ?? 1);
