// Names in the objects API: object ids, version selectors, tags and aliases.
import { InvalidRequestError } from '../../api/errors.js';
import type { VersionSelector } from '../../storage/objects/object-store.js';
import { isContentHash } from '../json/digest.js';

export const MAX_OBJECT_ID_LENGTH = 512;

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

/** A string as Python's repr() writes it (Weave's messages quote names that way). */
function pyRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  return quote + s.replace(/\\/g, '\\\\').replace(new RegExp(quote, 'g'), `\\${quote}`) + quote;
}

/** Weave's TAG_REGEX: words of letters, digits, `_` and `-`, single spaces between them (Python's \w is Unicode). */
const TAG = /^[-\p{L}\p{N}_]+( [-\p{L}\p{N}_]+)*$/u;
export const MAX_TAG_LENGTH = 256;
export const MAX_ALIAS_LENGTH = 128;

/** Tag names, checked as Weave checks them (400, Weave's messages). */
export function validateTags(tags: readonly string[]): void {
  for (const t of tags) {
    if (t.length === 0) throw new InvalidRequestError('tag name must not be empty');
    if (t.length > MAX_TAG_LENGTH)
      throw new InvalidRequestError(`tag name must be at most ${MAX_TAG_LENGTH} characters`);
    if (!TAG.test(t)) {
      throw new InvalidRequestError(
        `tag name ${pyRepr(t)} is invalid: only alphanumeric characters, hyphens, underscores, and single spaces between words are allowed`,
      );
    }
  }
}

/**
 * Alias names, checked as Weave checks them (400, Weave's messages): not empty or blank, at most
 * 128 characters, no "/" or ":", not "latest" (derived from the versions) and not `v<N>`. Weft
 * adds two rules so that every alias stays resolvable and printable: no control characters,
 * and nothing shaped like a digest (it would be read as one).
 */
export function validateAliases(aliases: readonly string[]): void {
  for (const a of aliases) {
    if (a.length === 0) throw new InvalidRequestError('alias name must not be empty');
    if (a.trim().length === 0) throw new InvalidRequestError('alias name must not be whitespace-only');
    if (a.length > MAX_ALIAS_LENGTH)
      throw new InvalidRequestError(`alias name must be at most ${MAX_ALIAS_LENGTH} characters`);
    const bad = [...a].find((ch) => ch === '/' || ch === ':');
    if (bad !== undefined) throw new InvalidRequestError(`alias name cannot contain character '${bad}'`);
    if (/^v\d+$/.test(a))
      throw new InvalidRequestError(`alias name '${a}' is reserved (matches version pattern v<number>)`);
    if (a === 'latest') throw new InvalidRequestError(`alias name '${a}' is reserved`);
    if (CONTROL.test(a)) throw new InvalidRequestError('alias name must not contain control characters');
    if (isContentHash(a)) throw new InvalidRequestError(`alias name ${pyRepr(a)} looks like a digest`);
  }
}
