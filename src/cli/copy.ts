// `weft copy --from <store> --to <store>`: moves a Weft's history between engines (see
// service/store-copy.ts for what is copied). A store is `sqlite:<data dir>` or
// `clickhouse:<http(s) URL>` (user and password in the URL or WEFT_CLICKHOUSE_USER/_PASSWORD,
// the database as the URL's path, else WEFT_CLICKHOUSE_DATABASE, else weft), or
// `clickhouse:chdb:<dir>`. Progress goes to stderr; finished steps are remembered in a
// checkpoint file (--checkpoint, default .weft-copy-<hash>.json here) so a rerun resumes;
// the final count check compares both stores project by project.
import { parseArgs } from 'node:util';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SQLITE_FILE } from '../storage/sqlite/store.js';
import { StartupError } from '../startup-error.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { openStore } from '../open-store.js';
import { COPY_RESOURCES, copyStore, countBoth, type CopyResource } from '../service/copy/store-copy.js';
import { createProgressBar } from './progress.js';

export const COPY_USAGE = `usage: weft copy --from STORE --to STORE [--checkpoint FILE] [--only calls,objects,...]
  STORE is sqlite:<data dir>, clickhouse:<http(s)://[user:password@]host:port[/database]> or clickhouse:chdb:<dir>
  Copies every project's calls, objects, tables, files, feedback, project prices and settings.
  --only copies some resources: ${COPY_RESOURCES.join(', ')}.
  Run it again to resume an interrupted copy; it ends with a count check (exit 1 on a mismatch).
  Keys and users are not copied: create them on the target with weft keys create.
  Each flag may be given as a variable instead: WEFT_COPY_FROM, WEFT_COPY_TO, WEFT_COPY_CHECKPOINT, WEFT_COPY_ONLY.
  Exit codes: 0 copied and counted; 1 failed or a count is short; 2 usage.
`;

export class CopyUsageError extends Error {}

/** The configuration that opens a STORE argument (env fills what the spec leaves out). */
export function storeConfig(spec: string, env: NodeJS.ProcessEnv): Config {
  if (spec.startsWith('sqlite:'))
    return loadConfig(['--engine', 'sqlite', '--data-dir', resolve(spec.slice('sqlite:'.length) || '.')], env);
  if (!spec.startsWith('clickhouse:'))
    throw new CopyUsageError(`a store is sqlite:<dir> or clickhouse:<url>, got "${spec}"`);
  const rest = spec.slice('clickhouse:'.length);
  const args = ['--engine', 'clickhouse'];
  if (rest.startsWith('chdb:')) return loadConfig([...args, '--clickhouse-url', rest], env);
  let url: URL;
  try {
    url = new URL(rest);
  } catch {
    throw new CopyUsageError(`not a ClickHouse URL: "${rest}"`);
  }
  if (url.username) args.push('--clickhouse-user', decodeURIComponent(url.username));
  if (url.password) args.push('--clickhouse-password', decodeURIComponent(url.password));
  const database = url.pathname.replace(/^\/+|\/+$/g, '');
  if (database) args.push('--clickhouse-database', database);
  url.username = '';
  url.password = '';
  url.pathname = '/';
  return loadConfig([...args, '--clickhouse-url', url.toString().replace(/\/$/, '')], env);
}

export async function runCopy(argv: readonly string[]): Promise<number> {
  let values: { from?: string; to?: string; checkpoint?: string; only?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        from: { type: 'string' },
        to: { type: 'string' },
        checkpoint: { type: 'string' },
        only: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    throw new CopyUsageError((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(COPY_USAGE);
    return 0;
  }
  // Each flag also as a variable: a store's URL may hold a password, kept out of shell history.
  values.from ??= process.env.WEFT_COPY_FROM || undefined;
  values.to ??= process.env.WEFT_COPY_TO || undefined;
  values.checkpoint ??= process.env.WEFT_COPY_CHECKPOINT || undefined;
  values.only ??= process.env.WEFT_COPY_ONLY || undefined;
  if (!values.from || !values.to) throw new CopyUsageError('copy needs --from and --to');
  if (values.from === values.to) throw new CopyUsageError('--from and --to name the same store');
  const only = values.only === undefined ? undefined : values.only.split(',').map((r) => r.trim());
  const unknown = only?.filter((r) => !(COPY_RESOURCES as readonly string[]).includes(r)) ?? [];
  if (unknown.length > 0)
    throw new CopyUsageError(`--only takes ${COPY_RESOURCES.join(', ')}; not ${unknown.join(', ')}`);
  let fromConfig: Config;
  let toConfig: Config;
  try {
    fromConfig = storeConfig(values.from, process.env);
    toConfig = storeConfig(values.to, process.env);
  } catch (err) {
    if (err instanceof ConfigError) throw new CopyUsageError(err.message);
    throw err;
  }
  // A source is read, never created: a mistyped directory must not copy an empty new database.
  if (fromConfig.engine === 'sqlite' && !existsSync(join(fromConfig.dataDir, SQLITE_FILE))) {
    throw new StartupError(`there is no Weft database in ${fromConfig.dataDir} (no ${SQLITE_FILE}): check --from`);
  }
  const checkpoint = resolve(
    values.checkpoint ??
      `.weft-copy-${createHash('sha256').update(`${values.from}\n${values.to}`).digest('hex').slice(0, 12)}.json`,
  );
  const done = new Set<string>(
    existsSync(checkpoint) ? (JSON.parse(readFileSync(checkpoint, 'utf8')) as { done: string[] }).done : [],
  );
  const err = process.stderr;
  if (done.size > 0) err.write(`weft copy: resuming (${done.size} steps done in an earlier run, from ${checkpoint})\n`);

  const from = await openStore(fromConfig);
  try {
    const to = await openStore(toConfig);
    try {
      const bar = createProgressBar(err);
      const key = (p: string, r: CopyResource) => `${p}\u0000${r}`;
      const projects = await copyStore(from, to, {
        progress: { begin: (p, r, n) => bar.begin(`${p} ${r}`, n), advance: (n) => bar.advance(n) },
        ...(only ? { only: only as CopyResource[] } : {}),
        isDone: (p, r) => done.has(key(p, r)),
        markDone: (p, r) => {
          done.add(key(p, r));
          writeFileSync(`${checkpoint}.tmp`, JSON.stringify({ from: values.from, to: values.to, done: [...done] }));
          renameSync(`${checkpoint}.tmp`, checkpoint);
        },
      });
      bar.end();
      const counts = (await countBoth(from, to, projects)).filter(
        (c) => only === undefined || only.includes(c.resource),
      );
      // A target may hold more than the source (it had data of its own), never less; settings must agree.
      const isShort = (c: (typeof counts)[number]) => (c.resource === 'settings' ? c.to !== c.from : c.to < c.from);
      const short = counts.filter(isShort);
      for (const c of counts.filter((x) => x.from > 0 || x.to > 0))
        process.stdout.write(`${c.project}\t${c.resource}\t${c.from}\t${c.to}${isShort(c) ? '\tMISSING' : ''}\n`);
      if (short.length > 0) {
        err.write(
          `weft copy: the count check failed: ${short.length} of ${counts.length} counts are lower on the target (see MISSING above); run the copy again\n`,
        );
        return 1;
      }
      rmSync(checkpoint, { force: true });
      err.write(`weft copy: ${projects.length} projects copied; every count matches\n`);
      return 0;
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
  }
}
