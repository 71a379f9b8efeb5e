// Types of ensure-chdb.mjs for TypeScript callers (the bench).
export const CHDB_VERSION: string;
export const CHDB_DIR: string;
export function ensureChdb(): void;
