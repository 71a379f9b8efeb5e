// sort_by of table/query: each field is a dot path into the row value ("meta.difficulty").
// Every path is valid (a missing key just reads as missing) except malformed ones: an
// empty or blank field, a leading or trailing dot, two dots in a row, a blank segment.
// Those are 400s, as Weave answers them (InvalidRequest), not 422s: the schema accepts
// any string and this is the one place that decides.
import { InvalidRequestError } from '../api/errors.js';
import type { SortTerm } from './plan.js';

/** The one JSON column a table row has; engines print paths into it. */
export const TABLE_ROW_COLUMN = 'val';

/** The path segments of a sort field; throws InvalidRequestError when malformed. */
export function tableFieldPath(field: string): string[] {
  if (field.trim().length === 0) throw new InvalidRequestError('Sort field cannot be empty');
  if (field.startsWith('.') || field.endsWith('.') || field.includes('..')) {
    throw new InvalidRequestError(
      `Invalid sort field '${field}': field names cannot start/end with dots or contain consecutive dots`,
    );
  }
  const parts = field.split('.');
  if (parts.some((p) => p.trim().length === 0)) {
    throw new InvalidRequestError(`Invalid sort field '${field}': field path components cannot be empty`);
  }
  return parts;
}

/** Compiles table sort_by into plan sort terms over the row column. */
export function compileTableSort(
  sortBy: readonly { field: string; direction: 'asc' | 'desc' }[] | null | undefined,
): SortTerm[] {
  return (sortBy ?? []).map((s) => ({
    field: { kind: 'json', column: TABLE_ROW_COLUMN, path: tableFieldPath(s.field) },
    direction: s.direction,
  }));
}
