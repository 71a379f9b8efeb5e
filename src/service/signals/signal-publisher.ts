// `/signals/publish`: a monitor and its scorer written as the Weave SDK writes them, so that
// Weave's clients read them as theirs: an LLMStructuredCompletionModel `<name>-model` and an
// LLMAsAJudgeScorer `<name>-scorer` (or a RemoteScorer `<name>-scorer`), then the Monitor
// `<name>`. Publishing a name again adds versions where something changed (objects are
// content-addressed), which is how a monitor is edited or switched on and off.
import { InvalidFieldError } from '../../api/errors.js';
import type { SignalScorer, SignalsPublishReq, SignalsPublishRes } from '../../api/signals.js';
import type { ObjectStore } from '../../storage/objects/object-store.js';
import { checkMonitorQuery, TURN_ENDED } from '../objects/monitor-query.js';
import { createObject } from '../objects/object-service.js';
import { tryParseRef } from '../refs/refs.js';
import { customTagsPrompt, presetOf } from './signal-presets.js';

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);
const bases = (...b: string[]) => [...b, 'Object', 'BaseModel'];
const JUDGE_SYSTEM = 'You are a careful reviewer of AI agents. You answer with JSON only.';

/** The judge prompt a scorer spec asks for (null: a remote scorer). */
function promptOf(s: SignalScorer): string | null {
  switch (s.type) {
    case 'preset': {
      const preset = presetOf(s.preset);
      if (preset === undefined)
        throw new InvalidFieldError(`Unknown preset: ${s.preset}`, ['body', 'scorer', 'preset']);
      return preset.scoring_prompt;
    }
    case 'custom_tags':
      return customTagsPrompt(s.tags, s.include_tool_calls ?? false);
    case 'judge':
      return s.scoring_prompt;
    case 'remote':
      return null;
  }
}

/** Call monitors' op names as op refs of any version; refs of this project as they are. */
function opRefs(projectId: string, names: readonly string[]): string[] {
  if (names.length === 0) throw new InvalidFieldError('A call monitor names at least one op', ['body', 'op_names']);
  return names.map((n, i) => {
    if (n.startsWith('weave:')) {
      const ref = tryParseRef(n);
      if (ref === null || ref.kind !== 'op' || ref.projectId !== projectId)
        throw new InvalidFieldError(`Not an op ref of ${projectId}: ${n}`, ['body', 'op_names', i]);
      return n;
    }
    if (n.includes('/')) throw new InvalidFieldError(`An op name has no '/': ${n}`, ['body', 'op_names', i]);
    return `weave:///${projectId}/op/${n}:*`;
  });
}

export async function publishSignal(
  objects: ObjectStore,
  req: SignalsPublishReq,
  userId: string,
): Promise<SignalsPublishRes> {
  const p = req.project_id;
  const opNames = req.target === 'agent_turn' ? [TURN_ENDED] : opRefs(p, req.op_names ?? []);
  // Everything is checked before the first object is written.
  const query = req.query ?? null;
  if (query !== null && (Object.keys(query).length !== 1 || !isDict(query.$expr)))
    throw new InvalidFieldError('A query is {"$expr": {...}}', ['body', 'query']);
  checkMonitorQuery({ op_names: opNames, query });
  const prompt = promptOf(req.scorer);
  const write = async (objectId: string, val: Dict, cls?: string) => {
    const { digest } = await createObject(
      objects,
      { obj: { project_id: p, object_id: objectId, val, ...(cls ? { builtin_object_class: cls } : {}) } },
      userId,
    );
    return `weave:///${p}/object/${objectId}:${digest}`;
  };
  const scorerId = `${req.name}-scorer`;
  let scorerRef: string;
  if (req.scorer.type === 'remote') {
    const secret = req.scorer.secret_name ?? null;
    scorerRef = await write(scorerId, {
      _type: 'RemoteScorer',
      name: req.name,
      description: req.description ?? null,
      column_map: null,
      endpoint_url: req.scorer.url,
      config: null,
      auth_config: secret === null ? null : { mode: 'static_bearer', bearer_secret_name: secret },
      _class_name: 'RemoteScorer',
      _bases: bases('Scorer'),
    });
  } else {
    const modelId = `${req.name}-model`;
    const model = await write(modelId, {
      _type: 'LLMStructuredCompletionModel',
      name: modelId,
      description: null,
      llm_model_id: req.scorer.model,
      default_params: {
        _type: 'LLMStructuredCompletionModelDefaultParams',
        messages_template: [
          { _type: 'Message', role: 'system', content: JUDGE_SYSTEM, _class_name: 'Message', _bases: ['BaseModel'] },
        ],
        temperature: 0,
        response_format: 'json_object',
        _class_name: 'LLMStructuredCompletionModelDefaultParams',
        _bases: ['BaseModel'],
      },
      _class_name: 'LLMStructuredCompletionModel',
      _bases: bases('Model'),
    });
    scorerRef = await write(scorerId, {
      _type: 'LLMAsAJudgeScorer',
      name: req.name,
      description: req.description ?? null,
      column_map: null,
      model,
      scoring_prompt: prompt,
      _class_name: 'LLMAsAJudgeScorer',
      _bases: bases('Scorer'),
    });
  }
  const monitorRef = await write(req.name, {
    _type: 'Monitor',
    name: req.name,
    description: req.description ?? null,
    sampling_rate: req.sampling_rate ?? 1,
    scorers: [scorerRef],
    op_names: opNames,
    query,
    is_traced: true,
    active: req.active ?? true,
    _class_name: 'Monitor',
    _bases: bases(),
  });
  return { monitor_ref: monitorRef, scorer_ref: scorerRef };
}
