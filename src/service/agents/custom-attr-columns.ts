// Weave's custom_attr_columns of an ungrouped /agents/spans/query: the custom attribute keys to
// project. Asked for, each custom_attrs_* map of a span holds only its requested keys (a map
// none is requested of comes back empty), as Weave projects them; not asked for, Weft returns
// the maps whole (Weave returns them empty: docs/agents.md).
import type { Static } from 'typebox';
import type { AgentSpanValueRef } from '../../api/agent-span-values.js';
import { CUSTOM_ATTR_SOURCES } from '../../api/agent-span-values.js';
import { InvalidRequestError } from '../../api/errors.js';

type Ref = Static<typeof AgentSpanValueRef>;

/** The requested keys by map, null when none are requested. */
export function customAttrColumns(refs: readonly Ref[]): Map<string, Set<string>> | null {
  if (refs.length === 0) return null;
  const keys = new Map<string, Set<string>>();
  for (const r of refs) {
    const source = r.source ?? 'field';
    if (!(CUSTOM_ATTR_SOURCES as readonly string[]).includes(source))
      throw new InvalidRequestError('custom_attr_columns must reference custom attr sources');
    keys.set(source, (keys.get(source) ?? new Set()).add(r.key));
  }
  return keys;
}

/** The entries of `map` whose keys are in `keys` (none without keys). */
export function pick(map: Record<string, unknown>, keys: ReadonlySet<string> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(map).filter(([k]) => keys?.has(k) === true));
}
