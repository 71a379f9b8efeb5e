// Configuration from the environment and equivalent command-line flags; frozen once read.
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseAllowedHost } from './outbound/address-policy.js';

/** How log lines are written: JSON (one object a line) or pretty (one readable line, for a terminal). */
export type LogFormat = 'json' | 'pretty';

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  /** Largest accepted request body, bytes. The SDKs send batches of 10-31 MiB. */
  readonly bodyLimit: number;
  /** The identity every request gets while API keys do not exist. */
  readonly localUserId: string;
  readonly localUsername: string;
  readonly logLevel: string;
  readonly logFormat: LogFormat;
  /**
   * A secret a monitor (Prometheus) sends as a bearer token to read /metrics from another
   * host; null: only loopback peers and admin keys may.
   */
  readonly metricsToken: string | null;
  /**
   * The key sealing stored secrets (32 bytes, base64 or hex); null: the file secrets.key in
   * the data directory, created on first need (service/secrets/secret-key.ts).
   */
  readonly secretsKey: string | null;
  /** Serve without API keys on a non-loopback address (refused unless set). */
  readonly insecureOpen: boolean;
  /**
   * Host names or addresses answered while open (no keys) beside the loopback ones
   * (http/host-policy.ts); `.example.com` also allows its subdomains; `*` alone turns the check off.
   */
  readonly allowedHosts: readonly string[];
  /**
   * Hosts that requests Weft sends out (model providers, judges) may reach although their
   * addresses are not public (outbound/address-policy.ts): `host` or `host:port`.
   */
  readonly outboundAllowedHosts: readonly string[];
  /** Requests per minute allowed per API key; 0 = no limit. */
  readonly rateLimitPerMinute: number;
  /** Score jobs (model calls of monitors) this server runs at once; 0 = it scores nothing. */
  readonly signalsConcurrency: number;
  /** Score jobs that may wait; past it new calls and turns are not queued for scoring. */
  readonly signalsBacklog: number;
  /** Bytes of call batches that may wait to be written before ingest answers 503. */
  readonly ingestQueueBytes: number;
  /** How often the retention job looks for expired calls, milliseconds. */
  readonly retentionIntervalMs: number;
  /**
   * The entity GraphQL's viewer names as default in open mode (what `weave.init("project")`
   * logs into); null: the local username, as W&B's personal entity is the user's name.
   */
  readonly defaultEntity: string | null;
  /** The storage engine: the embedded SQLite file (default) or a ClickHouse server. */
  readonly engine: 'sqlite' | 'clickhouse';
  /** ClickHouse's HTTP address; `chdb:<dir>` runs the engine in process (needs the chdb package). */
  readonly clickhouseUrl: string;
  readonly clickhouseUser: string | null;
  readonly clickhousePassword: string | null;
  readonly clickhouseDatabase: string;
  /** A cluster name: DDL runs ON CLUSTER with replicated (and, on several shards, distributed) tables. */
  readonly clickhouseCluster: string | null;
  /** Bytes of calls kept in memory to serve pages read again, each checked against ClickHouse on every read; 0 = none. */
  readonly clickhouseCallCacheBytes: number;
}

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 6345,
  dataDir: './weft-data',
  bodyLimit: 32 * 1024 * 1024,
  localUserId: 'local-user',
  localUsername: 'local',
  logLevel: 'warn',
  logFormat: 'json',
  metricsToken: null,
  secretsKey: null,
  insecureOpen: false,
  allowedHosts: [],
  outboundAllowedHosts: [],
  rateLimitPerMinute: 0,
  signalsConcurrency: 4,
  signalsBacklog: 100_000,
  ingestQueueBytes: 256 * 1024 * 1024,
  retentionIntervalMs: 60_000,
  defaultEntity: null,
  engine: 'sqlite',
  clickhouseUrl: 'http://localhost:8123',
  clickhouseUser: null,
  clickhousePassword: null,
  clickhouseDatabase: 'weft',
  clickhouseCluster: null,
  clickhouseCallCacheBytes: 64 * 1024 * 1024,
} as const;

/**
 * Every setting: its flag, its environment variable and a line for `weft --help`. A switch
 * takes no value on the command line (present: true); its variable says true or false.
 */
interface Setting {
  readonly key: keyof Config;
  readonly flag: string;
  readonly env: string;
  readonly value: string;
  readonly help: string;
  readonly isSwitch?: true;
}

