// Reading Weave evaluations from their calls: an `Evaluation.evaluate` call per run, whose
// output holds the scorers' summaries, and under it one predict-and-score call per example
// (`Evaluation.predict_and_score` in Python, `Evaluation.predictAndScore` in JS) holding the
// model's output and each scorer's score.
import type { Call } from '../api/types';

export const isEvaluate = (opName: string) => /\/op\/Evaluation\.evaluate:/.test(opName);
export const isPredictAndScore = (opName: string) =>
  /\/op\/Evaluation\.(predict_and_score|predictAndScore):/.test(opName);

/** The object or op a ref names: `weave:///e/p/object/Name:digest` -> `Name`. */
export function refName(v: unknown): string {
  if (typeof v !== 'string')
    return typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string'
      ? (v as { name: string }).name
      : '';
  const m = /^weave:\/\/\/[^/]+\/[^/]+\/(?:object|op)\/([^:/]+)/.exec(v);
  return m ? decodeURIComponent(m[1]!) : v;
}

/** Numbers in a nested value by dotted path (booleans count as 1 / 0). */
export function numericLeaves(value: unknown, prefix = '', out = new Map<string, number>()): Map<string, number> {
  if (typeof value === 'number' && Number.isFinite(value)) out.set(prefix, value);
  else if (typeof value === 'boolean') out.set(prefix, value ? 1 : 0);
  else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) numericLeaves(v, prefix === '' ? k : `${prefix}.${k}`, out);
  }
  return out;
}

export interface EvalRun {
  call: Call;
  name: string;
  model: string;
  /** Scorer summaries of the run's output, by path (e.g. exactMatch.true_fraction). */
  metrics: Map<string, number>;
}

export function evalRun(call: Call): EvalRun {
  return {
    call,
    name: call.display_name || refName(call.inputs.self) || 'Evaluation',
    model: refName(call.inputs.model),
    metrics: numericLeaves(call.output),
  };
}

/** By default lower is better for latencies, costs, tokens and errors; higher for everything else. */
export const lowerIsBetter = (metric: string) => /latency|cost|tokens|error/i.test(metric);

/** Whether lower is better for a metric: the view's choice (URL), else the default. */
export type Direction = (metric: string) => 'lower' | 'higher';

export function directions(lower: readonly string[] = [], higher: readonly string[] = []): Direction {
  return (m) => (lower.includes(m) ? 'lower' : higher.includes(m) ? 'higher' : lowerIsBetter(m) ? 'lower' : 'higher');
}

/** Whether `value` beats `base` on a metric of that direction. */
export const beats = (dir: 'lower' | 'higher', value: number, base: number) =>
  dir === 'lower' ? value < base : value > base;

/** Columns that hold the answer an example expects: shown after its inputs. */
const EXPECTED = /expect|label|target|answer|truth|reference|gold/i;

/** The dataset columns of the examples (dict rows), inputs first, then the expected ones. */
export function datasetColumns(examples: readonly unknown[]): string[] {
  const keys = new Set<string>();
  for (const e of examples)
    if (typeof e === 'object' && e !== null && !Array.isArray(e))
      for (const k of Object.keys(e)) if (!k.startsWith('_')) keys.add(k);
  const all = [...keys];
  return [...all.filter((k) => !EXPECTED.test(k)), ...all.filter((k) => EXPECTED.test(k))];
}

export interface ExampleResult {
  call: Call;
  output: unknown;
  /** Scores by path, booleans as 1 / 0 (for comparing) ... */
  scores: Map<string, number>;
  /** ... and the paths that were booleans (for showing as ✓ / ✗). */
  booleans: Set<string>;
}

/** A predict-and-score call's example key: its row ref, or the example itself stably encoded. */
export function exampleKey(call: Call): string {
  const ex = call.inputs.example ?? call.inputs.row ?? call.inputs;
  return typeof ex === 'string' ? ex : stableJson(ex);
}

export function exampleResult(call: Call): ExampleResult {
  const out = (call.output ?? {}) as Record<string, unknown>;
  const booleans = new Set<string>();
  const walk = (v: unknown, prefix: string) => {
    if (typeof v === 'boolean') booleans.add(prefix);
    else if (typeof v === 'object' && v !== null && !Array.isArray(v))
      for (const [k, x] of Object.entries(v)) walk(x, prefix === '' ? k : `${prefix}.${k}`);
  };
  walk(out.scores, '');
  return { call, output: out.model_output ?? out.output, scores: numericLeaves(out.scores), booleans };
}

export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (typeof v === 'object' && v !== null)
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** A short text of a value for a table cell (never the whole payload). */
export function preview(v: unknown, max = 120): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
