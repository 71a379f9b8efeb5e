// ClickHouse's failure classes as Weft's typed errors, decided here and nowhere else:
// - unreachable (connection refused or reset, name not resolved, a socket or request timeout)
//   or a server that says it cannot take the query now (too many queries, memory or time
//   limits, too many parts, a read-only replica, Keeper gone): 503 with Retry-After: nothing
//   acknowledged was lost, and both SDKs retry 5xx;
// - out of disk (NOT_ENOUGH_SPACE): 507, as on SQLite;
// Anything else (a bad statement) is not a storage fault (null): a bug, answered 500 and logged.
import { ClickHouseError } from '@clickhouse/client';
import { ServiceUnavailableError, StorageFullError, type WeftError } from '../../../api/errors.js';

/** Server error codes that mean "not now" (ClickHouse's ErrorCodes). */
const TRANSIENT = new Map<string, string>([
  ['159', 'TIMEOUT_EXCEEDED'],
  ['202', 'TOO_MANY_SIMULTANEOUS_QUERIES'],
  ['203', 'NO_FREE_CONNECTION'],
  ['209', 'SOCKET_TIMEOUT'],
  ['210', 'NETWORK_ERROR'],
  ['241', 'MEMORY_LIMIT_EXCEEDED'],
  ['242', 'TABLE_IS_READ_ONLY'],
  ['252', 'TOO_MANY_PARTS'],
  ['225', 'NO_ZOOKEEPER'],
  ['999', 'KEEPER_EXCEPTION'],
  ['319', 'UNKNOWN_STATUS_OF_INSERT'],
]);
const NOT_ENOUGH_SPACE = '243';
const NETWORK =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_SOCKET|UND_ERR_CONNECT_TIMEOUT)$/;

export function clickHouseFault(err: unknown, where: string): WeftError | null {
  if (err instanceof ClickHouseError) {
    if (err.code === NOT_ENOUGH_SPACE)
      return new StorageFullError(`ClickHouse at ${where} is out of disk space (${err.message}): nothing was written`);
    const name = TRANSIENT.get(err.code);
    return name === undefined
      ? null
      : new ServiceUnavailableError(`ClickHouse at ${where} cannot take the request now (${name}); retry shortly`, 2);
  }
  if (!(err instanceof Error)) return null;
  const code = (err as { code?: unknown }).code;
  if ((typeof code === 'string' && NETWORK.test(code)) || /^Timeout error/.test(err.message)) {
    return new ServiceUnavailableError(
      `ClickHouse at ${where} cannot be reached (${typeof code === 'string' ? code : err.message}); retry later`,
      5,
    );
  }
  return null;
}
