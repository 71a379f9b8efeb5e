// What kind of thing an object is, for grouping and for choosing its view: ops by the
// server's `kind`, the rest by their Weave class (base_object_class, else the leaf class).
import type { Obj } from '../api/types';
import { isDict } from '../isDict';

export const GROUPS = [
  ['ops', 'Ops'],
  ['datasets', 'Datasets'],
  ['models', 'Models'],
  ['evaluations', 'Evaluations'],
  ['prompts', 'Prompts'],
  ['scorers', 'Scorers'],
  ['other', 'Other'],
] as const;
export type ObjectGroup = (typeof GROUPS)[number][0];
export const GROUP_IDS: readonly ObjectGroup[] = GROUPS.map(([id]) => id);
export const GROUP_LABELS = Object.fromEntries(GROUPS) as Record<ObjectGroup, string>;

/** Weave class names (as the Python and TypeScript SDKs write them) per group. */
const CLASS_GROUPS: Record<string, ObjectGroup> = {
  Dataset: 'datasets',
  Model: 'models',
  LLMStructuredCompletionModel: 'models',
  Evaluation: 'evaluations',
  Prompt: 'prompts',
  StringPrompt: 'prompts',
  MessagesPrompt: 'prompts',
  EasyPrompt: 'prompts',
  Scorer: 'scorers',
};

export type ObjHead = Pick<Obj, 'kind' | 'base_object_class' | 'leaf_object_class'>;

export function groupOf(o: ObjHead): ObjectGroup {
  if (o.kind === 'op') return 'ops';
  for (const c of [o.base_object_class, o.leaf_object_class]) {
    if (c !== null && c in CLASS_GROUPS) return CLASS_GROUPS[c]!;
  }
  return 'other';
}

/** The class to show beside a name: the leaf class when it says more than the group. */
export function classLabel(o: ObjHead): string {
  if (o.kind === 'op') return 'Op';
  return o.leaf_object_class ?? o.base_object_class ?? 'Object';
}

/** The digest of a Dataset's rows table, from its `rows` ref (weave:///e/p/table/<digest>). */
export function tableDigestOf(val: unknown): string | null {
  if (!isDict(val) || typeof val.rows !== 'string') return null;
  const m = /^weave:\/\/\/[^/]+\/[^/]+\/table\/([^/:]+)$/.exec(val.rows);
  return m ? m[1]! : null;
}

/**
 * The source file of an op. Both SDKs save an op as a CustomWeaveType whose `files` map
 * names the code file ("obj.py", even when the TypeScript SDK stores JavaScript) by digest.
 */
export function opSourceOf(val: unknown): { name: string; digest: string } | null {
  if (!isDict(val) || !isDict(val.files)) return null;
  const entries = Object.entries(val.files).filter((e): e is [string, string] => typeof e[1] === 'string');
  const pick = entries.find(([name]) => name === 'obj.py') ?? entries[0];
  return pick ? { name: pick[0], digest: pick[1] } : null;
}

/** Weave's bookkeeping keys of an object value, shown in the header instead of the body. */
const CLASS_KEYS = new Set(['_type', '_class_name', '_bases']);

export function withoutClassKeys(val: unknown): unknown {
  if (!isDict(val)) return val;
  return Object.fromEntries(Object.entries(val).filter(([k]) => !CLASS_KEYS.has(k)));
}

/** A short digest for tables and headers; the full one stays in titles and URLs. */
export const shortDigest = (d: string) => (d.length > 12 ? d.slice(0, 8) : d);
