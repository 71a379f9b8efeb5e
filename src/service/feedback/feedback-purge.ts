// Which feedback a purge may delete. For safety only deletion by id is allowed, as in
// Weave (feedback.py validate_feedback_purge_req): the query must be
//   {"$eq": [{"$getField": "id"}, {"$literal": "<id>"}]}
// or {"$or": [<such $eq>, ...]}. Anything else — $in, other fields, other shapes — is a 400.
import { InvalidRequestError } from '../../api/errors.js';

export const PURGE_BY_ID_ONLY = 'Can only purge feedback by specifying one or more feedback ids';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value of the only key of `v` when that key is `key`, else undefined. */
function onlyKey(v: unknown, key: string): unknown {
  if (!isPlainObject(v)) return undefined;
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0] === key ? v[key] : undefined;
}

function idOfEq(op: unknown): string {
  const args = onlyKey(op, '$eq');
  if (!Array.isArray(args) || args.length !== 2) throw new InvalidRequestError(PURGE_BY_ID_ONLY);
  const field = onlyKey(args[0], '$getField');
  const literal = onlyKey(args[1], '$literal');
  if (field !== 'id' || typeof literal !== 'string') throw new InvalidRequestError(PURGE_BY_ID_ONLY);
  return literal;
}

/** The ids named by a purge query's `$expr`; throws InvalidRequestError for any other shape. */
export function purgeIdsFromExpr(expr: Record<string, unknown>): string[] {
  const keys = Object.keys(expr);
  if (keys.length !== 1) throw new InvalidRequestError(PURGE_BY_ID_ONLY);
  if (keys[0] === '$eq') return [idOfEq(expr)];
  if (keys[0] === '$or') {
    const items = expr.$or;
    if (!Array.isArray(items) || items.length === 0) throw new InvalidRequestError(PURGE_BY_ID_ONLY);
    return [...new Set(items.map(idOfEq))];
  }
  throw new InvalidRequestError(PURGE_BY_ID_ONLY);
}
