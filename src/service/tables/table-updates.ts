// table/update (weave-api.md §1.15): updates apply in order to a copy of the base table's
// row-digest list. append pushes; pop removes at 0 <= index < length; insert goes before
// 0 <= index <= length. Any other index is a 400 "Index out of range" and nothing is
// written. The answer lists, per update, the appended / inserted / popped row digest.
import type { TableUpdateSpec } from '../../api/tables.js';
import { InvalidRequestError } from '../../api/errors.js';
import { assertNever } from '../../query/plan.js';
import type { TableRowInput } from '../../storage/tables/table-store.js';
import { NewRows } from './table-rows.js';

export interface AppliedUpdates {
  /** The new table's row digests, in order. */
  readonly rowDigests: string[];
  /** Per update, in order: the row digest it appended, inserted or popped. */
  readonly updated: string[];
  /** The rows the updates bring (each digest once). */
  readonly newRows: TableRowInput[];
}

type Op =
  | { kind: 'append'; row: unknown }
  | { kind: 'pop'; index: number }
  | { kind: 'insert'; index: number; row: unknown };

function opOf(u: TableUpdateSpec): Op {
  if ('append' in u) return { kind: 'append', row: u.append.row };
  if ('pop' in u) return { kind: 'pop', index: u.pop.index };
  return { kind: 'insert', index: u.insert.index, row: u.insert.row };
}

const outOfRange = () => new InvalidRequestError('Index out of range');

export function applyTableUpdates(base: readonly string[], updates: readonly TableUpdateSpec[]): AppliedUpdates {
  const rows = [...base];
  const updated: string[] = [];
  const added = new NewRows();
  for (const u of updates) {
    const op = opOf(u);
    switch (op.kind) {
      case 'append': {
        const digest = added.add(op.row);
        rows.push(digest);
        updated.push(digest);
        break;
      }
      case 'pop': {
        if (!Number.isInteger(op.index) || op.index < 0 || op.index >= rows.length) throw outOfRange();
        updated.push(rows.splice(op.index, 1)[0]!);
        break;
      }
      case 'insert': {
        if (!Number.isInteger(op.index) || op.index < 0 || op.index > rows.length) throw outOfRange();
        const digest = added.add(op.row);
        rows.splice(op.index, 0, digest);
        updated.push(digest);
        break;
      }
      default:
        assertNever(op);
    }
  }
  return { rowDigests: rows, updated, newRows: added.list() };
}
