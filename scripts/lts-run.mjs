// `node scripts/lts-run.mjs <node arguments>`: runs them on a supported Node (lts-node.mjs),
// this one or a current LTS fetched once when this one is older. Used by `npm run bench`.
import { relaunch } from './lts-node.mjs';

relaunch(process.argv.slice(2));