export const SETTINGS: readonly Setting[] = [
  { key: 'host', flag: 'host', env: 'HOST', value: 'ADDR', help: 'address to listen on' },
  { key: 'port', flag: 'port', env: 'PORT', value: 'N', help: 'port to listen on' },
  { key: 'dataDir', flag: 'data-dir', env: 'WEFT_DATA_DIR', value: 'DIR', help: 'where the SQLite database lives' },
  {
    key: 'bodyLimit',
    flag: 'body-limit',
    env: 'WEFT_BODY_LIMIT',
    value: 'BYTES',
    help: 'largest request body; larger is 413',
  },
  {
    key: 'localUserId',
    flag: 'user',
    env: 'WEFT_LOCAL_USER_ID',
    value: 'ID',
    help: 'the user every write gets while no API key exists',
  },
  { key: 'localUsername', flag: 'username', env: 'WEFT_LOCAL_USERNAME', value: 'NAME', help: "that user's name" },
  {
    key: 'insecureOpen',
    flag: 'insecure-open',
    env: 'WEFT_INSECURE_OPEN',
    value: '',
    help: 'serve without API keys on a non-loopback address',
    isSwitch: true,
  },
  {
    key: 'allowedHosts',
    flag: 'allowed-hosts',
    env: 'WEFT_ALLOWED_HOSTS',
    value: 'NAMES',
    help: 'host names or addresses answered without API keys besides localhost (comma-separated; * = any)',
  },
  {
    key: 'outboundAllowedHosts',
    flag: 'outbound-allowed-hosts',
    env: 'WEFT_OUTBOUND_ALLOWED_HOSTS',
    value: 'HOSTS',
    help: 'private hosts that requests to models and judges may reach: host or host:port (comma-separated)',
  },
  {
    key: 'rateLimitPerMinute',
    flag: 'rate-limit',
    env: 'WEFT_RATE_LIMIT',
    value: 'N',
    help: 'requests per minute per API key (0: no limit)',
  },
  {
    key: 'signalsConcurrency',
    flag: 'signals-concurrency',
    env: 'WEFT_SIGNALS_CONCURRENCY',
    value: 'N',
    help: "monitors' score jobs run at once by this server (0: it scores nothing)",
  },
  {
    key: 'signalsBacklog',
    flag: 'signals-backlog',
    env: 'WEFT_SIGNALS_BACKLOG',
    value: 'N',
    help: 'score jobs that may wait; past it new calls and turns are not queued for scoring',
  },
  {
    key: 'ingestQueueBytes',
    flag: 'ingest-queue-bytes',
    env: 'WEFT_INGEST_QUEUE_BYTES',
    value: 'BYTES',
    help: 'call rows waiting to be written before ingest answers 503',
  },
  {
    key: 'retentionIntervalMs',
    flag: 'retention-interval-ms',
    env: 'WEFT_RETENTION_INTERVAL_MS',
    value: 'MS',
    help: 'how often expired calls are deleted (0: never)',
  },
  {
    key: 'logLevel',
    flag: 'log-level',
    env: 'WEFT_LOG_LEVEL',
    value: 'LEVEL',
    help: 'silent, error, warn, info (a line per request) or debug',
  },
  { key: 'logFormat', flag: 'log-format', env: 'WEFT_LOG_FORMAT', value: 'FORMAT', help: 'json or pretty' },
  {
    key: 'metricsToken',
    flag: 'metrics-token',
    env: 'WEFT_METRICS_TOKEN',
    value: 'SECRET',
    help: 'a bearer token that may read /metrics from another host',
  },
  {
    key: 'secretsKey',
    flag: 'secrets-key',
    env: 'WEFT_SECRETS_KEY',
    value: 'KEY',
    help: '32 bytes (base64) sealing stored secrets; none: secrets.key in the data directory (prefer the variable: a flag shows in ps)',
  },
  {
    key: 'defaultEntity',
    flag: 'default-entity',
    env: 'WEFT_DEFAULT_ENTITY',
    value: 'ENTITY',
    help: "the viewer's default entity in open mode (none: the username)",
  },
  { key: 'engine', flag: 'engine', env: 'WEFT_ENGINE', value: 'ENGINE', help: 'sqlite or clickhouse' },
  {
    key: 'clickhouseUrl',
    flag: 'clickhouse-url',
    env: 'WEFT_CLICKHOUSE_URL',
    value: 'URL',
    help: "ClickHouse's HTTP address (chdb:DIR: in process, needs chdb)",
  },
  {
    key: 'clickhouseUser',
    flag: 'clickhouse-user',
    env: 'WEFT_CLICKHOUSE_USER',
    value: 'USER',
    help: 'ClickHouse user',
  },
  {
    key: 'clickhousePassword',
    flag: 'clickhouse-password',
    env: 'WEFT_CLICKHOUSE_PASSWORD',
    value: 'PASSWORD',
    help: 'ClickHouse password',
  },
  {
    key: 'clickhouseDatabase',
    flag: 'clickhouse-database',
    env: 'WEFT_CLICKHOUSE_DATABASE',
    value: 'NAME',
    help: "Weft's ClickHouse database",
  },
  {
    key: 'clickhouseCluster',
    flag: 'clickhouse-cluster',
    env: 'WEFT_CLICKHOUSE_CLUSTER',
    value: 'NAME',
    help: 'a ClickHouse cluster: replicated (and distributed) tables',
  },
  {
    key: 'clickhouseCallCacheBytes',
    flag: 'clickhouse-call-cache-bytes',
    env: 'WEFT_CLICKHOUSE_CALL_CACHE_BYTES',
    value: 'BYTES',
    help: 'calls kept in memory to serve pages read again (0: none)',
  },
];

