// A Monitor's `query`, checked when the monitor is written, as Weave's server checks it
// (weave-objects.md §1.3): the SDK stores every operator node with bookkeeping keys (`_type`,
// `_class_name`, `_bases`), the UI without; stripped, a value that is a query is compiled
// against the fields of what the monitor scores: agent spans when one of its op_names is the
// finished-turn literal, else calls. An unknown field is a 422 naming it, a malformed
// expression a 400; a value that is no query at all is stored unchecked, as Weave does.
import { callsFieldCatalog } from '../../query/calls-fields.js';
import { compileQuery } from '../../query/compile-query.js';
import { spanFieldCatalog } from '../../query/span-fields.js';

/** The op_names entry that makes a monitor score finished agent turns. */
export const TURN_ENDED = 'weave.genai.turn_ended';
const MONITOR_CLASSES: ReadonlySet<string> = new Set(['Monitor', 'ClassifierMonitor']);
const BOOKKEEPING: ReadonlySet<string> = new Set(['_type', '_class_name', '_bases']);

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The value without Weave's serialization keys, at every depth. */
export function stripBookkeeping(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripBookkeeping);
  if (!isDict(v)) return v;
  return Object.fromEntries(
    Object.entries(v).flatMap(([k, x]) => (BOOKKEEPING.has(k) ? [] : [[k, stripBookkeeping(x)]])),
  );
}

export function isMonitorClass(classes: { base_object_class: string | null; leaf_object_class: string | null }) {
  return MONITOR_CLASSES.has(classes.base_object_class ?? '') || MONITOR_CLASSES.has(classes.leaf_object_class ?? '');
}

/** Throws InvalidFieldError (422) or InvalidRequestError (400) for a monitor whose query cannot run. */
export function checkMonitorQuery(val: unknown): void {
  if (!isDict(val) || val.query === null || val.query === undefined) return;
  const query = stripBookkeeping(val.query);
  if (!isDict(query) || Object.keys(query).length !== 1 || !isDict(query.$expr)) return;
  const agent = Array.isArray(val.op_names) && val.op_names.includes(TURN_ENDED);
  compileQuery({ $expr: query.$expr }, agent ? spanFieldCatalog : callsFieldCatalog);
}
