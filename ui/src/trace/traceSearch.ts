// The trace view's state in the URL: the selected call, the detail tab, tree or timeline,
// the depth the tree opens to, a name search and the errors-only filter.
export const TABS = ['io', 'feedback', 'code', 'attributes', 'summary', 'raw'] as const;
export type Tab = (typeof TABS)[number];

export interface TraceSearch {
  call?: string;
  tab?: Tab;
  view?: 'timeline';
  depth?: number;
  /** Op or display name search (a case-insensitive regular expression): others are dimmed. */
  q?: string;
  /** 1: only the calls that failed, and their ancestors. */
  errors?: 1;
  /** The timeline's window, as `<from>-<to>` in ms from the trace's start. */
  zoom?: string;
}

/** The zoom param as [from, to] ms, or null when absent or malformed. */
export function zoomOf(zoom: string | undefined): [number, number] | null {
  const m = zoom === undefined ? null : /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(zoom);
  if (!m) return null;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return b > a ? [a, b] : null;
}

export function parseTraceSearch(raw: Record<string, unknown>): TraceSearch {
  const out: TraceSearch = {};
  if (typeof raw.call === 'string' && raw.call !== '') out.call = raw.call;
  if (typeof raw.tab === 'string' && (TABS as readonly string[]).includes(raw.tab) && raw.tab !== 'io')
    out.tab = raw.tab as Tab;
  if (raw.view === 'timeline') out.view = 'timeline';
  const depth = Number(raw.depth);
  if (raw.depth !== undefined && Number.isInteger(depth) && depth >= 1 && depth <= 50) out.depth = depth;
  if (typeof raw.q === 'string' && raw.q !== '') out.q = raw.q;
  if (raw.errors === 1 || raw.errors === '1') out.errors = 1;
  if (typeof raw.zoom === 'string' && zoomOf(raw.zoom) !== null) out.zoom = raw.zoom;
  return out;
}

/** The search as a test on a row's names; an invalid expression is matched as plain text. */
export function nameMatcher(q: string | undefined): ((name: string) => boolean) | null {
  if (!q) return null;
  try {
    const re = new RegExp(q, 'i');
    return (name) => re.test(name);
  } catch {
    const lower = q.toLowerCase();
    return (name) => name.toLowerCase().includes(lower);
  }
}
