// `npm start`: the server (dist/main.js, built by `npm run build`) on a supported Node: in this
// process on Node 22 or 24, else relaunched on a current LTS (lts-node.mjs) with the same Node
// flags and arguments.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isSupported, relaunch } from './lts-node.mjs';

const main = join(import.meta.dirname, '..', 'dist', 'main.js');
if (isSupported()) await import(pathToFileURL(main).href);
else relaunch([...process.execArgv, main, ...process.argv.slice(2)]);
