// The engine-neutral plan of a query. The `$expr` language (and CallsFilter, sort_by)
// compile into these nodes once; each engine's dialect prints them as SQL + parameters.
// No SQL text lives here. Field names are resolved through a FieldCatalog (an allow-list),
// so a FieldRef is always something the engine knows how to print.

export type ConvertTarget = 'double' | 'string' | 'int' | 'bool' | 'exists';

export type FieldRef =
  /** A real column of the resource's table, by its API name (allow-listed by the catalog). */
  | { readonly kind: 'column'; readonly name: string; readonly type: 'string' | 'int' | 'datetime' }
  /** A path inside a JSON column; its value follows ClickHouse JSON_VALUE rules (text, '' when missing). */
  | { readonly kind: 'json'; readonly column: string; readonly path: readonly string[] }
  /** A derived field the resource defines (calls: summary.weave.status, latency_ms, trace_name). */
  | { readonly kind: 'computed'; readonly name: string }
  /** Calls only: a field of the feedback attached to the call; feedbackType null = any type. */
  | { readonly kind: 'feedback'; readonly feedbackType: string | null; readonly path: readonly string[] };

export type Literal = string | number | boolean | null;

export type Expr =
  | { readonly kind: 'literal'; readonly value: Literal }
  | { readonly kind: 'field'; readonly field: FieldRef }
  | { readonly kind: 'convert'; readonly input: Expr; readonly to: ConvertTarget }
  | { readonly kind: 'and'; readonly items: readonly Expr[] }
  | { readonly kind: 'or'; readonly items: readonly Expr[] }
  | { readonly kind: 'not'; readonly item: Expr }
  | {
      readonly kind: 'compare';
      readonly op: 'eq' | 'gt' | 'gte' | 'lt' | 'lte';
      readonly left: Expr;
      readonly right: Expr;
    }
  | { readonly kind: 'in'; readonly left: Expr; readonly items: readonly Expr[] }
  | { readonly kind: 'contains'; readonly input: Expr; readonly substr: Expr; readonly caseInsensitive: boolean }
  | { readonly kind: 'isNull'; readonly input: Expr }
  /** `input` starts with the literal prefix (op_names `name:*` wildcards). */
  | { readonly kind: 'startsWith'; readonly input: Expr; readonly prefix: string }
  /** A JSON-array-of-strings column holds at least one of `values` (input_refs / output_refs). */
  | {
      readonly kind: 'arrayHasAny';
      readonly column: string;
      readonly values: readonly string[];
      readonly prefixes: readonly string[];
    };

export interface SortTerm {
  readonly field: FieldRef;
  readonly direction: 'asc' | 'desc';
}

/** Resolves a dotted field name of one resource; throws InvalidFieldError for unknown names. */
export interface FieldCatalog {
  resolve(name: string): FieldRef;
}

export function assertNever(x: never): never {
  throw new Error(`unexpected node: ${JSON.stringify(x)}`);
}
