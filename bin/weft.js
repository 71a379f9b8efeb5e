#!/usr/bin/env node
// `weft keys ...` manages API keys, `weft copy ...` moves data between engines, `weft backup FILE` copies the
// SQLite database; anything else starts the server (which also answers --help and --version).
if (['keys', 'copy', 'backup'].includes(process.argv[2])) await import('../dist/cli.js');
else await import('../dist/main.js');
