// The field names a query over agent spans may use (Weave's agent span query language): a
// span column by name, any wire key or short form of a promoted GenAI attribute
// (`gen_ai.agent.name`, `agent.name`: ingest/genai/semconv.ts), or a key of a typed custom
// attribute map as `custom_attrs_<type>.<key>` (the key taken whole: it may hold dots).
// Anything else is an InvalidFieldError (422).
import { InvalidFieldError } from '../api/errors.js';
import { FIELD_ALIASES } from '../ingest/genai/semconv.js';
import type { FieldCatalog, FieldRef } from './plan.js';
import { SPAN_COLUMN_TYPES, type SpanColumn } from './span-columns.js';

export const CUSTOM_ATTR_COLUMNS = [
  'custom_attrs_string',
  'custom_attrs_int',
  'custom_attrs_float',
  'custom_attrs_bool',
] as const;
export type CustomAttrColumn = (typeof CUSTOM_ATTR_COLUMNS)[number];

/** Columns a query may name directly: the scalar ones (JSON lists, messages and the raw span are not filterable). */
export function isScalarSpanColumn(name: string): boolean {
  const t = (SPAN_COLUMN_TYPES as Record<string, string>)[name];
  return t !== undefined && t !== 'json' && name !== 'raw_span_dump';
}

function columnRef(name: SpanColumn): FieldRef {
  const t = (SPAN_COLUMN_TYPES as Record<string, string>)[name];
  return { kind: 'column', name, type: t === 'string' ? 'string' : 'int' };
}

export const spanFieldCatalog: FieldCatalog = {
  resolve(name: string): FieldRef {
    if (isScalarSpanColumn(name)) return columnRef(name);
    const alias = FIELD_ALIASES.get(name);
    if (alias !== undefined && isScalarSpanColumn(alias)) return columnRef(alias);
    for (const column of CUSTOM_ATTR_COLUMNS) {
      if (name.startsWith(`${column}.`) && name.length > column.length + 1)
        return { kind: 'json', column, path: [name.slice(column.length + 1)] };
    }
    throw new InvalidFieldError(`Invalid agent span field: ${name}`);
  },
};
