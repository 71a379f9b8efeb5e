// The object views' URL state: everything a link or a reload must restore. Invalid values
// are dropped, never an error. TanStack's default parser JSON-decodes values, so `?row=5`
// arrives as a number and `?q=123` as one too: both spellings are accepted.
import { GROUP_IDS, type ObjectGroup } from './objectKinds';

/** /objects: the name filter and the kind shown. */
export interface ObjectsSearch {
  /** Object name contains (case-insensitive). */
  q?: string;
  kind?: ObjectGroup;
}

export const VERSION_TABS = ['rows', 'code', 'value'] as const;
export type VersionTab = (typeof VERSION_TABS)[number];

/** /objects/{name}/versions/{digest}: the tab, and a dataset's selected row. */
export interface ObjectVersionSearch {
  /** The selected row's position in the dataset (0-based). */
  row?: number;
  /** Absent: the kind's default tab (rows for a dataset, code for an op, else value). */
  tab?: VersionTab;
}

/** /objects/{name}/diff: the two versions (digests, "v<N>" or aliases) and the view. */
export interface ObjectDiffSearch {
  a?: string;
  b?: string;
  /** 1: only the changed lines (written as `diffOnly=1`; `true` is read too). */
  diffOnly?: 1;
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

const truthy = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 'true';

export function parseObjectsSearch(raw: Record<string, unknown>): ObjectsSearch {
  const out: ObjectsSearch = {};
  const q = text(raw.q);
  if (q !== undefined) out.q = q;
  if (typeof raw.kind === 'string' && (GROUP_IDS as readonly string[]).includes(raw.kind))
    out.kind = raw.kind as ObjectGroup;
  return out;
}

export function parseObjectVersionSearch(raw: Record<string, unknown>): ObjectVersionSearch {
  const out: ObjectVersionSearch = {};
  const row = typeof raw.row === 'string' && /^\d+$/.test(raw.row) ? Number(raw.row) : raw.row;
  if (typeof row === 'number' && Number.isSafeInteger(row) && row >= 0) out.row = row;
  if (typeof raw.tab === 'string' && (VERSION_TABS as readonly string[]).includes(raw.tab))
    out.tab = raw.tab as VersionTab;
  return out;
}

export function parseObjectDiffSearch(raw: Record<string, unknown>): ObjectDiffSearch {
  const out: ObjectDiffSearch = {};
  const a = text(raw.a);
  const b = text(raw.b);
  if (a !== undefined) out.a = a;
  if (b !== undefined) out.b = b;
  if (truthy(raw.diffOnly)) out.diffOnly = 1;
  return out;
}
