// A node:test reporter that writes each test file's duration (seconds, the sum of its top-level
// tests) as one JSON object to its destination: what scripts/run-tests.mjs orders files by.
export default async function* timingReporter(source) {
  const seconds = {};
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { nesting, file, details } = event.data;
    if (nesting !== 0 || typeof file !== 'string' || typeof details?.duration_ms !== 'number') continue;
    seconds[file] = (seconds[file] ?? 0) + details.duration_ms / 1000;
  }
  yield `${JSON.stringify(seconds)}\n`;
}
