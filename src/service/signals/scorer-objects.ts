// The objects a score job names, read at the versions it names: the monitor's scorer (an
// LLMAsAJudgeScorer here; RemoteScorer next) and the LLMStructuredCompletionModel a judge
// calls (weave-objects.md §2, §3), with the SDK's bookkeeping keys stripped from nested values.
import type { ObjectStore } from '../../storage/objects/object-store.js';
import { stripBookkeeping } from '../objects/monitor-query.js';
import { parseSelector } from '../objects/object-names.js';
import { tryParseRef } from '../refs/refs.js';
import { ScoreError } from './score-error.js';

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface StoredScorer {
  /** The scorer's object id: `wandb.runnable.<name>` is the feedback it writes. */
  readonly name: string;
  readonly className: string | null;
  readonly val: Dict;
}

/** The object a ref names in the project, its value without bookkeeping keys; ScoreError when it cannot be read. */
export async function readRef(objects: ObjectStore, projectId: string, uri: string): Promise<StoredScorer> {
  const ref = tryParseRef(uri);
  if (ref === null || ref.kind !== 'object') throw new ScoreError(`Not an object ref: ${uri}`, false);
  if (ref.projectId !== projectId) throw new ScoreError(`${uri} is not of project ${projectId}`, false);
  const v = await objects.read(projectId, ref.name, parseSelector(ref.digest), {
    metadataOnly: false,
    includeLabels: false,
  });
  if (v === null || v.deleted_at !== null || v.val === null) throw new ScoreError(`${uri} not found`, false);
  const val = stripBookkeeping(JSON.parse(v.val));
  if (!isDict(val)) throw new ScoreError(`${uri} is not an object`, false);
  return { name: ref.name, className: v.leaf_object_class, val };
}

export interface JudgeModel {
  readonly llmModelId: string;
  readonly params: Dict;
}

/** A judge's model: its id and default_params, from an LLMStructuredCompletionModel ref or an inline value. */
export async function judgeModel(objects: ObjectStore, projectId: string, model: unknown): Promise<JudgeModel> {
  const val = typeof model === 'string' ? (await readRef(objects, projectId, model)).val : stripBookkeeping(model);
  if (!isDict(val) || typeof val.llm_model_id !== 'string' || val.llm_model_id === '')
    throw new ScoreError("The judge's model names no llm_model_id", false);
  return { llmModelId: val.llm_model_id, params: isDict(val.default_params) ? val.default_params : {} };
}
