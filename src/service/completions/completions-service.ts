// /completions/create and /completions/create_stream as Weave answers them (weave-objects.md
// §9): the model resolved to a provider (model-route.ts), the messages to send (prompt-messages.ts),
// the entity's secret as the key, one request through the safe fetch (src/outbound/) with the
// `openai` client, and the call recorded (completion-call.ts). Whatever stops the model from
// answering — an unknown model, a missing secret, a refused host, the provider's own error — is
// Weave's 200 with `response.error` (and for a stream one `{"error"}` line), never a 5xx.
import { Readable } from 'node:stream';
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type { CompletionsCreateReq } from '../../api/completions.js';
import { OutboundError, OutboundTimeoutError } from '../../outbound/outbound-error.js';
import type { SafeFetch } from '../../outbound/safe-fetch.js';
import type { ObjectStore } from '../../storage/objects/object-store.js';
import type { Caller, CallsService } from '../calls/calls-service.js';
import type { SecretsService } from '../secrets/secret-service.js';
import { abortableReadable } from './abortable-readable.js';
import { ChunkAggregate } from './chunk-aggregate.js';
import { startCompletionCall, type TrackedCall } from './completion-call.js';
import { listModels } from './completion-models.js';
import { CompletionSetupError, type ModelRoute, resolveModel } from './model-route.js';
import { resolveMessages } from './prompt-messages.js';
import { requestBody } from './request-body.js';

export interface CompletionsDeps {
  readonly objects: ObjectStore;
  readonly secrets: SecretsService;
  readonly calls: CallsService;
  readonly fetch: SafeFetch;
  /** Where WEFT_PROVIDER_<NAME>_BASE_URL is read. */
  readonly env: NodeJS.ProcessEnv;
}

type Dict = Record<string, unknown>;
const CLIENT_LEFT = 'The client closed the stream';

/** The answer's `response` for a failure: its message, and the provider's status when it sent one. */
export function failure(err: unknown): Dict {
  if (err instanceof CompletionSetupError) return { error: err.message };
  if (err instanceof APIConnectionTimeoutError) return { error: 'The provider did not answer in time' };
  if (err instanceof APIConnectionError) {
    // The outbound layer's refusals and limits come as the cause; their messages are for users.
    const cause = err.cause instanceof Error ? err.cause.message : err.message;
    return { error: `Could not reach the provider: ${cause}` };
  }
  if (err instanceof APIError) {
    const body = err.error as { message?: unknown } | undefined;
    const message = typeof body?.message === 'string' ? body.message : err.message;
    return err.status === undefined ? { error: message } : { error: message, status_code: err.status };
  }
  return { error: err instanceof Error ? err.message : String(err) };
}

/**
 * Whether the same request may pass later (the signals worker retries it): a timeout, a
 * connection that failed (not one the outbound rules refused), the provider's 408, 429 or 5xx.
 */
function retryable(err: unknown): boolean {
  if (err instanceof APIConnectionTimeoutError) return true;
  if (err instanceof APIConnectionError)
    return !(err.cause instanceof OutboundError) || err.cause instanceof OutboundTimeoutError;
  if (err instanceof APIError && err.status !== undefined)
    return err.status === 408 || err.status === 429 || err.status >= 500;
  return false;
}

export const describeFailure = (err: unknown) => ({ response: failure(err), retryable: retryable(err) });

interface Prepared {
  readonly route: ModelRoute;
  readonly client: OpenAI;
  readonly body: Dict;
}

