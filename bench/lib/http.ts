// A minimal HTTP client over node:http with keep-alive, for load generation to 127.0.0.1
// only. Contract: every request resolves (or rejects) on its own; timings are taken with
// performance.now() from just before the request is written.
import http from 'node:http';

/** Keep-alive sockets, as the SDK's fetch keeps them; enough for the concurrent clients. */
export const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

export interface Reply {
  readonly status: number;
  readonly body: string;
  /** request written -> last byte */
  readonly ms: number;
}

function assertLoopback(url: URL): void {
  if (url.hostname !== '127.0.0.1') throw new Error(`benchmarks only load 127.0.0.1, not ${url.hostname}`);
}

/** POSTs a JSON body and buffers the reply. */
export function post(base: string, path: string, body: string): Promise<Reply> {
  return postBody(base, path, body, { 'content-type': 'application/json' });
}

/** POSTs a body of any type (headers as given) and buffers the reply. */
export function postBody(
  base: string,
  path: string,
  body: string | Buffer,
  headers: Record<string, string>,
): Promise<Reply> {
  const url = new URL(path, base);
  assertLoopback(url);
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - t0,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** GETs over the keep-alive agent and buffers the reply (timed like post). */
export function get(base: string, path: string): Promise<Reply> {
  const url = new URL(path, base);
  assertLoopback(url);
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(url, { method: 'GET', agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          ms: performance.now() - t0,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** POST and throw unless 200; the reply body. */
export async function postOk(base: string, path: string, body: unknown): Promise<Reply> {
  const r = await post(base, path, typeof body === 'string' ? body : JSON.stringify(body));
  if (r.status !== 200) throw new Error(`${path} -> ${r.status}: ${r.body.slice(0, 300)}`);
  return r;
}

export interface StreamStats {
  readonly status: number;
  /** request written -> first complete line (first row) */
  readonly firstRowMs: number;
  readonly totalMs: number;
  readonly bytes: number;
  readonly lines: number;
}

export interface StreamOptions {
  /** Throttle: read at most this many bytes per second (pausing the socket), for a slow reader. */
  readonly bytesPerSec?: number;
  /** Called for every chunk read, with the bytes so far. */
  readonly onProgress?: (bytes: number, lines: number) => void;
}

/** POSTs and reads a JSON Lines reply, counting rows without parsing them. */
export function postStream(base: string, path: string, body: string, opts: StreamOptions = {}): Promise<StreamStats> {
  const url = new URL(path, base);
  assertLoopback(url);
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let firstRowMs = NaN;
    let bytes = 0;
    let lines = 0;
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) lines++;
          if (lines > 0 && Number.isNaN(firstRowMs)) firstRowMs = performance.now() - t0;
          opts.onProgress?.(bytes, lines);
          if (opts.bytesPerSec) {
            // Pause until this many bytes would have taken at the allowed rate.
            const due = t0 + (bytes / opts.bytesPerSec) * 1000;
            const wait = due - performance.now();
            if (wait > 1) {
              res.pause();
              setTimeout(() => res.resume(), wait);
            }
          }
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, firstRowMs, totalMs: performance.now() - t0, bytes, lines }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** One GET on a fresh connection; the status, or 0 when the connection is refused or fails. */
export function probe(base: string, path: string): Promise<number> {
  const url = new URL(path, base);
  assertLoopback(url);
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'GET', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.setTimeout(2000, () => req.destroy());
    req.end();
  });
}
