// How the writer makes a commit durable (sqlite/engine/write-worker.ts). Under synchronous=FULL,
// SQLite ends every commit with an fsync of the WAL; better-sqlite3's build of SQLite calls
// fsync(), which also writes the file's metadata (its modification time) every time. The
// writer instead commits under synchronous=NORMAL (SQLite appends the commit's frames and
// does not sync) and then calls fdatasync() on the WAL itself, on its own thread, before any
// job of the group is answered: when a write is acknowledged the same frames are on disk as
// under FULL, and the inode is written only when the WAL grew (SQLite does the same where it
// is built with HAVE_FDATASYNC). fsync and fdatasync act on the file, not the descriptor, so
// a descriptor of our own flushes what SQLite wrote through its own. Checkpoints and WAL
// restarts still sync as under FULL: NORMAL keeps those syncs.
// On Linux only. Elsewhere Node's fdatasync is not the call SQLite makes: on macOS it is
// fcntl(F_FULLFSYNC), a flush of the drive's cache that SQLite's FULL does not issue (and that
// costs milliseconds a commit); on Windows it flushes as SQLite's own sync does, so nothing
// would be gained. There SQLite keeps FULL.
// Measured (interleaved, 100,000 spans a run, medians): OTLP ingest 23.9k -> 25.4k spans/s
// over 8 rounds and 25.3k -> 25.9k over 5, /call/upsert_batch unchanged (31.1k and 31.0k
// calls/s over 5); the runs with fdatasync also dipped less.
import { closeSync, fdatasyncSync, openSync } from 'node:fs';

/** Makes the WAL's committed frames durable: null when done, else the error that prevented it. */
export type WalSync = () => NodeJS.ErrnoException | null;

/**
 * fdatasync of the file at `path`, opened afresh each time (so never a descriptor of a file
 * since replaced); a file that is missing is an error, never a success.
 */
export function walSync(path: string): WalSync {
  return () => {
    let fd = -1;
    try {
      fd = openSync(path, 'r+');
      fdatasyncSync(fd);
      return null;
    } catch (e) {
      return e as NodeJS.ErrnoException;
    } finally {
      if (fd >= 0) {
        try {
          closeSync(fd);
        } catch {
          // The sync's outcome is already decided; a failed close leaks nothing we reuse.
        }
      }
    }
  };
}

/** Where SQLite syncs its commits itself (synchronous=FULL): not Linux, or not in WAL mode. */
export const syncedByCommit: WalSync = () => null;
