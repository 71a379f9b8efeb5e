// The columns of an agent span, as both engines store them and Weave's AgentSpanSchema names
// them: the span's own fields, the promoted GenAI attributes (ingest/genai/semconv.ts), the
// messages and custom attribute maps (JSON text), and what Weft derives on write (the agent a
// span belongs to: its nearest invoke_agent ancestor-or-self).
import { SEMCONV, type SemconvType } from '../ingest/genai/semconv.js';

/** How a column is stored: text, a whole number, a real, or JSON text (lists and maps). */
export type SpanColumnType = 'string' | 'int' | 'float' | 'json';

const STORED: Readonly<Record<SemconvType, SpanColumnType>> = {
  string: 'string',
  int: 'int',
  float: 'float',
  strings: 'json',
  json: 'string',
};

export const SPAN_COLUMN_TYPES = {
  project_id: 'string',
  trace_id: 'string',
  span_id: 'string',
  parent_span_id: 'string',
  span_name: 'string',
  span_kind: 'string',
  /** Microseconds since the epoch. */
  started_at: 'int',
  /** Microseconds since the epoch; NULL when the span was sent without an end. */
  ended_at: 'int',
  status_code: 'string',
  status_message: 'string',
  ...(Object.fromEntries(SEMCONV.map((a) => [a.column, STORED[a.type]])) as Record<string, SpanColumnType>),
  input_messages: 'json',
  output_messages: 'json',
  system_instructions: 'json',
  custom_attrs_string: 'json',
  custom_attrs_int: 'json',
  custom_attrs_float: 'json',
  custom_attrs_bool: 'json',
  wb_user_id: 'string',
  wb_run_id: 'string',
  wb_run_step: 'int',
  wb_run_step_end: 'int',
  /** The agent of the nearest invoke_agent ancestor-or-self (Weft's attribution). */
  owner_agent_name: 'string',
  owner_agent_version: 'string',
  /** 1 when the span's own tokens count in sums; 0 for an invoke_agent span whose subtree reports them (storage/spans/span-rollups.ts). */
  tokens_counted: 'int',
  /** 1 when conversation_id is the turn's, taken by a span sent without one (storage/spans/span-settle.ts). */
  conversation_inherited: 'int',
  /** The span as received (OTLP/JSON shape), for include_details. */
  raw_span_dump: 'string',
} as const satisfies Record<string, SpanColumnType>;

/** A column name (the promoted ones come from a runtime table, so this is any string the catalogue holds). */
export type SpanColumn = string;
export const SPAN_COLUMNS = Object.keys(SPAN_COLUMN_TYPES) as readonly SpanColumn[];

/** A stored span: each column's value, JSON columns as their text. */
export type SpanRow = Record<SpanColumn, string | number | null>;
