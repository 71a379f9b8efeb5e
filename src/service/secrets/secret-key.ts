// The server's key for sealing secrets (secret-box.ts): WEFT_SECRETS_KEY (32 bytes, base64 or
// hex), else the file `secrets.key` in the data directory, created on first need with mode
// 0600 (readable by the server's user only). Without that key the stored secrets do not open:
// back it up apart from the database (docs/secrets.md).
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';

export const SECRETS_KEY_FILE = 'secrets.key';

/** The key from its text: 32 bytes as base64 (or base64url) or as 64 hex digits. */
export function parseSecretsKey(text: string, from: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32)
    throw new Error(`${from} must hold 32 bytes, as base64 or 64 hex digits (e.g. from: openssl rand -base64 32)`);
  return key;
}

/** Returns a function giving the key, read (or the file created) on first call and kept. */
export function secretsKeySource(envKey: string | null, dataDir: string): () => Buffer {
  let key: Buffer | null = null;
  return () => {
    key ??= envKey !== null ? parseSecretsKey(envKey, 'WEFT_SECRETS_KEY') : keyFile(join(dataDir, SECRETS_KEY_FILE));
    return key;
  };
}

function keyFile(path: string): Buffer {
  // On ClickHouse nothing else may have made the data directory yet.
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeSync(fd, `${randomBytes(32).toString('base64')}\n`);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    // An existing file others may read is narrowed to its owner.
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  }
  return parseSecretsKey(readFileSync(path, 'utf8'), path);
}
