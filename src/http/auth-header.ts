// The API key of a request: `Authorization: Basic base64("api:<key>")` (what the Weave SDKs
// send; any user name is accepted, the password is the key) or `Authorization: Bearer <key>`.

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
