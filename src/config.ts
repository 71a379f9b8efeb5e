// Configuration from the environment and equivalent command-line flags; frozen once read.
import { resolve } from 'node:path';

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
  /** Serve without API keys on a non-loopback address (refused unless set). */
  readonly insecureOpen: boolean;
  /** Requests per minute allowed per API key; 0 = no limit. */
  readonly rateLimitPerMinute: number;
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
  insecureOpen: false,
  rateLimitPerMinute: 0,
  ingestQueueBytes: 256 * 1024 * 1024,
  retentionIntervalMs: 60_000,
  defaultEntity: null,
  engine: 'sqlite',
  clickhouseUrl: 'http://localhost:8123',
  clickhouseUser: null,
  clickhousePassword: null,
  clickhouseDatabase: 'weft',
  clickhouseCluster: null,
} as const;

/** Flags that take no value: present means true. */
const SWITCHES: Record<string, keyof Config> = { '--insecure-open': 'insecureOpen' };

const FLAGS: Record<string, keyof Config> = {
  '--host': 'host',
  '--port': 'port',
  '--data-dir': 'dataDir',
  '--body-limit': 'bodyLimit',
  '--user': 'localUserId',
  '--username': 'localUsername',
  '--log-level': 'logLevel',
  '--log-format': 'logFormat',
  '--metrics-token': 'metricsToken',
  '--rate-limit': 'rateLimitPerMinute',
  '--ingest-queue-bytes': 'ingestQueueBytes',
  '--retention-interval-ms': 'retentionIntervalMs',
  '--default-entity': 'defaultEntity',
  '--engine': 'engine',
  '--clickhouse-url': 'clickhouseUrl',
  '--clickhouse-user': 'clickhouseUser',
  '--clickhouse-password': 'clickhousePassword',
  '--clickhouse-database': 'clickhouseDatabase',
  '--clickhouse-cluster': 'clickhouseCluster',
};

const ENV: Record<keyof Config, string> = {
  host: 'HOST',
  port: 'PORT',
  dataDir: 'WEFT_DATA_DIR',
  bodyLimit: 'WEFT_BODY_LIMIT',
  localUserId: 'WEFT_LOCAL_USER_ID',
  localUsername: 'WEFT_LOCAL_USERNAME',
  logLevel: 'WEFT_LOG_LEVEL',
  logFormat: 'WEFT_LOG_FORMAT',
  metricsToken: 'WEFT_METRICS_TOKEN',
  insecureOpen: 'WEFT_INSECURE_OPEN',
  rateLimitPerMinute: 'WEFT_RATE_LIMIT',
  ingestQueueBytes: 'WEFT_INGEST_QUEUE_BYTES',
  retentionIntervalMs: 'WEFT_RETENTION_INTERVAL_MS',
  defaultEntity: 'WEFT_DEFAULT_ENTITY',
  engine: 'WEFT_ENGINE',
  clickhouseUrl: 'WEFT_CLICKHOUSE_URL',
  clickhouseUser: 'WEFT_CLICKHOUSE_USER',
  clickhousePassword: 'WEFT_CLICKHOUSE_PASSWORD',
  clickhouseDatabase: 'WEFT_CLICKHOUSE_DATABASE',
  clickhouseCluster: 'WEFT_CLICKHOUSE_CLUSTER',
};

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

/** Flags win over the environment, which wins over the defaults. */
export function loadConfig(argv: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Config {
  const raw: Partial<Record<keyof Config, string>> = {};
  for (const key of Object.keys(ENV) as (keyof Config)[]) {
    const v = env[ENV[key]];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const toggle = SWITCHES[flag];
    if (toggle) {
      raw[toggle] = inline ?? 'true';
      continue;
    }
    const key = FLAGS[flag];
    if (!key) throw new ConfigError(`unknown option ${flag}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new ConfigError(`option ${flag} needs a value`);
    raw[key] = value;
  }
  const engine = raw.engine ?? DEFAULTS.engine;
  if (engine !== 'sqlite' && engine !== 'clickhouse') throw new ConfigError(`engine must be sqlite or clickhouse, got "${engine}"`);
  const clickhouseDatabase = raw.clickhouseDatabase ?? DEFAULTS.clickhouseDatabase;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(clickhouseDatabase)) throw new ConfigError(`clickhouseDatabase must be a plain identifier (letters, digits, _), got "${clickhouseDatabase}"`);
  const clickhouseCluster = raw.clickhouseCluster ?? DEFAULTS.clickhouseCluster;
  if (clickhouseCluster !== null && !/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(clickhouseCluster)) throw new ConfigError(`clickhouseCluster must be a cluster name (letters, digits, _ . -), got "${clickhouseCluster}"`);
  const logFormat = raw.logFormat ?? DEFAULTS.logFormat;
  if (logFormat !== 'json' && logFormat !== 'pretty') throw new ConfigError(`logFormat must be json or pretty, got "${logFormat}"`);
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
    insecureOpen: raw.insecureOpen !== undefined ? toBool('insecureOpen', raw.insecureOpen) : DEFAULTS.insecureOpen,
    rateLimitPerMinute: raw.rateLimitPerMinute !== undefined ? toInt('rateLimitPerMinute', raw.rateLimitPerMinute) : DEFAULTS.rateLimitPerMinute,
    ingestQueueBytes: raw.ingestQueueBytes !== undefined ? toInt('ingestQueueBytes', raw.ingestQueueBytes) : DEFAULTS.ingestQueueBytes,
    retentionIntervalMs: raw.retentionIntervalMs !== undefined ? toInt('retentionIntervalMs', raw.retentionIntervalMs) : DEFAULTS.retentionIntervalMs,
    defaultEntity: raw.defaultEntity ?? DEFAULTS.defaultEntity,
    engine,
    clickhouseUrl: raw.clickhouseUrl ?? DEFAULTS.clickhouseUrl,
    clickhouseUser: raw.clickhouseUser ?? DEFAULTS.clickhouseUser,
    clickhousePassword: raw.clickhousePassword ?? DEFAULTS.clickhousePassword,
    clickhouseDatabase,
    clickhouseCluster,
  });
}
