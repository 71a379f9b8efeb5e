/** A JSON object (not an array, not null): what the views read keys of. */
export const isDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
