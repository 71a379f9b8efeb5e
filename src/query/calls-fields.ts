// The fields of calls a query may name in $getField and sort_by (weave-api.md §3.6.3),
// resolved to plan FieldRefs. This is the allow-list: anything not recognised here is
// an InvalidFieldError (422), so engines only ever print fields they know.
import { InvalidFieldError } from '../api/errors.js';
import { CALL_COLUMN_SPECS, type ColumnType } from './calls-query.js';
import type { FieldCatalog, FieldRef } from './plan.js';

/** Real columns a filter or sort may name, with the type the plan compares them as. */
const CALL_FIELD_COLUMNS: Readonly<Record<string, ColumnType>> = Object.fromEntries(
  Object.entries(CALL_COLUMN_SPECS)
    .filter(([, s]) => s.queryable)
    .map(([name, s]) => [name, s.type]),
);

/** Columns holding JSON: `<column>` alone or `<column>.<path>` is a dynamic field. */
export const CALL_JSON_COLUMNS: ReadonlySet<string> = new Set(['inputs', 'output', 'attributes', 'summary']);

/** Derived fields, computed by the engine from the stored call (service/ derives the same values). */
export const CALL_COMPUTED_FIELDS = ['status', 'latency_ms', 'trace_name'] as const;
export type CallComputedField = (typeof CALL_COMPUTED_FIELDS)[number];
const COMPUTED_PREFIX = 'summary.weave.';

/**
 * Sort keys the service computes (service/calls/derived-sort.ts), not the engines: a call's
 * total tokens and USD cost. Weft's own; valid only as the first sort_by term.
 */
export const CALL_DERIVED_SORT_FIELDS = ['summary.weave.total_tokens', 'summary.weave.total_cost'] as const;
export type CallDerivedSortField = (typeof CALL_DERIVED_SORT_FIELDS)[number];

/** What a feedback field reads: the payload (at a path) or one of the ref columns. */
export const FEEDBACK_REF_FIELDS: ReadonlySet<string> = new Set(['runnable_ref', 'call_ref', 'trigger_ref']);

/**
 * Splits a dotted path; `\.` escapes a dot inside a key (newer Weave). Empty keys
 * (`a..b`, trailing dot) are rejected: they never name anything.
 */
export function splitFieldPath(path: string, fieldName: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < path.length; i++) {
    const ch = path[i]!;
    if (ch === '\\' && path[i + 1] === '.') {
      current += '.';
      i++;
    } else if (ch === '.') {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  if (parts.some((p) => p.length === 0))
    throw new InvalidFieldError(`Invalid field: ${fieldName} (empty path segment)`);
  return parts;
}

function isComputed(name: string): name is CallComputedField {
  return (CALL_COMPUTED_FIELDS as readonly string[]).includes(name);
}

/**
 * `feedback.[<type>].payload[.<path>]`, `feedback.[<type>].runnable_ref|call_ref|trigger_ref`,
 * or `feedback.[<type>].count` (how many such rows the call has: Weft's own); `[*]` = any type.
 */
function resolveFeedback(name: string): FieldRef {
  const rest = name.slice('feedback.['.length);
  const close = rest.indexOf(']');
  if (close <= 0 || rest[close + 1] !== '.') throw new InvalidFieldError(`Invalid feedback field: ${name}`);
  const type = rest.slice(0, close);
  const tail = rest.slice(close + 2);
  const feedbackType = type === '*' ? null : type;
  if (FEEDBACK_REF_FIELDS.has(tail) || tail === 'count') return { kind: 'feedback', feedbackType, path: [tail] };
  if (tail === 'payload') return { kind: 'feedback', feedbackType, path: ['payload'] };
  if (tail.startsWith('payload.')) {
    return {
      kind: 'feedback',
      feedbackType,
      path: ['payload', ...splitFieldPath(tail.slice('payload.'.length), name)],
    };
  }
  throw new InvalidFieldError(`Invalid feedback field: ${name}`);
}

/** The calls catalog; stateless. */
export const callsFieldCatalog: FieldCatalog = {
  resolve(name: string): FieldRef {
    const type = Object.hasOwn(CALL_FIELD_COLUMNS, name) ? CALL_FIELD_COLUMNS[name] : undefined;
    if (type !== undefined) return { kind: 'column', name, type };
    if ((CALL_DERIVED_SORT_FIELDS as readonly string[]).includes(name))
      throw new InvalidFieldError(`${name} can only be the first sort_by term (it cannot be filtered on)`);
    if (name.startsWith(COMPUTED_PREFIX)) {
      const computed = name.slice(COMPUTED_PREFIX.length);
      if (isComputed(computed)) return { kind: 'computed', name: computed };
      // Any other summary.weave.* key is an ordinary path into the stored summary.
    }
    if (name.startsWith('feedback.[')) return resolveFeedback(name);
    const dot = name.indexOf('.');
    const column = dot < 0 ? name : name.slice(0, dot);
    if (CALL_JSON_COLUMNS.has(column)) {
      const path = dot < 0 ? [] : splitFieldPath(name.slice(dot + 1), name);
      return { kind: 'json', column, path };
    }
    throw new InvalidFieldError(`Invalid field: ${name}`);
  },
};
