// One span, one finished call. Identity and times come from the span itself; content,
// usage and the model from the conventions, each field from the first convention that
// has it (conventions/*.ts, in CONVENTIONS order); the span is kept under
// attributes.otel_span. Weft writes the span name as op_name as it is (Weave
// also creates an op object per name and writes its ref; Weft does not).
import { createHash } from 'node:crypto';
import type { ForeignCall } from '../../service/calls/call-parts.js';
import { formatTimestamp } from '../../time.js';
import type { Attributes, OtlpSpan } from './otlp-spans.js';
import { nestAttributes, SpanView, type Convention, type Extracted, type TokenCounts } from './span-view.js';
import { vercelAi } from './conventions/vercel-ai.js';
import { openInference } from './conventions/openinference.js';
import { genAi } from './conventions/gen-ai.js';
import { frameworks } from './conventions/frameworks.js';
import { wandbFields } from './conventions/wandb.js';

type Obj = Record<string, unknown>;

/** Priority when two conventions describe one span (the Vercel AI SDK also writes gen_ai.*). */
const CONVENTIONS: readonly Convention[] = [vercelAi, openInference, genAi, frameworks];

const MAX_OP_NAME = 128;
const MAX_DISPLAY_NAME = 1024;
const KIND = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const STATUS = ['UNSET', 'OK', 'ERROR'];

/** A long name keeps its head and a short hash of the whole, so that long names stay apart. */
function shorten(name: string, max: number): string {
  if (name.length <= max) return name;
  const tag = createHash('sha256').update(name).digest('hex').slice(0, 4);
  return `${name.slice(0, max - 5)}:${tag}`;
}

function merged(span: SpanView): Extracted {
  const out: Record<string, unknown> = {};
  for (const c of CONVENTIONS) {
    const found = c.extract(span) as Record<string, unknown>;
    for (const [k, v] of Object.entries(found)) if (out[k] === undefined && v !== undefined) out[k] = v;
  }
  return out as Extracted;
}

/** Usage as the Weave SDKs record an OpenAI-style call, so include_costs prices it (llm-usage.ts). */
function usageEntry(t: TokenCounts): Obj | null {
  if (t.input === undefined && t.output === undefined && t.total === undefined) return null;
  const entry: Obj = { requests: 1 };
  if (t.input !== undefined) entry.prompt_tokens = t.input;
  if (t.output !== undefined) entry.completion_tokens = t.output;
  entry.total_tokens = t.total ?? (t.input ?? 0) + (t.output ?? 0);
  if (t.cacheRead !== undefined) entry.prompt_tokens_details = { cached_tokens: t.cacheRead };
  if (t.cacheWrite !== undefined) entry.cache_creation_input_tokens = t.cacheWrite;
  if (t.reasoning !== undefined) entry.completion_tokens_details = { reasoning_tokens: t.reasoning };
  return entry;
}

/** The exception of a failed span: its exception event's type and message, else the status message. */
function exceptionOf(span: OtlpSpan): string | null {
  const event = span.events.find((e) => e.name === 'exception');
  const fromEvent = event
    ? [event.attributes['exception.type'], event.attributes['exception.message']]
        .filter((v) => typeof v === 'string' && v !== '')
        .join(': ')
    : '';
  if (span.status.code === 2) return fromEvent || span.status.message || 'error';
  // An exception recorded on a span whose status nobody set still failed it; OK overrides.
  if (span.status.code === 0 && fromEvent) return fromEvent;
  return null;
}

const matches = (key: string, from: readonly string[]) =>
  from.some((f) => (f.endsWith('.*') ? key.startsWith(f.slice(0, -1)) : key === f));

/**
 * The span's attributes with those that became the call's inputs or output replaced by a
 * note saying so: every key is kept, and no value is stored twice (a span's content is
 * most of its bytes).
 */
