// Reading the loosely typed values of recorded calls and spans: a number only when it is one,
// text only when it is text, a JSON text parsed when it holds an object or a list.
// (Imports here and in the other pure playground modules end in .js: the unit tests load them
// with Node's resolution, which wants the extension; Vite resolves them to the .ts files.)
export { isDict } from '../isDict.js';

export type Dict = Record<string, unknown>;

export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export const int = (v: unknown): number | null => (Number.isSafeInteger(v) ? (v as number) : null);

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A value as the text an editor shows: strings as they are, anything else as JSON. */
export const asText = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);

/** Stop sequences: one string or a list of them. */
export const stops = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];

/** A JSON text of an object or a list, parsed; anything else as it is. */
export function parsedJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trimStart();
  if (t[0] !== '{' && t[0] !== '[') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}
