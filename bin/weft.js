#!/usr/bin/env node
// `weft keys ...` manages API keys, `weft secrets ...` an entity's secrets, `weft copy ...` moves data between
// engines, `weft backup FILE` copies the SQLite database; anything else starts the server (which also answers --help and --version).
// On a Node older than 22 it runs itself again on a current LTS (scripts/lts-node.mjs, whose
// isSupported this test repeats so that nothing more is loaded here).
if (Number(process.versions.node.split('.')[0]) < 22) {
  const { relaunch } = await import('../scripts/lts-node.mjs');
  relaunch([...process.execArgv, import.meta.filename, ...process.argv.slice(2)]);
  await new Promise(() => {}); // relaunch exits this process when the child does
}
const entry = ['keys', 'secrets', 'copy', 'backup'].includes(process.argv[2]) ? '../dist/cli.js' : '../dist/main.js';
try {
  await import(entry);
} catch (err) {
  // A checkout that was never built (npm install builds dist/): say so instead of a module stack.
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes(new URL(entry, import.meta.url).pathname))
    throw err;
  process.stderr.write('weft: not built yet: run `npm run build` in the repository (npm install does it)\n');
  process.exit(1);
}
