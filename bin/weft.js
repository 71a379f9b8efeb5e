#!/usr/bin/env node
// `weft keys ...` manages API keys, `weft copy ...` moves data between engines; anything else starts the server.
if (process.argv[2] === 'keys' || process.argv[2] === 'copy') await import('../dist/cli.js');
else await import('../dist/main.js');
