// Which agent each span of a trace belongs to: the agent of its nearest invoke_agent
// ancestor-or-self (Weave's rollup counts only spans that carry the agent name, and so misses
// the model calls an agent makes). Engine-neutral: each engine gives it every span of the
// traces a write touches (stored and new) and stores what changed.

export interface OwnerInput {
  readonly span_id: string;
  readonly parent_span_id: string | null;
  readonly operation_name: string | null;
  readonly agent_name: string | null;
  readonly agent_version: string | null;
}

export interface Owner {
  readonly name: string | null;
  readonly version: string | null;
}

const NONE: Owner = { name: null, version: null };
/** Deeper than this the walk stops (a cycle of parent ids sent by a broken exporter ends there too). */
const MAX_DEPTH = 200;

/** The owner of every span, by span id. */
export function spanOwners(spans: readonly OwnerInput[]): Map<string, Owner> {
  const byId = new Map(spans.map((s) => [s.span_id, s]));
  const out = new Map<string, Owner>();
  const ownerOf = (s: OwnerInput, depth: number): Owner => {
    const known = out.get(s.span_id);
    if (known !== undefined) return known;
    let owner: Owner;
    if (s.operation_name === 'invoke_agent' && s.agent_name !== null)
      owner = { name: s.agent_name, version: s.agent_version };
    else {
      const parent = s.parent_span_id === null ? undefined : byId.get(s.parent_span_id);
      owner = parent === undefined || depth >= MAX_DEPTH ? NONE : ownerOf(parent, depth + 1);
    }
    out.set(s.span_id, owner);
    return owner;
  };
  for (const s of spans) ownerOf(s, 0);
  return out;
}
