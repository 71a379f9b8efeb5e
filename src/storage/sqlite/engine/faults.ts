// SQLite's failure classes as Weft's typed errors, decided here and nowhere else:
// - SQLITE_FULL (the disk, or a size limit): 507 StorageFullError; nothing was written, writes
//   resume by themselves once there is space;
// - SQLITE_BUSY / SQLITE_LOCKED: another process holds the database past the busy timeout:
//   503 with Retry-After;
// - SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_CANTOPEN, SQLITE_READONLY: the file
//   or the disk under it fails: 503 with Retry-After (the error log line keeps the cause).
// Anything else is not a storage fault (null): a bug, answered 500 and logged.
import { ServiceUnavailableError, StorageFullError, type WeftError } from '../../../api/errors.js';

export type FaultKind = 'full' | 'busy' | 'io';

export function faultKind(code: unknown): FaultKind | null {
  if (typeof code !== 'string') return null;
  if (code === 'SQLITE_FULL') return 'full';
  if (/^SQLITE_(BUSY|LOCKED)/.test(code)) return 'busy';
  if (/^SQLITE_(IOERR|CORRUPT|NOTADB|CANTOPEN|READONLY)/.test(code)) return 'io';
  return null;
}

/** The typed error for a failure of the database at `path`, or null when it is not a storage fault. */
export function sqliteFault(code: unknown, message: string, path: string): WeftError | null {
  switch (faultKind(code)) {
    case 'full':
      return new StorageFullError(
        `The disk holding ${path} is full (${message}): nothing was written; free space there and writes resume`,
      );
    case 'busy':
      return new ServiceUnavailableError('The database is locked by another process; retry shortly', 1);
    case 'io':
      return new ServiceUnavailableError(
        `The database ${path} cannot be read or written (${String(code)}: ${message}); retry later`,
        5,
      );
    case null:
      return null;
  }
}