/** The settings' options for node:util parseArgs. */
export const SETTING_OPTIONS: Record<string, { type: 'string' | 'boolean' }> = Object.fromEntries(
  SETTINGS.map((s) => [s.flag, { type: s.isSwitch ? 'boolean' : 'string' }]),
);

export class ConfigError extends Error {}

function toInt(key: keyof Config, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${key} must be a non-negative integer, got "${raw}"`);
  return n;
}

function toBool(key: keyof Config, raw: string): boolean {
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${key} must be true or false, got "${raw}"`);
}

/** The entries of a comma-separated list, trimmed and lowercased, empty ones dropped. */
const lowercaseList = (raw: string): string[] =>
  raw
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');

/**
 * WEFT_ALLOWED_HOSTS: comma-separated host names or IP addresses (IPv6 without brackets),
 * lowercased, without ports; `.name` allows the name and its subdomains; `*` alone allows any Host.
 */
function toHostList(raw: string): readonly string[] {
  const names = lowercaseList(raw);
  for (const n of names) {
    if (n === '*' || isIP(n) !== 0) continue;
    if (!/^\.?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(n)) {
      throw new ConfigError(
        `allowedHosts must list host names or IP addresses without ports (comma-separated; .example.com for a domain and its subdomains; * for any), got "${n}"`,
      );
    }
  }
  if (names.includes('*') && names.length > 1)
    throw new ConfigError('allowedHosts: * allows every name; list it alone');
  return Object.freeze(names);
}

/**
 * WEFT_OUTBOUND_ALLOWED_HOSTS: comma-separated `host` or `host:port` entries (IPv6 addresses in
 * brackets when they carry a port), lowercased; their grammar is the outbound policy's own.
 */
function toOutboundHostList(raw: string): readonly string[] {
  const entries = lowercaseList(raw);
  for (const e of entries) {
    try {
      parseAllowedHost(e);
    } catch (err) {
      throw new ConfigError(
        `outboundAllowedHosts must list host names or IP addresses, each with an optional :port (comma-separated; [::1]:11434 for an IPv6 address with a port): ${(err as Error).message}`,
      );
    }
  }
  return Object.freeze(entries);
}

/**
 * A parseArgs failure as a ConfigError saying what was wrong with which option: node's own
 * messages also describe how to pass a positional that starts with a dash, which no command
 * of Weft's takes.
 */
export function argsError(err: unknown): ConfigError {
  const e = err as { code?: string; message?: string };
  const option = /'(-[^' ]+)/.exec(e.message ?? '')?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return new ConfigError(`unknown option ${option}`);
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    return new ConfigError(
      /does not take an argument/.test(e.message ?? '')
        ? `option ${option} takes no value`
        : `option ${option} needs a value`,
    );
  }
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return new ConfigError(`unexpected argument ${/'([^']*)'/.exec(e.message ?? '')?.[1] ?? ''}`.trim());
  return new ConfigError(e.message ?? String(err));
}

