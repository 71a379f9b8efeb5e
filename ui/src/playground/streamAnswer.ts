// One model's answer as /completions/create_stream sends it, line by line: a {_meta} line
// (the tracked call), then OpenAI chat.completion.chunk objects (the first choice's text and
// tool-call deltas, the last chunk's usage), or one {error} line. Pure: the page folds each
// line into the answer shown.
import { type Dict, isDict, int, str } from './looseValues.js';

export interface AnswerToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface StreamAnswer {
  callId: string | null;
  traceId: string | null;
  text: string;
  toolCalls: AnswerToolCall[];
  finishReason: string | null;
  usage: { prompt_tokens: number | null; completion_tokens: number | null } | null;
  error: string | null;
}

export const EMPTY_ANSWER: StreamAnswer = {
  callId: null,
  traceId: null,
  text: '',
  toolCalls: [],
  finishReason: null,
  usage: null,
  error: null,
};

function errorText(e: unknown): string {
  if (typeof e === 'string') return e;
  if (isDict(e) && typeof e.message === 'string') return e.message;
  return JSON.stringify(e);
}

function mergeToolCalls(calls: AnswerToolCall[], deltas: unknown[]): AnswerToolCall[] {
  const out = [...calls];
  deltas.filter(isDict).forEach((d, i) => {
    const at = int(d.index) ?? i;
    const fn = isDict(d.function) ? d.function : {};
    const was = out[at] ?? { id: '', name: '', arguments: '' };
    out[at] = {
      id: str(d.id) ?? was.id,
      name: was.name + (str(fn.name) ?? ''),
      arguments: was.arguments + (str(fn.arguments) ?? ''),
    };
  });
  return out;
}

/** Whether a line carries the answer's first output (text or a tool call), for the time to first token. */
export function hasOutput(line: Dict): boolean {
  if (!Array.isArray(line.choices)) return false;
  return line.choices.some(
    (c) =>
      isDict(c) &&
      isDict(c.delta) &&
      ((typeof c.delta.content === 'string' && c.delta.content !== '') || Array.isArray(c.delta.tool_calls)),
  );
}

export function applyLine(a: StreamAnswer, line: Dict): StreamAnswer {
  if (isDict(line._meta))
    return { ...a, callId: str(line._meta.weave_call_id) ?? a.callId, traceId: str(line._meta.trace_id) ?? a.traceId };
  if ('error' in line && line.error !== null && line.error !== undefined) return { ...a, error: errorText(line.error) };
  let next = a;
  const choice = Array.isArray(line.choices)
    ? line.choices.find((c) => isDict(c) && (int(c.index) ?? 0) === 0)
    : undefined;
  if (isDict(choice)) {
    const delta = isDict(choice.delta) ? choice.delta : {};
    if (typeof delta.content === 'string') next = { ...next, text: next.text + delta.content };
    if (Array.isArray(delta.tool_calls))
      next = { ...next, toolCalls: mergeToolCalls(next.toolCalls, delta.tool_calls) };
    if (typeof choice.finish_reason === 'string') next = { ...next, finishReason: choice.finish_reason };
  }
  if (isDict(line.usage))
    next = {
      ...next,
      usage: { prompt_tokens: int(line.usage.prompt_tokens), completion_tokens: int(line.usage.completion_tokens) },
    };
  return next;
}
