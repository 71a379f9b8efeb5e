// Collects the ref strings inside a JSON value: they make a call's input_refs and
// output_refs, which CallsFilter.input_refs / output_refs match against.
const REF_PREFIXES = ['weave:///', 'weave-trace-internal:///', 'wandb-artifact:///'];

export function isRefString(v: unknown): v is string {
  return typeof v === 'string' && REF_PREFIXES.some((p) => v.startsWith(p));
}

/**
 * Whether JSON text may hold a ref: false only when it cannot. Every ref prefix ends in
 * ":///", which JSON text in its stored form writes as it is (JSON.stringify escapes no
 * slash), so one search for it rules most texts out.
 */
export function textMayHoldRefs(text: string): boolean {
  return text.includes(':///');
}

/** Every distinct ref string found anywhere in `value`, in first-seen order. */
export function extractRefs(value: unknown): string[] {
  const found = new Set<string>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (isRefString(v)) found.add(v);
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    else if (v !== null && typeof v === 'object') {
      const vals = Object.values(v as Record<string, unknown>);
      for (let i = vals.length - 1; i >= 0; i--) stack.push(vals[i]);
    }
  }
  return [...found];
}
