// The UI's only way to the server: the same HTTP API the SDKs use, with the key sent the
// way the SDKs send it (Basic api:<key>). Errors carry the server's reason.
import { currentKey, reportRefused } from './auth';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(`${status}: ${reason}`);
  }
}

function headers(json: boolean): Record<string, string> {
  const h: Record<string, string> = {};
  if (json) h['content-type'] = 'application/json';
  const key = currentKey();
  if (key !== null) h.authorization = `Basic ${btoa(`api:${key}`)}`;
  return h;
}

/** `ownRefusal`: the caller answers a 401/403 itself (an admin-only field), so the shell does not ask for a key. */
export interface RequestOptions {
  ownRefusal?: boolean;
}

async function failure(res: Response, opts: RequestOptions = {}): Promise<ApiError> {
  let reason = res.statusText || 'Request failed';
  try {
    const body = (await res.json()) as { reason?: unknown; detail?: unknown };
    if (typeof body.reason === 'string') reason = body.reason;
    else if (typeof body.detail === 'string') reason = body.detail;
    else if (Array.isArray(body.detail) && body.detail.length > 0) {
      // A validation answer: [{loc, msg}, ...]
      const first = body.detail[0] as { loc?: unknown[]; msg?: string };
      reason = `${(first.loc ?? []).join('.')}: ${first.msg ?? 'invalid'}`;
    }
  } catch {
    // Not JSON: keep the status text.
  }
  if ((res.status === 401 || res.status === 403) && !opts.ownRefusal) reportRefused(res.status, reason);
  return new ApiError(res.status, reason);
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(path, { headers: headers(false), signal });
  if (!res.ok) throw await failure(res);
  return (await res.json()) as T;
}

export async function postJson<T>(
  path: string,
  body: unknown,
  signal?: AbortSignal,
  opts: RequestOptions = {},
): Promise<T> {
  const res = await fetch(path, { method: 'POST', headers: headers(true), body: JSON.stringify(body), signal });
  if (!res.ok) throw await failure(res, opts);
  return (await res.json()) as T;
}

export async function putJson<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, { method: 'PUT', headers: headers(true), body: JSON.stringify(body) });
  if (!res.ok) throw await failure(res);
  return (await res.json()) as T;
}

/** POSTs JSON and reads the answer as text (a stored file's bytes as UTF-8). */
export async function postText(path: string, body: unknown, signal?: AbortSignal): Promise<string> {
  const res = await fetch(path, { method: 'POST', headers: headers(true), body: JSON.stringify(body), signal });
  if (!res.ok) throw await failure(res);
  return res.text();
}

/**
 * POSTs and reads a JSON Lines answer as it arrives: `onRows` gets each network chunk's
 * complete lines, so the first rows can be shown before the last ones are sent.
 */
export async function streamJsonl<T>(
  path: string,
  body: unknown,
  onRows: (rows: T[]) => void,
  signal?: AbortSignal,
): Promise<void> {
  const res = await fetch(path, { method: 'POST', headers: headers(true), body: JSON.stringify(body), signal });
  if (!res.ok) throw await failure(res);
  if (res.body === null) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = rest + value;
    const cut = text.lastIndexOf('\n');
    if (cut < 0) {
      rest = text;
      continue;
    }
    rest = text.slice(cut + 1);
    const rows: T[] = [];
    for (const line of text.slice(0, cut).split('\n')) if (line !== '') rows.push(JSON.parse(line) as T);
    if (rows.length > 0) onRows(rows);
  }
  if (rest.trim() !== '') onRows([JSON.parse(rest) as T]);
}

/** Reads a JSON Lines answer whole. */
export async function postJsonl<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T[]> {
  const out: T[] = [];
  await streamJsonl<T>(path, body, (rows) => out.push(...rows), signal);
  return out;
}
