// A ClassifierMonitor's job (weave-objects.md §1.4): its LLMAsAJudgeScorers that call the same
// model (id and parameters) are asked in one judge call, each a classifier named after the scorer and defined by its
// scoring prompt; the prompt is Weft's fixed header (the turn, or the call), the definitions,
// and a footer asking for `{"classifiers": {<name>: {is_match, confidence, reason}}}` for every
// one. Each classifier's answer is its scorer's verdict: on a turn a tag of its name when it
// matches (none: no row); on a call `{is_match, confidence, reason}` as the output. Other
// scorers (remote ones) run alone, as in a plain Monitor.
import { createHash } from 'node:crypto';
import { runJudge } from './llm-judge.js';
import { ScoreError } from './score-error.js';
import { judgeModel, readRef, type StoredScorer } from './scorer-objects.js';
import { feedbackIdOf, inScorerCall, type JobContext, scoreWith, writeVerdict } from './score-job.js';

export const CLASSIFY_OP = 'ClassifierMonitor.score';

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Template text that shows `s` as it is (the prompt is filled as a template afterwards). */
const literal = (s: string) => s.replace(/\{/g, '{{').replace(/\}/g, '}}');

const TURN_HEADER = `Classify one turn of an AI agent's conversation.

<agent>{agent_name}</agent>
<system_instructions>
{system_instructions}
</system_instructions>
<input_messages>
{input_messages}
</input_messages>
<output_messages>
{output_messages}
</output_messages>`;

const CALL_HEADER = `Classify one call of an AI application.

<inputs>
{inputs}
</inputs>
<output>
{output}
</output>`;

const FOOTER = `Answer with a JSON object only, with an entry for every classifier above, named exactly as above:
{{"classifiers": {{"<classifier name>": {{"is_match": true or false, "confidence": <0 to 1>, "reason": "<one sentence>"}}}}}}
When several classifiers could match, prefer the most specific one.`;

interface Classifier {
  readonly ref: string;
  readonly scorer: StoredScorer;
  readonly name: string;
}

const nameOf = (s: StoredScorer) => (typeof s.val.name === 'string' && s.val.name !== '' ? s.val.name : s.name);

function classifyPrompt(turn: boolean, classifiers: readonly Classifier[]): string {
  const list = classifiers
    .map((c) => {
      const definition = typeof c.scorer.val.scoring_prompt === 'string' ? c.scorer.val.scoring_prompt : '';
      return `<classifier name="${literal(c.name)}">\n${literal(definition.trim())}\n</classifier>`;
    })
    .join('\n');
  return `${turn ? TURN_HEADER : CALL_HEADER}\n\nThe classifiers:\n${list}\n\n${FOOTER}`;
}

/** The judge's answer for one classifier, as `{is_match, confidence, reason}`. */
function answerOf(answer: unknown, name: string): { is_match: boolean; confidence?: number; reason?: string } {
  const all = isDict(answer) && isDict(answer.classifiers) ? answer.classifiers : null;
  const one = all?.[name];
  if (!isDict(one) || typeof one.is_match !== 'boolean')
    throw new ScoreError(`The judge gave no is_match for classifier ${JSON.stringify(name)}`, false);
  return {
    is_match: one.is_match,
    ...(typeof one.confidence === 'number' && one.confidence >= 0 && one.confidence <= 1
      ? { confidence: one.confidence }
      : {}),
    ...(typeof one.reason === 'string' ? { reason: one.reason } : {}),
  };
}

/** A feedback id of its own for each scorer of the job. */
const idFor = (jobKey: string, scorerRef: string) =>
  feedbackIdOf(createHash('sha256').update(`${jobKey}\u0000${scorerRef}`).digest('hex'));

async function classifyTogether(ctx: JobContext, group: readonly Classifier[]): Promise<void> {
  const turn = ctx.job.target_kind === 'agent_turn';
  const first = group[0]!;
  const merged: StoredScorer = {
    ...first.scorer,
    val: { ...first.scorer.val, scoring_prompt: classifyPrompt(turn, group) },
  };
  const { verdict: answer, call } = await inScorerCall(
    ctx,
    CLASSIFY_OP,
    { self: ctx.monitorRef, classifiers: group.map((c) => c.ref) },
    (c) =>
      runJudge(ctx.deps, merged, {
        projectId: ctx.job.project_id,
        vars: ctx.target.vars,
        traceId: c.traceId,
        parentId: c.id,
        caller: ctx.caller,
      }),
  );
  // Every answer is read before any row is written: a judge that skipped one fails the job whole.
  const verdicts = group.map((c) => {
    const a = answerOf(answer, c.name);
    const verdict = turn
      ? a.is_match
        ? { value: c.name, reason: a.reason ?? null, confidence: a.confidence ?? null }
        : { scores: [] }
      : a;
    return { c, verdict, typed: ctx.target.feedback(c.scorer.name, verdict) };
  });
  for (const { c, verdict, typed } of verdicts)
    await writeVerdict(ctx, typed, verdict, c.ref, call, idFor(ctx.job.key, c.ref));
}

export async function scoreClassifiers(ctx: JobContext, scorerRefs: readonly string[]): Promise<void> {
  const p = ctx.job.project_id;
  const byModel = new Map<string, Classifier[]>();
  const alone: string[] = [];
  for (const ref of scorerRefs) {
    const scorer = await readRef(ctx.deps.objects, p, ref);
    if (scorer.className !== 'LLMAsAJudgeScorer' || typeof scorer.val.scoring_prompt !== 'string') {
      alone.push(ref);
      continue;
    }
    // The same model: the same model id and parameters, whichever object holds them.
    const m = await judgeModel(ctx.deps.objects, p, scorer.val.model);
    const model = JSON.stringify([m.llmModelId, m.params]);
    (byModel.get(model) ?? byModel.set(model, []).get(model)!).push({ ref, scorer, name: nameOf(scorer) });
  }
  for (const group of byModel.values()) await classifyTogether(ctx, group);
  for (const ref of alone) await scoreWith(ctx, ref, idFor(ctx.job.key, ref));
}
