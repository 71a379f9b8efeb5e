// The message-search language of /agents/search, compiled once for every engine: whole words
// in any order, and "double-quoted phrases" whose words must stand next to each other. A word
// is a run of letters and digits (Unicode); anything else separates words and is ignored, so
// `order #123-b` asks for the words order, 123 and b, and `foo-bar` for the phrase "foo bar".
// Matching is case-insensitive on every engine. An empty query is no text search at all (the
// caller lists messages by its filters); a quote left open, or a query of punctuation only, is
// the client's mistake.
import { InvalidRequestError } from '../api/errors.js';

/** The phrases a message must all contain; each phrase is one or more words, in order. */
export type SearchTerms = readonly (readonly string[])[];

const WORD = /[\p{L}\p{N}]+/gu;
const MAX_WORDS = 64;

const wordsOf = (text: string): string[] => (text.match(WORD) ?? []).map((w) => w.toLowerCase());

/** The terms of a query, or null when it is blank (no text search). */
export function parseSearchTerms(query: string): SearchTerms | null {
  if (query.trim() === '') return null;
  const quotes = query.split('"').length - 1;
  if (quotes % 2 === 1) throw new InvalidRequestError('query: a quoted phrase is not closed (an odd number of ")');
  const terms: string[][] = [];
  query.split('"').forEach((chunk, i) => {
    if (i % 2 === 1) {
      const phrase = wordsOf(chunk);
      if (phrase.length > 0) terms.push(phrase);
      return;
    }
    for (const piece of chunk.split(/\s+/)) {
      const words = wordsOf(piece);
      if (words.length > 0) terms.push(words);
    }
  });
  if (terms.length === 0) throw new InvalidRequestError('query: no word to search for (only punctuation)');
  if (terms.flat().length > MAX_WORDS) throw new InvalidRequestError(`query: at most ${MAX_WORDS} words`);
  return terms;
}

/** SQLite FTS5: every phrase as a quoted FTS string (words hold no quote), implicitly ANDed. */
export const fts5Match = (terms: SearchTerms): string => terms.map((p) => `"${p.join(' ')}"`).join(' ');

/**
 * An RE2 pattern true when a text holds the phrase as whole words, case-insensitively (words
 * are letters and digits only, so none needs escaping).
 */
export const phrasePattern = (phrase: readonly string[]): string =>
  `(?i)(?:^|[^\\p{L}\\p{N}])${phrase.join('[^\\p{L}\\p{N}]+')}(?:$|[^\\p{L}\\p{N}])`;
