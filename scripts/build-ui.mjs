// Builds the web UI (ui/) into dist/ui with Vite, unless dist/ui is newer than every file
// of ui/ and the src/api types it imports (`--force` builds anyway). `npm start` and
// `npm test` call it, so a stale UI is never served or tested, and an unchanged one costs nothing.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = resolve(import.meta.dirname, '..');
const out = join(root, 'dist/ui/index.html');

function newest(dir) {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

const force = process.argv.includes('--force');
const sources = Math.max(
  newest(join(root, 'ui')),
  newest(join(root, 'src/api')),
  statSync(join(root, 'package-lock.json')).mtimeMs,
);
if (!force && existsSync(out) && statSync(out).mtimeMs > sources) process.exit(0);
const vite = join(root, 'node_modules/vite/bin/vite.js');
const res = spawnSync(process.execPath, [vite, 'build', 'ui', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
process.exit(res.status ?? 1);
