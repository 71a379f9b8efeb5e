// An LLMAsAJudgeScorer run as Weave's score() runs it (weave-objects.md §2.2, §3): the scoring
// prompt (a template string, or a MessagesPrompt ref) filled with the target's variables, after
// the model's messages_template; the model's default_params as the request's parameters; the
// model called through /completions/create's path (its call nested under the scorer's call,
// `source: "signals"`); the answer parsed as the response_format asks: a JSON object, or text.
import type { CompletionsCreateReq } from '../../api/completions.js';
import type { ObjectStore } from '../../storage/objects/object-store.js';
import type { Caller } from '../calls/calls-service.js';
import type { CompletionsService } from '../completions/completions-service.js';
import { CompletionSetupError } from '../completions/model-route.js';
import { fillTemplate } from '../completions/prompt-messages.js';
import { ScoreError } from './score-error.js';
import { judgeModel, readRef, type StoredScorer } from './scorer-objects.js';

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface JudgeDeps {
  readonly objects: ObjectStore;
  readonly completions: Pick<CompletionsService, 'complete'>;
}

export interface JudgeTarget {
  readonly projectId: string;
  /** The prompt's variables: `{output}`, `{inputs}` and each input for calls; the turn's for turns. */
  readonly vars: Readonly<Record<string, string>>;
  /** Where the judge's model call goes in the trace: under the scorer's call. */
  readonly traceId: string;
  readonly parentId: string;
  readonly caller: Caller;
}

function fill(text: string, vars: Readonly<Dict>): string {
  try {
    return fillTemplate(text, vars);
  } catch (err) {
    if (err instanceof CompletionSetupError) throw new ScoreError(`The scoring prompt: ${err.message}`, false);
    throw err;
  }
}

function fillMessages(messages: unknown, vars: Readonly<Dict>): Dict[] {
  if (!Array.isArray(messages)) return [];
  return messages.filter(isDict).map((m) => {
    const content = m.content;
    if (typeof content === 'string') return { role: m.role, content: fill(content, vars) };
    if (Array.isArray(content))
      return {
        role: m.role,
        content: content.map((p) => (isDict(p) && typeof p.text === 'string' ? { ...p, text: fill(p.text, vars) } : p)),
      };
    return { role: m.role, content };
  });
}

/** default_params as request parameters (weave-objects.md §3.1). */
function parameters(p: Dict): Dict {
  const out: Dict = {};
  for (const k of ['temperature', 'top_p', 'max_tokens', 'presence_penalty', 'frequency_penalty'])
    if (typeof p[k] === 'number') out[k] = p[k];
  for (const k of ['stop', 'functions']) if (Array.isArray(p[k]) && p[k].length > 0) out[k] = p[k];
  if (typeof p.n_times === 'number') out.n = p.n_times;
  return out;
}

/** The response_format of the judge's model: json_object (old UIs wrote "json") or text. */
function answerKind(p: Dict): 'json_object' | 'text' {
  const f = p.response_format;
  if (f === 'json_object' || f === 'json') return 'json_object';
  if (f === 'text') return 'text';
  throw new ScoreError(
    `The judge's response_format must be json_object or text, not ${JSON.stringify(f ?? null)}`,
    false,
  );
}

async function scoringMessages(deps: JudgeDeps, projectId: string, prompt: unknown, vars: Dict): Promise<Dict[]> {
  if (typeof prompt === 'string' && prompt.startsWith('weave:///')) {
    const stored = await readRef(deps.objects, projectId, prompt);
    return fillMessages(stored.val.messages, vars);
  }
  if (typeof prompt !== 'string') throw new ScoreError('The scorer has no scoring_prompt', false);
  return [{ role: 'user', content: fill(prompt, vars) }];
}

/** The judge's verdict: a JSON object, or text. Throws ScoreError. */
export async function runJudge(deps: JudgeDeps, scorer: StoredScorer, target: JudgeTarget): Promise<unknown> {
  const model = await judgeModel(deps.objects, target.projectId, scorer.val.model);
  const kind = answerKind(model.params);
  const template = fillMessages(model.params.messages_template, target.vars);
  const messages = [
    ...template,
    ...(await scoringMessages(deps, target.projectId, scorer.val.scoring_prompt, target.vars)),
  ];
  const req: CompletionsCreateReq = {
    project_id: target.projectId,
    inputs: {
      model: model.llmModelId,
      messages,
      ...parameters(model.params),
      response_format: { type: kind },
      ...(typeof model.params.prompt === 'string' ? { prompt: model.params.prompt, template_vars: target.vars } : {}),
    },
    track_llm_call: true,
    trace_id: target.traceId,
    parent_id: target.parentId,
    source: 'signals',
  };
  const { answer, retryable } = await deps.completions.complete(req, target.caller);
  const response = answer.response as Dict;
  if (typeof response.error === 'string') throw new ScoreError(response.error, retryable);
  const choice = Array.isArray(response.choices) && isDict(response.choices[0]) ? response.choices[0] : null;
  const content = isDict(choice?.message) ? choice.message.content : null;
  if (typeof content !== 'string') throw new ScoreError('The judge answered no text', true);
  if (kind === 'text') return content;
  try {
    const parsed = JSON.parse(content) as unknown;
    if (isDict(parsed)) return parsed;
  } catch {
    // below
  }
  throw new ScoreError(`The judge's answer is not a JSON object: ${content.slice(0, 200)}`, false);
}
