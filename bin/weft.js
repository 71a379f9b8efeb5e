#!/usr/bin/env node
// `weft keys ...` manages API keys; anything else starts the server.
if (process.argv[2] === 'keys') await import('../dist/cli.js');
else await import('../dist/main.js');
