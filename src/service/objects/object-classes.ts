// What an object value is: its kind (op or object) and its Weave class names
// (weave-api.md §3.3; weave/shared/object_class_util.py, weave/shared/digest.py).
import { InvalidRequestError } from '../../api/errors.js';
import type { ObjectKind } from '../../storage/objects/object-store.js';
import { builtinObjectVal } from './builtin-objects.js';

export interface ObjectClasses {
  readonly base_object_class: string | null;
  readonly leaf_object_class: string | null;
}

const NO_CLASSES: ObjectClasses = { base_object_class: null, leaf_object_class: null };
const BASE_OBJECT_CLASS_NAMES = new Set(['BaseObject', 'Object']);

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The op/object kind. The type tag is `val.weave_type.type` when the dict carries both
 * `_type` and `weave_type` (custom types: the SDK saves ops as CustomWeaveType with
 * weave_type {type: "Op"}), else `val._type`; only the tag "Op" makes an op.
 */
export function objectKind(val: unknown): ObjectKind {
  if (!isDict(val) || !('_type' in val)) return 'object';
  const tag = 'weave_type' in val ? (isDict(val.weave_type) ? val.weave_type.type : undefined) : val._type;
  return tag === 'Op' ? 'op' : 'object';
}

/**
 * Class names of a weave.Object / BaseObject value: `_bases` ends with
 * [..., "Object"|"BaseObject", "BaseModel"]; the leaf class is `_class_name` and the base
 * class is the one just above Object (or the leaf itself when it derives from Object
 * directly). A value without a string `_class_name` has no classes (Python would fail
 * with a KeyError, a 500; we prefer to store it as a plain object).
 */
export function objectClasses(val: unknown): ObjectClasses {
  if (!isDict(val) || !Array.isArray(val._bases)) return NO_CLASSES;
  const bases = val._bases;
  if (bases.length < 2 || bases[bases.length - 1] !== 'BaseModel') return NO_CLASSES;
  if (!BASE_OBJECT_CLASS_NAMES.has(bases[bases.length - 2] as string)) return NO_CLASSES;
  const leaf = val._class_name;
  if (typeof leaf !== 'string') return NO_CLASSES;
  const above = bases.length > 2 ? bases[bases.length - 3] : leaf;
  return { base_object_class: typeof above === 'string' ? above : leaf, leaf_object_class: leaf };
}

/**
 * Applies the `builtin_object_class` request field: the value to store and its classes. A value
 * without its own class envelope is validated and normalized by the builtin class
 * (builtin-objects.ts: Provider, ProviderModel); for any other class it is accepted only
 * when it already declares exactly that class.
 */
export function resolveObjectClasses(
  val: unknown,
  builtinObjectClass: string | null,
): ObjectClasses & { readonly val: unknown } {
  if (builtinObjectClass === null) return { ...objectClasses(val), val };
  if (!isDict(val)) throw new InvalidRequestError('object_class cannot be provided for non-dict objects');
  const own = objectClasses(val);
  if (own.leaf_object_class === null) {
    const normalized = builtinObjectVal(builtinObjectClass, val);
    if (normalized === null) throw new InvalidRequestError(`Unknown object class: ${builtinObjectClass}`);
    return { base_object_class: builtinObjectClass, leaf_object_class: builtinObjectClass, val: normalized };
  }
  if (own.leaf_object_class !== builtinObjectClass) {
    throw new InvalidRequestError(
      `object_class must match val's defined object class: ${own.leaf_object_class} != ${builtinObjectClass}`,
    );
  }
  return { ...own, val };
}

/** Absolute, or still climbing above its root after normalization (`a/../b` is fine). */
function unsafeFileKey(key: string): boolean {
  if (key.startsWith('/')) return true;
  let depth = 0;
  for (const seg of key.split('/')) {
    if (seg === '..') {
      if (depth === 0) return true;
      depth--;
    } else if (seg !== '' && seg !== '.') {
      depth++;
    }
  }
  return false;
}

/**
 * Rejects CustomWeaveType `files` keys that are absolute or climb out with `..` (400, as
 * weave/shared/digest.py): file keys become paths when a client materializes the object.
 */
export function assertSafeFileKeys(val: unknown): void {
  const stack: unknown[] = [val];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      stack.push(...v);
    } else if (isDict(v)) {
      if (v._type === 'CustomWeaveType' && isDict(v.files)) {
        for (const key of Object.keys(v.files)) {
          if (unsafeFileKey(key)) throw new InvalidRequestError(`Invalid file path key: ${JSON.stringify(key)}`);
        }
      }
      stack.push(...Object.values(v));
    }
  }
}
