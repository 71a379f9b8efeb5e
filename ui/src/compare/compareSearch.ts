// The call comparison's URL state: the calls (in order), which one is on the right (the
// first is the left), and whether unchanged lines fold away.
export interface CompareSearch {
  ids?: string[];
  right?: string;
  diffOnly?: 1;
}

export function parseCompareSearch(raw: Record<string, unknown>): CompareSearch {
  const out: CompareSearch = {};
  if (Array.isArray(raw.ids)) {
    const ids = [...new Set(raw.ids.filter((x): x is string => typeof x === 'string' && x !== ''))];
    if (ids.length > 0) out.ids = ids;
  }
  if (typeof raw.right === 'string' && out.ids?.includes(raw.right)) out.right = raw.right;
  if (raw.diffOnly === 1 || raw.diffOnly === true || raw.diffOnly === '1') out.diffOnly = 1;
  return out;
}
