// A RemoteScorer run as Weave's scoring workers run it (agents.md §4.7): one POST of the target
// to `endpoint_url` with `Idempotency-Key` (stable per target, monitor version, scorer and
// request version), `X-Correlation-ID` (per request), `X-Weave-Schema-Version`, and the bearer
// token (a secret, or an OAuth client-credentials token). Calls go as schema version 1
// (`original_call`), agent turns as version 2 (`scoring_target` of type `agent_turn`). Bodies
// are at most 1 MiB each way; redirects are not followed; any answer but 200 fails. A turn is
// sent up to 3 times on 5xx, 408, 429 or a timeout, with the same key; a call once.
import { randomUUID } from 'node:crypto';
import type { SafeFetch } from '../../outbound/safe-fetch.js';
import { OutboundError } from '../../outbound/outbound-error.js';
import { ScoreError } from './score-error.js';

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

export const REMOTE_MAX_BYTES = 1024 * 1024;
const TIMEOUT_MS = 30_000;
const TURN_TRIES = 3;

export interface RemoteTarget {
  /** 1: `original_call`; 2: `scoring_target`. */
  readonly schemaVersion: 1 | 2;
  /** The envelope's target part: `{original_call}` or `{scoring_target}`. */
  readonly body: Dict;
}

export interface RemoteRequest {
  readonly scorer: { readonly name: string; readonly ref: string; readonly val: Dict };
  readonly monitor: { readonly name: string; readonly digest: string };
  readonly scoringCallId: string;
  readonly scoringTraceId: string;
  readonly idempotencyKey: string;
  readonly target: RemoteTarget;
}

export interface RemoteDeps {
  readonly fetch: SafeFetch;
  /** The entity's secret of that name (null: none). */
  readonly secret: (name: string) => Promise<string | null>;
}

async function secretOf(deps: RemoteDeps, name: unknown, what: string): Promise<string> {
  if (typeof name !== 'string' || name === '')
    throw new ScoreError(`The remote scorer's ${what} names no secret`, false);
  const value = await deps.secret(name);
  if (value === null) throw new ScoreError(`No secret ${name} for the remote scorer's ${what}`, false);
  return value;
}

/** The bearer token the auth config gives (null: no Authorization header). */
async function bearer(deps: RemoteDeps, auth: unknown): Promise<string | null> {
  if (!isDict(auth)) return null;
  if (auth.mode === 'static_bearer') return secretOf(deps, auth.bearer_secret_name, 'bearer token');
  if (auth.mode !== 'oauth_client_credentials') throw new ScoreError(`Unknown auth mode ${String(auth.mode)}`, false);
  const secret = await secretOf(deps, auth.client_secret_name, 'client secret');
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: String(auth.client_id ?? '') });
  form.set('client_secret', secret);
  if (typeof auth.scope === 'string' && auth.scope !== '') form.set('scope', auth.scope);
  const res = await send(deps, String(auth.token_endpoint_url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  const token = isDict(res) ? res.access_token : null;
  if (typeof token !== 'string' || token === '') throw new ScoreError('The token endpoint gave no access_token', false);
  return token;
}

/** One request: the JSON answer of a 200; ScoreError otherwise (retryable as Weave retries). */
async function send(deps: RemoteDeps, url: string, init: RequestInit): Promise<unknown> {
  let res: Response;
  try {
    res = await deps.fetch(
      url,
      { ...init, redirect: 'manual' },
      { totalTimeoutMs: TIMEOUT_MS, maxResponseBytes: REMOTE_MAX_BYTES },
    );
  } catch (err) {
    if (err instanceof OutboundError) throw new ScoreError(err.message, err.code === 'UNAVAILABLE');
    throw new ScoreError(`Could not reach ${new URL(url).host}: ${(err as Error).message}`, true);
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    const s = res.status;
    throw new ScoreError(`${new URL(url).host} answered ${s}`, s >= 500 || s === 408 || s === 429);
  }
  try {
    return JSON.parse(await res.text()) as unknown;
  } catch (err) {
    if (err instanceof OutboundError) throw new ScoreError(err.message, false);
    throw new ScoreError(`${new URL(url).host} answered no JSON`, false);
  }
}

/** The scorer's `result` (a score, a list of them, or {scores}). */
export async function runRemoteScorer(deps: RemoteDeps, r: RemoteRequest): Promise<unknown> {
  const url = r.scorer.val.endpoint_url;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url.trim()))
    throw new ScoreError('The remote scorer has no http(s) endpoint_url', false);
  const envelope: Dict = {
    schema_version: r.target.schemaVersion,
    scoring_call_id: r.scoringCallId,
    scoring_trace_id: r.scoringTraceId,
    monitor: { name: r.monitor.name, version_digest: r.monitor.digest },
    scorer: {
      name: r.scorer.name,
      ref: r.scorer.ref,
      ...(isDict(r.scorer.val.config) ? { config: r.scorer.val.config } : {}),
    },
    triggered_at: new Date().toISOString(),
    ...r.target.body,
  };
  const body = JSON.stringify(envelope);
  if (Buffer.byteLength(body) > REMOTE_MAX_BYTES) throw new ScoreError('The target is over 1 MiB: not sent', false);
  const token = await bearer(deps, r.scorer.val.auth_config);
  const tries = r.target.schemaVersion === 2 ? TURN_TRIES : 1;
  for (let attempt = 1; ; attempt++) {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'idempotency-key': r.idempotencyKey,
      'x-correlation-id': randomUUID(),
      'x-weave-schema-version': String(r.target.schemaVersion),
    };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    try {
      const answer = await send(deps, url.trim(), { method: 'POST', headers, body });
      if (!isDict(answer) || !('result' in answer))
        throw new ScoreError('The remote scorer answered no {schema_version, result}', false);
      return answer.result;
    } catch (err) {
      // Re-sent here as Weave does (turns only), then given up: the queue does not send again.
      if (!(err instanceof ScoreError)) throw err;
      if (!err.retryable || attempt >= tries) throw new ScoreError(err.message, false);
      await new Promise((res) => setTimeout(res, 500 * attempt));
    }
  }
}
