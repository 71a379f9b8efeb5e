// The call a tracked completion records (weave-objects.md §9.5): op `weave.completions_create`,
// the request's inputs as sent (prompt and template_vars included, never extra_headers or
// credentials, which may carry keys), the provider's answer as output, its usage under the
// model's key so the price catalogue costs it, and the error as the exception. Written through
// the calls service, so it takes the same lane, retention and user as any SDK call.
import type { CompletionsCreateReq } from '../../api/completions.js';
import { formatTimestamp, nowMicros } from '../../time.js';
import type { CallsService, Caller } from '../calls/calls-service.js';
import { uuidv7 } from '../json/ids.js';

export const COMPLETIONS_OP = 'weave.completions_create';

/** Inputs keys never stored: they may hold a key or credentials. */
const UNSTORED = new Set(['extra_headers', 'vertex_credentials', 'api_key']);

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface TrackedCall {
  readonly id: string;
  readonly traceId: string;
  /** Records the end: the provider's answer (or error) and its usage. */
  end(output: Dict, usageKey: string | null, error: string | null): Promise<void>;
}

/** Integer token counts only (the summary's usage schema); detail objects kept as they are. */
function usageOf(output: Dict): Dict | null {
  if (!isDict(output.usage)) return null;
  const usage: Dict = { requests: 1 };
  for (const [k, v] of Object.entries(output.usage))
    if ((typeof v === 'number' && Number.isSafeInteger(v)) || isDict(v)) usage[k] = v;
  return usage;
}

export async function startCompletionCall(
  calls: CallsService,
  req: CompletionsCreateReq,
  caller: Caller,
): Promise<TrackedCall> {
  const id = uuidv7();
  const traceId = req.trace_id ?? uuidv7();
  const inputs = Object.fromEntries(Object.entries(req.inputs).filter(([k]) => !UNSTORED.has(k)));
  const attributes: Dict = {};
  if (req.source) attributes.source = req.source;
  if (req.conversation_name) attributes.conversation_name = req.conversation_name;
  await calls.start(
    {
      start: {
        project_id: req.project_id,
        id,
        op_name: COMPLETIONS_OP,
        trace_id: traceId,
        parent_id: req.parent_id ?? null,
        thread_id: req.conversation_id ?? null,
        started_at: formatTimestamp(nowMicros()),
        attributes,
        inputs,
      },
    },
    caller,
  );
  return {
    id,
    traceId,
    async end(output, usageKey, error) {
      const usage = usageOf(output);
      await calls.end({
        end: {
          project_id: req.project_id,
          id,
          ended_at: formatTimestamp(nowMicros()),
          exception: error,
          output,
          summary: usage !== null && usageKey !== null ? { usage: { [usageKey]: usage } } : {},
        },
      });
    },
  };
}
