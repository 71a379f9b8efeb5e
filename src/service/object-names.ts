// Names in the objects API: object ids, version selectors, tags and aliases.
import { InvalidRequestError } from '../api/errors.js';
import type { VersionSelector } from '../storage/object-store.js';
import { isContentHash } from './digest.js';

export const MAX_OBJECT_ID_LENGTH = 512;
export const MAX_LABEL_LENGTH = 256;

// C0 controls, DEL and C1 controls: never part of a name a person typed.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Object ids: any non-empty string of at most 512 characters without control characters.
 * Weave's own charset rule ([\w._-], at most 128) is deliberately not enforced: the TS SDK
 * sends op names verbatim (spaces, `/`, `!`), and a 400 on obj/create crashes the client
 * process (sdk-traffic.md §3.4, §6.11).
 */
export function validateObjectId(objectId: string): void {
  if (objectId.length === 0) throw new InvalidRequestError('Invalid object name: must not be empty');
  if (objectId.length > MAX_OBJECT_ID_LENGTH) {
    throw new InvalidRequestError(`Invalid object name: longer than ${MAX_OBJECT_ID_LENGTH} characters`);
  }
  if (CONTROL.test(objectId)) throw new InvalidRequestError('Invalid object name: contains control characters');
}

/** `v<N>`: Weave's digest_is_version_like (a `v` followed by a decimal integer). */
export function versionIndexOf(s: string): number | null {
  if (!/^v\d{1,15}$/.test(s)) return null;
  return Number(s.slice(1));
}

/** Reads the `digest` field of obj/read, obj/delete and the tag/alias paths. */
export function parseSelector(s: string): VersionSelector {
  if (s === 'latest') return { kind: 'latest' };
  const index = versionIndexOf(s);
  if (index !== null) return { kind: 'index', index };
  if (isContentHash(s)) return { kind: 'digest', digest: s };
  return { kind: 'name', name: s };
}

function validateLabel(what: 'tag' | 'alias', s: string): void {
  if (s.length === 0) throw new InvalidRequestError(`Invalid ${what}: must not be empty`);
  if (s.length > MAX_LABEL_LENGTH) throw new InvalidRequestError(`Invalid ${what}: longer than ${MAX_LABEL_LENGTH} characters`);
  if (CONTROL.test(s)) throw new InvalidRequestError(`Invalid ${what}: contains control characters`);
}

export function validateTags(tags: readonly string[]): void {
  for (const t of tags) validateLabel('tag', t);
}

/**
 * Alias names must stay resolvable: "latest" is derived from the versions (never set by
 * hand), and names shaped like `v<N>` or like a digest would be read as those instead.
 */
export function validateAliases(aliases: readonly string[]): void {
  for (const a of aliases) {
    validateLabel('alias', a);
    if (a === 'latest') throw new InvalidRequestError('Invalid alias: "latest" is maintained by the server');
    if (versionIndexOf(a) !== null) throw new InvalidRequestError(`Invalid alias: ${JSON.stringify(a)} looks like a version index`);
    if (isContentHash(a)) throw new InvalidRequestError(`Invalid alias: ${JSON.stringify(a)} looks like a digest`);
  }
}
