// The ClickHouse connection of the engine: the official @clickhouse/client over HTTP, or (in
// tests) the same client on an in-process chdb connection, so one code path runs in both.
// Settings every statement needs are set once here: 64-bit integers come back as JSON
// strings (a real server's default; chdb's is numbers), inserts wait until stored.
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';

/** The client's connection hook (a chdb connection in tests). */
export type ClickHouseConnection = NonNullable<NonNullable<Parameters<typeof createClient>[0]>['connection']>;

export interface ClickHouseOptions {
  readonly url: string;
  readonly user?: string;
  readonly password?: string;
  /** Weft's database (created if missing). */
  readonly database: string;
  /** Replaces the HTTP connection (tests: chdb/connection). */
  readonly connection?: ClickHouseConnection;
}

/** Settings every statement runs with. */
const SESSION_SETTINGS = {
  output_format_json_quote_64bit_integers: 1,
  // An insert is acknowledged once it is stored, never before.
  async_insert: 0,
  // Lightweight deletes and mutations finish before the statement returns.
  mutations_sync: '2',
  lightweight_deletes_sync: '2',
  // Through a Distributed table (sharded clusters) an insert returns once every shard has
  // its rows, not when they are queued.
  distributed_foreground_insert: 1,
  // JSON_VALUE answers objects and arrays as JSON text, as the plan's dynamic fields read.
  function_json_value_return_type_allow_complex: 1,
  // A LEFT JOIN's row without a match reads NULL, not the type's default: a call without
  // feedback has NULL feedback fields, as on SQLite (clickhouse/calls/call-select.ts).
  join_use_nulls: 1,
  // A lone UTF-16 surrogate in a string (JSON.stringify writes it as a \uD800 escape) is
  // stored as it comes instead of failing the insert: no client string is refused.
  input_format_json_throw_on_bad_escape_sequence: 0,
} as const;

/**
 * A chdb connection that has SESSION_SETTINGS set once in its session before its first
 * statement. The client's default settings would reach chdb as SET statements prefixed to
 * every statement (measured: SELECT 1 in 3.4 ms against 1.8 ms without them); a SET lasts
 * for the session, so once is enough. A server takes them per request, at no cost.
 */
function withSessionSettings(connection: ClickHouseConnection): ClickHouseConnection {
  let ready: Promise<unknown> | null = null;
  // A read (a write could wait behind a slow insert), its one-row answer discarded.
  const settle = () =>
    (ready ??= connection
      .query({ query: 'SELECT 1', clickhouse_settings: SESSION_SETTINGS })
      .then((r) => void r.stream.resume())
      .catch((err: unknown) => {
        ready = null;
        throw err;
      }));
  return new Proxy(connection, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if (typeof v !== 'function') return v;
      if (key !== 'query' && key !== 'command' && key !== 'insert' && key !== 'exec') return v.bind(target);
      return async (...args: unknown[]) => {
        await settle();
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

export function connectClickHouse(opts: ClickHouseOptions): ClickHouseClient {
  return createClient({
    // A chdb connection ignores the address, which must still parse as http(s).
    url: opts.connection ? 'http://chdb.invalid' : opts.url,
    // Failures reach Weft as errors, which it answers and logs itself.
    log: { level: ClickHouseLogLevel.OFF },
    ...(opts.user !== undefined ? { username: opts.user } : {}),
    ...(opts.password !== undefined ? { password: opts.password } : {}),
    ...(opts.connection
      ? { connection: withSessionSettings(opts.connection) }
      : { clickhouse_settings: SESSION_SETTINGS }),
  });
}

/** Rows of a SELECT, as JSON objects (64-bit integers as strings). */
export async function selectRows<T>(
  client: ClickHouseClient,
  query: string,
  params: Record<string, unknown> = {},
): Promise<T[]> {
  const r = await client.query({ query, query_params: params, format: 'JSONEachRow' });
  return r.json<T>();
}
