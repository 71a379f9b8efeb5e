// The API key of a request: `Authorization: Basic base64("api:<key>")` (what the Weave SDKs
// send; any user name is accepted, the password is the key) or `Authorization: Bearer <key>`;
// without an Authorization header, the `wandb-api-key` header Weave's OTLP guide documents.

export function keyFromAuthorization(header: string | undefined): string | null {
  if (header === undefined) return null;
  const space = header.indexOf(' ');
  if (space < 0) return null;
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (scheme === 'bearer') return value.length > 0 ? value : null;
  if (scheme !== 'basic') return null;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const key = decoded.slice(colon + 1);
  return key.length > 0 ? key : null;
}

/** The key of a request's headers: Authorization first, else wandb-api-key. */
export function keyFromHeaders(headers: Record<string, string | string[] | undefined>): string | null {
  const fromAuthorization = keyFromAuthorization(
    typeof headers.authorization === 'string' ? headers.authorization : undefined,
  );
  if (fromAuthorization !== null || headers.authorization !== undefined) return fromAuthorization;
  const v = headers['wandb-api-key'];
  const key = (Array.isArray(v) ? v[0] : v)?.trim();
  return key ? key : null;
}
