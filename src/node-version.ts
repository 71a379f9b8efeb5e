// Imported first by the entry points (main.ts, cli.ts): on a Node older than 22 nothing else
// loads (better-sqlite3 13 would crash it), one line says what to do, exit 1. `npm start` and
// bin/weft.js relaunch on a current LTS before getting here (scripts/lts-node.mjs).
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(
    `weft: Node.js ${process.version} is older than 22: start Weft with \`npm start\` or bin/weft.js, which run it on a current LTS, or install Node.js 24 from https://nodejs.org\n`,
  );
  process.exit(1);
}
export {};
