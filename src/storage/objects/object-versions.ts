// The version rules of ObjectStore (object-store.ts), written once for both engines: SQLite
// applies them inside its transaction, ClickHouse after reading the object's rows.

/**
 * The version_index of a new or resurrected version: the number of versions the object has
 * (deleted ones included), raised above every index already in use (an index a resurrection
 * took may lie beyond the count).
 */
export const nextVersionIndex = (versions: number, maxIndex: number | null): number =>
  Math.max(versions, (maxIndex ?? -1) + 1);
