// Seeded objects with many versions, shaped like what the SDK publishes (captures 05-07):
// Model / Prompt / Config / Dataset objects with `_type`, `_class_name`, `_bases`, and ops
// as CustomWeaveType Op values. Version counts are skewed (most objects have a few
// versions, some have hundreds), every version's value differs, and versions of different
// objects are interleaved in creation order as they would be over a project's life.
import type { ObjCreateReq } from '../../src/api/objects.js';
import { fakeDigest, Rng } from './rng.js';
import { text, words } from './text.js';
import { opRef, PROJECT } from './gen-calls.js';

export interface ObjectsPlan {
  readonly seed: string;
  readonly objects: number;
  /** total versions over all objects (>= objects) */
  readonly versions: number;
}

type Kind = 'agent' | 'prompt' | 'config' | 'dataset' | 'op';
const KINDS: readonly [Kind, number][] = [
  ['agent', 0.35],
  ['prompt', 0.25],
  ['config', 0.15],
  ['dataset', 0.1],
  ['op', 0.15],
];

function kindOf(rng: Rng): Kind {
  let r = rng.float();
  for (const [k, p] of KINDS) if ((r -= p) < 0) return k;
  return 'op';
}

function value(rng: Rng, kind: Kind, name: string, version: number): unknown {
  const base = (type: string, bases: string[]) => ({
    _type: type,
    _class_name: type,
    _bases: [...bases, 'Object', 'BaseModel'],
    name,
  });
  switch (kind) {
    case 'agent':
      return {
        ...base('ChatAgent', ['Model']),
        description: text(rng, 120),
        model_name: rng.pick(['gpt-4o-mini', 'gpt-4o', 'claude-3-5-sonnet']),
        temperature: rng.int(0, 10) / 10,
        system_prompt: text(rng, 300),
        tools: ['search_web', 'calculator'].slice(0, rng.int(0, 2)),
        revision: version,
        predict: opRef('Model.predict'),
      };
    case 'prompt':
      return rng.chance(0.5)
        ? { ...base('StringPrompt', ['Prompt']), content: `${text(rng, 400)} {input} (rev ${version})` }
        : {
            ...base('MessagesPrompt', ['Prompt']),
            messages: [
              { role: 'system', content: text(rng, 300) },
              { role: 'user', content: `{question} rev ${version}` },
            ],
          };
    case 'config':
      return {
        ...base('Config', []),
        description: text(rng, 100),
        threshold: rng.int(0, 100) / 100,
        labels: words(rng, 4).split(' '),
        revision: version,
      };
    case 'dataset':
      return {
        ...base('Dataset', []),
        description: `${text(rng, 80)} (v${version})`,
        rows: `weave:///${PROJECT}/table/${rng.hex(64)}`,
      };
    case 'op':
      return {
        _type: 'CustomWeaveType',
        weave_type: { type: 'Op' },
        files: { 'obj.py': fakeDigest(rng) },
        load_op: 'NO_LOAD_OP',
      };
  }
}

/** obj/create requests for the plan, in creation order; object i is named `<kind>-<i>`. */
export function* generateObjectVersions(plan: ObjectsPlan): Generator<ObjCreateReq> {
  const rng = new Rng(`${plan.seed}:objects`);
  const kinds = Array.from({ length: plan.objects }, () => kindOf(rng));
  // Skewed version counts: one each, the rest spread by weight u^4 (a few objects get hundreds).
  const weights = kinds.map(() => rng.float() ** 4);
  const sum = weights.reduce((a, b) => a + b, 0);
  const extra = plan.versions - plan.objects;
  const counts = weights.map((w) => 1 + Math.floor((extra * w) / sum));
  for (let left = plan.versions - counts.reduce((a, b) => a + b, 0), i = 0; left > 0; left--, i++)
    counts[i % plan.objects]!++;
  // Creation order: every version is a slot, shuffled; an object's versions still come in order.
  const slots: number[] = [];
  counts.forEach((c, i) => {
    for (let k = 0; k < c; k++) slots.push(i);
  });
  rng.shuffle(slots);
  const next = new Array<number>(plan.objects).fill(0);
  for (const i of slots) {
    const kind = kinds[i]!;
    const objectId = `${kind}-${i}`;
    yield { obj: { project_id: PROJECT, object_id: objectId, val: value(rng, kind, objectId, next[i]!++) } };
  }
}
