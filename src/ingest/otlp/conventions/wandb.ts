// Weave's own span attributes (wandb.*), as its OTLP documentation names them:
// wandb.display_name, wandb.thread_id with wandb.is_turn (the span is a turn of that
// thread), wandb.attributes (merged into the call's attributes), wandb.wb_run_id and
// wandb.wb_run_step / wandb.wb_run_step_end.
import { isObj, numberOf, parseJson, stringOf, type SpanView } from '../span-view.js';

type Obj = Record<string, unknown>;

export interface WandbFields {
  readonly displayName?: string;
  readonly threadId?: string;
  readonly isTurn: boolean;
  readonly attributes?: Obj;
  readonly runId?: string;
  readonly runStep?: number;
  readonly runStepEnd?: number;
}

export function wandbFields(span: SpanView): WandbFields {
  if (!span.uses('wandb.')) return { isTurn: false };
  const attributes = parseJson(span.get('wandb.attributes'));
  const step = (key: string) => {
    const n = numberOf(span.flat[key]);
    return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
  };
  const turn = span.flat['wandb.is_turn'];
  return {
    displayName: stringOf(span.flat['wandb.display_name']),
    threadId: stringOf(span.flat['wandb.thread_id']),
    isTurn: turn === true || turn === 'true',
    attributes: isObj(attributes) ? attributes : undefined,
    runId: stringOf(span.flat['wandb.wb_run_id']),
    runStep: step('wandb.wb_run_step'),
    runStepEnd: step('wandb.wb_run_step_end'),
  };
}