export function createCompletionsService(deps: CompletionsDeps) {
  const entityOf = (projectId: string) => projectId.slice(0, projectId.indexOf('/'));

  async function prepare(req: CompletionsCreateReq, stream: boolean): Promise<Prepared> {
    const route = await resolveModel(deps.objects, req.project_id, req.inputs.model, deps.env);
    const messages = await resolveMessages(deps.objects, req.project_id, req.inputs);
    const entity = entityOf(req.project_id);
    const apiKey = await deps.secrets.value(entity, route.secretName);
    if (apiKey === null)
      throw new CompletionSetupError(
        `No API key ${route.secretName} found for model ${req.inputs.model}: an admin of ${entity} sets it ` +
          `(weft secrets set --entity ${entity} ${route.secretName}), or the server's WEFT_SECRET_${route.secretName}`,
      );
    const timeout = req.inputs.timeout;
    const client = new OpenAI({
      apiKey,
      baseURL: route.baseUrl,
      fetch: deps.fetch,
      maxRetries: 0,
      defaultHeaders: route.extraHeaders,
      ...(typeof timeout === 'number' ? { timeout: Math.ceil(timeout * 1000) } : {}),
    });
    return { route, client, body: requestBody(req.inputs, route.model, messages, stream) };
  }

  async function track(req: CompletionsCreateReq, caller: Caller): Promise<TrackedCall | null> {
    return req.track_llm_call === false ? null : startCompletionCall(deps.calls, req, caller);
  }

  const answer = (req: CompletionsCreateReq, response: Dict, call: TrackedCall | null) => ({
    response,
    weave_call_id: call?.id ?? null,
    span_id: null,
    trace_id: call?.traceId ?? null,
    conversation_id: req.conversation_id ?? null,
  });

  /** The answer, and for a failure whether it may pass on a later try. */
  async function complete(req: CompletionsCreateReq, caller: Caller) {
    let prepared: Prepared;
    try {
      prepared = await prepare(req, false);
    } catch (err) {
      const f = describeFailure(err);
      return { answer: answer(req, f.response, null), retryable: f.retryable };
    }
    const call = await track(req, caller);
    let response: Dict;
    let error: string | null = null;
    let retryable = false;
    try {
      response = (await prepared.client.chat.completions.create(prepared.body as never)) as unknown as Dict;
    } catch (err) {
      ({ response, retryable } = describeFailure(err));
      error = String(response.error);
    }
    await call?.end(response, prepared.route.usageKey, error);
    return { answer: answer(req, response, call), retryable };
  }

  return {
    complete,

    async create(req: CompletionsCreateReq, caller: Caller) {
      return (await complete(req, caller)).answer;
    },

    /** JSON Lines: `{_meta}` when tracked, then the provider's chunks, or one `{error}` line. */
    async createStream(req: CompletionsCreateReq, caller: Caller): Promise<Readable> {
      const line = (v: unknown) => `${JSON.stringify(v)}\n`;
      let prepared: Prepared;
      try {
        prepared = await prepare(req, true);
      } catch (err) {
        return Readable.from([line(failure(err))]);
      }
      const call = await track(req, caller);
      // The client going away stops the provider's stream too.
      const abort = new AbortController();
      async function* lines() {
        if (call !== null) yield line({ _meta: { weave_call_id: call.id, trace_id: call.traceId } });
        const sum = new ChunkAggregate();
        let error: string | null = null;
        try {
          const chunks = await prepared.client.chat.completions.create(prepared.body as never, {
            signal: abort.signal,
          });
          for await (const chunk of chunks as unknown as AsyncIterable<Dict>) {
            sum.add(chunk);
            yield line(chunk);
          }
        } catch (err) {
          const f = abort.signal.aborted ? { error: CLIENT_LEFT } : failure(err);
          error = String(f.error);
          if (!abort.signal.aborted) yield line(f);
        } finally {
          // Runs on the stream's end, its failure and the client's leaving alike (which may
          // come while the generator waits at a yield, past the catch).
          if (error === null && abort.signal.aborted) error = CLIENT_LEFT;
          const output = error === null ? sum.completion() : { ...sum.completion(), error };
          await call?.end(output, prepared.route.usageKey, error);
        }
      }
      return abortableReadable(lines(), abort);
    },

    models: (projectId: string) => listModels(deps, projectId),
  };
}

export type CompletionsService = ReturnType<typeof createCompletionsService>;