/** The settings' values from flags already parsed (parseArgs), over those of the environment. */
export function configFrom(
  flags: Readonly<Record<string, string | boolean | undefined>>,
  env: NodeJS.ProcessEnv,
): Config {
  const raw: Partial<Record<keyof Config, string>> = {};
  for (const s of SETTINGS) {
    const v = env[s.env];
    if (v !== undefined && v !== '') raw[s.key] = v;
    const f = flags[s.flag];
    if (f !== undefined) raw[s.key] = String(f);
  }
  const engine = raw.engine ?? DEFAULTS.engine;
  if (engine !== 'sqlite' && engine !== 'clickhouse')
    throw new ConfigError(`engine must be sqlite or clickhouse, got "${engine}"`);
  const clickhouseDatabase = raw.clickhouseDatabase ?? DEFAULTS.clickhouseDatabase;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(clickhouseDatabase))
    throw new ConfigError(
      `clickhouseDatabase must be a plain identifier (letters, digits, _), got "${clickhouseDatabase}"`,
    );
  const clickhouseCluster = raw.clickhouseCluster ?? DEFAULTS.clickhouseCluster;
  if (clickhouseCluster !== null && !/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(clickhouseCluster))
    throw new ConfigError(
      `clickhouseCluster must be a cluster name (letters, digits, _ . -), got "${clickhouseCluster}"`,
    );
  const logFormat = raw.logFormat ?? DEFAULTS.logFormat;
  if (logFormat !== 'json' && logFormat !== 'pretty')
    throw new ConfigError(`logFormat must be json or pretty, got "${logFormat}"`);
  const port = raw.port !== undefined ? toInt('port', raw.port) : DEFAULTS.port;
  if (port > 65535) throw new ConfigError(`port must be at most 65535, got ${port}`);
  return Object.freeze({
    host: raw.host ?? DEFAULTS.host,
    port,
    dataDir: resolve(raw.dataDir ?? DEFAULTS.dataDir),
    bodyLimit: raw.bodyLimit !== undefined ? toInt('bodyLimit', raw.bodyLimit) : DEFAULTS.bodyLimit,
    localUserId: raw.localUserId ?? DEFAULTS.localUserId,
    localUsername: raw.localUsername ?? DEFAULTS.localUsername,
    logLevel: raw.logLevel ?? DEFAULTS.logLevel,
    logFormat,
    metricsToken: raw.metricsToken ?? DEFAULTS.metricsToken,
    secretsKey: raw.secretsKey ?? DEFAULTS.secretsKey,
    insecureOpen: raw.insecureOpen !== undefined ? toBool('insecureOpen', raw.insecureOpen) : DEFAULTS.insecureOpen,
    allowedHosts: raw.allowedHosts !== undefined ? toHostList(raw.allowedHosts) : DEFAULTS.allowedHosts,
    outboundAllowedHosts:
      raw.outboundAllowedHosts !== undefined
        ? toOutboundHostList(raw.outboundAllowedHosts)
        : DEFAULTS.outboundAllowedHosts,
    rateLimitPerMinute:
      raw.rateLimitPerMinute !== undefined
        ? toInt('rateLimitPerMinute', raw.rateLimitPerMinute)
        : DEFAULTS.rateLimitPerMinute,
    signalsConcurrency:
      raw.signalsConcurrency !== undefined
        ? toInt('signalsConcurrency', raw.signalsConcurrency)
        : DEFAULTS.signalsConcurrency,
    signalsBacklog:
      raw.signalsBacklog !== undefined ? toInt('signalsBacklog', raw.signalsBacklog) : DEFAULTS.signalsBacklog,
    ingestQueueBytes:
      raw.ingestQueueBytes !== undefined ? toInt('ingestQueueBytes', raw.ingestQueueBytes) : DEFAULTS.ingestQueueBytes,
    retentionIntervalMs:
      raw.retentionIntervalMs !== undefined
        ? toInt('retentionIntervalMs', raw.retentionIntervalMs)
        : DEFAULTS.retentionIntervalMs,
    defaultEntity: raw.defaultEntity ?? DEFAULTS.defaultEntity,
    engine,
    clickhouseUrl: raw.clickhouseUrl ?? DEFAULTS.clickhouseUrl,
    clickhouseUser: raw.clickhouseUser ?? DEFAULTS.clickhouseUser,
    clickhousePassword: raw.clickhousePassword ?? DEFAULTS.clickhousePassword,
    clickhouseDatabase,
    clickhouseCluster,
    clickhouseCallCacheBytes:
      raw.clickhouseCallCacheBytes !== undefined
        ? toInt('clickhouseCallCacheBytes', raw.clickhouseCallCacheBytes)
        : DEFAULTS.clickhouseCallCacheBytes,
  });
}

/** Flags win over the environment, which wins over the defaults. */
export function loadConfig(argv: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Config {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: [...argv], options: SETTING_OPTIONS, strict: true, allowPositionals: false }));
  } catch (err) {
    throw argsError(err);
  }
  return configFrom(values, env);
}
