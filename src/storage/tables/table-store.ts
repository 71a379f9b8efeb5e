// What every engine must offer for tables (weave-api.md §1.14-1.17, §3.9).
// Rows are content-addressed per project: stored once per (project_id, row digest), the
// first writer wins and a row is never changed or removed. A table is an immutable,
// ordered list of row digests (duplicates allowed) keyed by (project_id, table digest).
// The service computes every digest; engines store and read, nothing more. "Atomic"
// below means no reader ever sees a table whose rows are not all readable: SQLite uses a
// transaction; an engine without transactions writes the rows first and the table last.
import type { SortTerm } from '../../query/plan.js';

/** A row to store: its digest and the canonical JSON text that was hashed into it. */
export interface TableRowInput {
  readonly digest: string;
  readonly val: string;
}

export interface PutTableOutcome {
  /**
   * Row digests of the list that exist nowhere in the project (neither stored before nor
   * among the new rows), in first-seen order. When any is missing nothing was written.
   */
  readonly missing: readonly string[];
}

/** A compiled table/query. */
export interface TableRowsQuery {
  readonly projectId: string;
  readonly digest: string;
  /** Only positions holding one of these row digests; null means every position. */
  readonly rowDigests: readonly string[] | null;
  /**
   * Sort terms over JSON paths into the row (FieldRef kind 'json', column 'val'): present
   * values first, then numbers, then text, each in the term's direction; the position
   * (ascending) always breaks ties. Empty: table order.
   */
  readonly sort: readonly SortTerm[];
  readonly limit: number | null;
  readonly offset: number | null;
}

export interface StoredTableRow {
  readonly digest: string;
  /** The row's stored JSON text (canonical JSON), to be copied into answers verbatim. */
  readonly val: string;
  /** Position of the row in the table. */
  readonly original_index: number;
}

export interface TableStats {
  readonly digest: string;
  /** Number of positions (duplicates counted). */
  readonly count: number;
  /** Sum over positions of the row's stored JSON length; null unless asked for. */
  readonly storage_size_bytes: number | null;
}

export interface TableStore {
  /**
   * Atomically stores `newRows` (rows already stored are kept as they are) and the table
   * `digest` = `rowDigests` in `projectId`. Idempotent: when the table exists nothing is
   * written. Every digest of `rowDigests` must name a row of the project, stored before or
   * among `newRows`; otherwise nothing at all is written and the outcome lists the missing.
   */
  putTable(
    projectId: string,
    digest: string,
    rowDigests: readonly string[],
    newRows: readonly TableRowInput[],
  ): Promise<PutTableOutcome>;
  /** The table's row digests in order, or null when the table does not exist. */
  getTableRowDigests(projectId: string, tableDigest: string): Promise<string[] | null>;
  /** Row digest -> the row value as JSON text, for those of `rowDigests` that exist in the project. */
  getRows(projectId: string, rowDigests: readonly string[]): Promise<Map<string, string>>;
  /**
   * The rows a query selects, in chunks, read from a consistent snapshot with memory
   * independent of the table's size when unsorted. An unknown table yields nothing.
   * Breaking off the iteration (return()) releases what the read holds.
   */
  queryRows(q: TableRowsQuery): AsyncIterable<readonly StoredTableRow[]>;
  /** Stats of the tables that exist among `digests`, in request order (unknown ones omitted). */
  stats(projectId: string, digests: readonly string[], includeStorageSize: boolean): Promise<TableStats[]>;
  /** Bytes of the project's stored table rows (each row once, however many tables hold it). */
  totalSize(projectId: string): Promise<number>;
  /** Digests of every table of the project, in no particular order (weft copy). */
  digests(projectId: string): Promise<string[]>;
}
