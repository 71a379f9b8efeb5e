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

/** Lower is better for latencies and costs; higher for everything else. */
export const lowerIsBetter = (metric: string) => /latency|cost|tokens|error/i.test(metric);

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
