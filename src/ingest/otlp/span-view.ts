// A span as the conventions read it: its flat attributes, the same attributes nested at
// their dots (llm.input_messages.0.message.role -> llm.input_messages[0].message.role, keys
// 0..n-1 becoming lists), and what each convention extracts from it.
import { StringifiedJson } from '../../service/json/stringified-json.js';
import type { Attributes, OtlpSpan } from './otlp-spans.js';

type Obj = Record<string, unknown>;
/** A JSON object (not a list, not null). */
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Token counts as a convention reports them; input includes cached input tokens. */
export interface TokenCounts {
  readonly input?: number;
  readonly output?: number;
  readonly total?: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
  readonly reasoning?: number;
}

/**
 * A value taken from attributes, with the keys it came from (exact keys, or `prefix.*`):
 * those attributes are not stored a second time in the kept span (span-to-call.ts).
 */
export interface Sourced<T> {
  readonly value: T;
  readonly from: readonly string[];
}

export const sourced = <T>(value: T | undefined, ...from: string[]): Sourced<T> | undefined =>
  value === undefined ? undefined : { value, from };

/** What one convention finds in a span; span-to-call.ts takes each field from the first convention that has it. */
export interface Extracted {
  /** An object, or the sender's text of one when that is in its stored form. */
  readonly inputs?: Sourced<Obj | StringifiedJson>;
  /** Any JSON value; undefined: this convention found none. */
  readonly output?: Sourced<unknown>;
  readonly usage?: TokenCounts;
  readonly model?: string;
  readonly provider?: string;
  readonly kind?: string;
  readonly operation?: string;
  readonly parameters?: Obj;
  readonly threadId?: string;
}

export interface Convention {
  readonly name: string;
  extract(span: SpanView): Extracted;
}

function toLists(v: unknown): unknown {
  if (!isObj(v)) return v;
  const keys = Object.keys(v);
  for (const k of keys) v[k] = toLists(v[k]);
  if (keys.length > 0 && keys.every((k, i) => k === String(i))) return keys.map((k) => v[k]);
  return v;
}

/**
 * Flat dotted keys as a tree. A key that collides with another (a.b set, then a.b.c) is kept
 * whole, at the top, under its dotted name: nothing is dropped and no span is refused for it.
 */
export function nestAttributes(flat: Attributes): Obj {
  const tree: Obj = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split('.');
    let node: Obj = tree;
    let ok = true;
    for (let i = 0; i < parts.length - 1; i++) {
      const next = node[parts[i]!];
      if (next === undefined) node = node[parts[i]!] = {};
      else if (isObj(next)) node = next;
      else {
        ok = false;
        break;
      }
    }
    const leaf = parts[parts.length - 1]!;
    if (ok && node[leaf] === undefined) node[leaf] = value;
    else tree[key] = value;
  }
  return toLists(tree) as Obj;
}

/** A string that holds JSON (an object or a list) as that value; anything else unchanged. */
export function parseJsonish(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trimStart();
  if (t[0] !== '{' && t[0] !== '[') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/**
 * Text holding a JSON object or list in its stored form, kept as that text: content that
 * becomes a call's inputs or output as it is need not be parsed and encoded again (the
 * parse, the encoding and the garbage were a third of a span's time on the main thread).
 */
export function stringified(v: unknown): StringifiedJson | undefined {
  if (typeof v !== 'string' || (v[0] !== '{' && v[0] !== '[')) return undefined;
  return StringifiedJson.of(v) ?? undefined;
}

/** A JSON text attribute as content: kept as text when in its stored form, else parsed when it holds an object or list. */
export const jsonContent = (v: unknown): unknown => stringified(v) ?? parseJsonish(v);

/** Inputs from one content value: an object as it is, anything else under `key`. */
export function inputsFrom(v: unknown, key: string): Obj | StringifiedJson {
  if (v instanceof StringifiedJson) return v.text[0] === '{' ? v : (v.wrappedIn(key) ?? { [key]: JSON.parse(v.text) });
  return isObj(v) ? v : { [key]: v };
}

/** Text known to be JSON (any JSON: a quoted string too) as its value; text that is not, unchanged. */
export function parseJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

export function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return undefined;
}

export const stringOf = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export class SpanView {
  private nested: Obj | undefined;
  private prefixes: Set<string> | undefined;
  constructor(readonly span: OtlpSpan) {}

  get flat(): Attributes {
    return this.span.attributes;
  }

  get tree(): Obj {
    return (this.nested ??= nestAttributes(this.span.attributes));
  }

  /** An attribute by its full key, else the subtree under that dotted prefix. */
  get(key: string): unknown {
    const direct = this.span.attributes[key];
    if (direct !== undefined) return direct;
    if (!this.hasPrefix(key)) return undefined;
    let node: unknown = this.tree;
    for (const part of key.split('.')) {
      if (isObj(node)) node = node[part];
      else if (Array.isArray(node) && /^\d+$/.test(part)) node = node[Number(part)];
      else return undefined;
    }
    return node;
  }

  /** The first of the keys that is set. */
  first(...keys: string[]): unknown {
    for (const k of keys) {
      const v = this.get(k);
      if (v !== undefined && v !== null) return v;
    }
    return undefined;
  }

  /** Whether some attribute key continues `prefix` with a dot (every dotted head of every key, collected once). */
  hasPrefix(prefix: string): boolean {
    if (this.prefixes === undefined) {
      this.prefixes = new Set();
      for (const k in this.span.attributes) {
        for (let dot = k.indexOf('.'); dot > 0; dot = k.indexOf('.', dot + 1)) this.prefixes.add(k.slice(0, dot));
      }
    }
    return this.prefixes.has(prefix);
  }

  /** Whether any attribute key starts with one of the namespaces (`gen_ai.`, `llm.`...). */
  uses(...namespaces: string[]): boolean {
    for (const k in this.span.attributes) for (const n of namespaces) if (k.startsWith(n)) return true;
    return false;
  }

  /** Attributes under a prefix, the prefix taken off (gen_ai.request.* -> {temperature, ...}). */
  under(prefix: string): Obj {
    const p = `${prefix}.`;
    const out: Obj = {};
    for (const [k, v] of Object.entries(this.span.attributes)) if (k.startsWith(p)) out[k.slice(p.length)] = v;
    return out;
  }
}