function keptAttributes(flat: Attributes, inputs: readonly string[], output: readonly string[]): Attributes {
  if (inputs.length === 0 && output.length === 0) return flat;
  const out: Attributes = {};
  for (const [k, v] of Object.entries(flat))
    out[k] = matches(k, inputs) ? IN_INPUTS : matches(k, output) ? IN_OUTPUT : v;
  return out;
}

export const IN_INPUTS = "[in the call's inputs]";
export const IN_OUTPUT = "[in the call's output]";

/**
 * The span as received, nested at its dots, kept with the call. Its name, ids and times are
 * the call's own columns and are not repeated (the name is, when op_name had to shorten it;
 * the end time is, when it was before the start); empty parts are left out.
 */
function dump(span: OtlpSpan, resource: Attributes, attributes: Attributes, opName: string): Obj {
  const out: Obj = {
    kind: KIND[span.kind] ?? span.kind,
    status: { code: STATUS[span.status.code] ?? span.status.code },
  };
  if (span.status.message !== '') (out.status as Obj).message = span.status.message;
  if (span.name !== opName) out.name = span.name;
  if (span.traceState !== '') out.trace_state = span.traceState;
  if (span.endUs < span.startUs) out.end_time = formatTimestamp(span.endUs);
  out.attributes = nestAttributes(attributes);
  if (span.events.length > 0)
    out.events = span.events.map((e) => ({
      name: e.name,
      timestamp: formatTimestamp(e.timeUs),
      attributes: nestAttributes(e.attributes),
    }));
  if (span.links.length > 0)
    out.links = span.links.map((l) => ({
      trace_id: l.traceId,
      span_id: l.spanId,
      attributes: nestAttributes(l.attributes),
    }));
  if (Object.keys(resource).length > 0) out.resource = { attributes: nestAttributes(resource) };
  if (span.scope.name !== '' || span.scope.version !== '')
    out.scope = span.scope.version === '' ? { name: span.scope.name } : span.scope;
  return out;
}

export function spanToCall(span: OtlpSpan, resource: Attributes, projectId: string): ForeignCall {
  const view = new SpanView(span);
  const found = merged(view);
  const wandb = wandbFields(view);
  const attributes: Obj = {};
  for (const key of ['model', 'provider', 'kind', 'operation'] as const)
    if (found[key] !== undefined) attributes[key] = found[key];
  if (found.parameters !== undefined) attributes.model_parameters = found.parameters;
  if (wandb.attributes) Object.assign(attributes, wandb.attributes);
  const opName = shorten(span.name || `span ${KIND[span.kind]?.toLowerCase() ?? span.kind}`, MAX_OP_NAME);
  attributes.otel_span = dump(
    span,
    resource,
    keptAttributes(span.attributes, found.inputs?.from ?? [], found.output?.from ?? []),
    opName,
  );
  const usage = found.usage ? usageEntry(found.usage) : null;
  const threadId = wandb.threadId ?? found.threadId ?? null;
  const runId = wandb.runId && !/[/:]/.test(wandb.runId) ? `${projectId}:${wandb.runId}` : (wandb.runId ?? null);
  return {
    project_id: projectId,
    id: span.spanId,
    trace_id: span.traceId,
    parent_id: span.parentSpanId,
    op_name: opName,
    display_name: wandb.displayName ? shorten(wandb.displayName, MAX_DISPLAY_NAME) : null,
    thread_id: threadId,
    turn_id: threadId !== null && wandb.isTurn ? span.spanId : null,
    started_at: span.startUs,
    // No end time (0), or one before the start: the call ends as it starts.
    ended_at: Math.max(span.endUs, span.startUs),
    attributes,
    inputs: found.inputs?.value ?? {},
    output: found.output === undefined ? null : found.output.value,
    exception: exceptionOf(span),
    summary: usage === null ? {} : { usage: { [found.model ?? 'usage']: usage } },
    wb_run_id: runId,
    wb_run_step: wandb.runStep ?? null,
    wb_run_step_end: wandb.runStepEnd ?? null,
  };
}
