// /refs/read_batch (weave-api.md §1.18, §3.4): the values of object and op refs, in order.
// Every ref is checked before anything is read, so a malformed or unsupported ref is a 400
// whatever its position; then the refs are resolved together (shared, memoized reads) and
// the first failure in request order decides the answer.
import { InvalidRequestError, RefObjectsNotFoundError } from '../../api/errors.js';
import type { ObjectStore } from '../../storage/objects/object-store.js';
import { createRefResolver, type RefOutcome, type TableRowReader } from './ref-values.js';
import { parseRef, type ObjectRef } from './refs.js';

/** Parses a ref and checks it is one read_batch serves: an object or op ref with an exact digest. */
function readableRef(uri: string): ObjectRef {
  const ref = parseRef(uri);
  if (ref.kind === 'table') throw new InvalidRequestError('Table refs not supported');
  if (ref.kind === 'call') throw new InvalidRequestError('Call refs not supported');
  if (ref.kind !== 'object' && ref.kind !== 'op') throw new InvalidRequestError('Agent refs not supported');
  if (ref.digest === 'latest') throw new InvalidRequestError('Reading refs with `latest` is not supported');
  return ref;
}

/** JSON text of one resolved value: stored documents verbatim, paths that lead nowhere as null. */
function valJson(outcome: RefOutcome): string {
  switch (outcome.kind) {
    case 'value':
      return outcome.json ?? JSON.stringify(outcome.value ?? null);
    case 'deleted':
      return 'null';
    case 'missing':
    case 'invalid':
      throw new Error(`unreachable: ${outcome.kind} outcomes are reported before values are written`);
  }
}

/**
 * The first failure in request order decides: an invalid path is a 400; a missing object a 404
 * naming every missing object's digest (missing_object_digests, as Weave's RefObjectsNotFoundError).
 */
function checkOutcomes(outcomes: readonly RefOutcome[], refs: readonly ObjectRef[]): void {
  const first = outcomes.find((o) => o.kind === 'missing' || o.kind === 'invalid');
  if (first === undefined) return;
  if (first.kind === 'invalid') throw new InvalidRequestError(first.message);
  const missingRefs = refs.filter((_, i) => outcomes[i]!.kind === 'missing');
  const missing = [...new Set(missingRefs.map((r) => r.digest))];
  const found = new Set(refs.map((r) => r.digest)).size - missing.length;
  const names = [...new Set(missingRefs.map((r) => `${r.name}:${r.digest}`))].join(', ');
  throw new RefObjectsNotFoundError(
    `Ref read contains ${found + missing.length} digests, but found ${found} objects. Missing: ${names}`,
    missing,
  );
}

/** `{"vals": [...]}` as JSON text, one value per ref in request order. */
export async function readRefsBatch(
  objects: ObjectStore,
  tables: TableRowReader,
  uris: readonly string[],
): Promise<string> {
  const refs = uris.map(readableRef);
  const resolver = createRefResolver(objects, tables);
  const outcomes = await Promise.all(refs.map((ref) => resolver.resolve(ref)));
  checkOutcomes(outcomes, refs);
  return `{"vals":[${outcomes.map(valJson).join(',')}]}`;
}
