// Which prices a /cost/purge may delete. For safety only deletion by id is allowed, as in
// Weave (token_costs.py validate_cost_purge_req): the query must be exactly one of
//   {"$eq": [{"$getField": "id"}, {"$literal": "<id>"}]}
//   {"$in": [{"$getField": "id"}, [{"$literal": "<id>"}, ...]]}
//   {"$or": [<such $eq>, ...]}
// Anything else (other fields, other operators, non-string ids, extra keys) is a 400.
import { InvalidRequestError } from '../../api/errors.js';

export const PURGE_COSTS_BY_ID_ONLY = 'Can only purge costs by specifying one or more cost ids';

const reject = (): never => {
  throw new InvalidRequestError(PURGE_COSTS_BY_ID_ONLY);
};

/** The value of the only key of `v` when that key is `key`; rejects anything else. */
function only(v: unknown, key: string): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return reject();
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0] === key ? (v as Record<string, unknown>)[key] : reject();
}

function pair(v: unknown): [unknown, unknown] {
  return Array.isArray(v) && v.length === 2 ? [v[0], v[1]] : reject();
}

function idLiteral(v: unknown): string {
  const id = only(v, '$literal');
  return typeof id === 'string' ? id : reject();
}

function idField(v: unknown): void {
  if (only(v, '$getField') !== 'id') reject();
}

function idOfEq(op: unknown): string {
  const [field, literal] = pair(only(op, '$eq'));
  idField(field);
  return idLiteral(literal);
}

/** The cost ids a purge query's `$expr` names; throws InvalidRequestError (400) for any other shape. */
export function costPurgeIds(expr: Record<string, unknown>): string[] {
  const keys = Object.keys(expr);
  if (keys.length !== 1) return reject();
  switch (keys[0]) {
    case '$eq':
      return [idOfEq(expr)];
    case '$in': {
      const [field, list] = pair(expr.$in);
      idField(field);
      if (!Array.isArray(list) || list.length === 0) return reject();
      return [...new Set(list.map(idLiteral))];
    }
    case '$or': {
      const items = expr.$or;
      if (!Array.isArray(items) || items.length === 0) return reject();
      return [...new Set(items.map(idOfEq))];
    }
    default:
      return reject();
  }
}
