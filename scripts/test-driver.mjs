// Runs test files with node:test's run() in the order given (`node --test` sorts its files by
// name, whatever order they come in), each in its own process, `concurrency` at a time, printed
// by the spec reporter. Started by scripts/run-tests.mjs as `node --import tsx test-driver.mjs
// <plan.json>`: the test processes inherit --import tsx. With `timings` set in the plan, each
// file's duration (seconds, the sum of its top-level tests) is written there as JSON.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const seconds = {};
const stream = run({ files: plan.files.map((f) => resolve(f)), concurrency: plan.concurrency });
stream.on('test:fail', () => {
  process.exitCode = 1;
});
const timed = ({ nesting, file, details }) => {
  if (nesting !== 0 || typeof file !== 'string' || typeof details?.duration_ms !== 'number') return;
  seconds[file] = (seconds[file] ?? 0) + details.duration_ms / 1000;
};
stream.on('test:pass', timed);
stream.on('test:fail', timed);
stream.compose(spec).pipe(process.stdout);
stream.on('end', () => {
  if (plan.timings) writeFileSync(plan.timings, JSON.stringify(seconds));
});
