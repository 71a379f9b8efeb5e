// Sealing secrets for storage: AES-256-GCM under the server's 32-byte key (secret-key.ts), a
// random 96-bit nonce per value, the entity and the name as associated data, so a sealed value
// opens only as the secret it was sealed for (moved to another name or entity, it fails
// authentication). Sealed form: `v1.<nonce>.<tag>.<ciphertext>`, each base64url.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { InvalidRequestError } from '../../api/errors.js';

const VERSION = 'v1';

/**
 * A sealed value that does not open: another key, another secret's value, or damaged. A 400
 * where a request needs it: setting the secret again is what mends it.
 */
export class SecretOpenError extends InvalidRequestError {
  constructor(entity: string, name: string) {
    super(
      `secret ${name} of entity ${entity} does not open with this server's key (WEFT_SECRETS_KEY or secrets.key): set it again`,
    );
    this.name = 'SecretOpenError';
  }
}

const aad = (entity: string, name: string) => Buffer.from(JSON.stringify([entity, name]), 'utf8');

export function sealSecret(key: Buffer, entity: string, name: string, value: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(aad(entity, name));
  const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return [VERSION, nonce, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function openSecret(key: Buffer, entity: string, name: string, sealed: string): string {
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretOpenError(entity, name);
  const [nonce, tag, body] = parts.slice(1).map((p) => Buffer.from(p, 'base64url')) as [Buffer, Buffer, Buffer];
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAAD(aad(entity, name));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretOpenError(entity, name);
  }
}
