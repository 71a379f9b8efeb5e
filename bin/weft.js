#!/usr/bin/env node
// `weft keys ...` manages API keys, `weft copy ...` moves data between engines, `weft backup FILE` copies the
// SQLite database; anything else starts the server (which also answers --help and --version).
const entry = ['keys', 'copy', 'backup'].includes(process.argv[2]) ? '../dist/cli.js' : '../dist/main.js';
try {
  await import(entry);
} catch (err) {
  // A checkout that was never built (npm install builds dist/): say so instead of a module stack.
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes(new URL(entry, import.meta.url).pathname)) throw err;
  process.stderr.write('weft: not built yet: run `npm run build` in the repository (npm install does it)\n');
  process.exit(1);
}
