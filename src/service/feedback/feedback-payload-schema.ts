// /feedback/payload_schema (api/feedback-analytics.ts): the leaf paths of a sample of the window's
// payloads (the latest per trigger_ref, as Weave's ClickHouse query samples) and the type of the
// values seen there, as Weave's feedback_payload_schema.py: keys holding '.' or only spaces are
// skipped, array elements count at the array's own path (objects inside arrays are skipped),
// and paths must match JSON_PATH_PATTERN. boolean: only booleans or null seen; numeric: only
// numbers or null; otherwise categorical. Sorted by path.
import {
  JSON_PATH_PATTERN,
  PAYLOAD_SAMPLE_LIMIT,
  type FeedbackPayloadPath,
  type FeedbackPayloadSchemaReq,
  type FeedbackValueType,
} from '../../api/feedback-analytics.js';
import { InvalidRequestError } from '../../api/errors.js';
import type { FeedbackAnalyticsStore } from '../../storage/feedback/feedback-analytics.js';
import type { Micros } from '../../time.js';
import { feedbackWindow } from './feedback-window.js';

type Kind = 'boolean' | 'number' | 'null' | 'other';

const kindOf = (v: unknown): Kind =>
  v === null ? 'null' : typeof v === 'boolean' ? 'boolean' : typeof v === 'number' ? 'number' : 'other';

/** Adds the kinds of the leaves under `value` at `path` ('' for the payload itself). */
function walk(value: unknown, path: string, out: Map<string, Set<Kind>>): void {
  const add = (k: Kind) => out.set(path, (out.get(path) ?? new Set<Kind>()).add(k));
  if (Array.isArray(value)) {
    // An array's scalars are values of its own path; containers in it sit at a[i] paths, never reported.
    for (const item of value) if (item === null || typeof item !== 'object') add(kindOf(item));
    return;
  }
  if (value === null || typeof value !== 'object') {
    add(kindOf(value));
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('.') || k.trim() === '') continue;
    walk(v, path === '' ? k : `${path}.${k}`, out);
  }
}

function typeOf(kinds: ReadonlySet<Kind>): FeedbackValueType {
  const only = (allowed: Kind[]) => [...kinds].every((k) => allowed.includes(k));
  if (only(['boolean', 'null'])) return 'boolean';
  if (only(['number', 'null'])) return 'numeric';
  return 'categorical';
}

/** The payload paths of the samples, typed, sorted by path. */
export function discoverPayloadPaths(payloads: readonly unknown[]): FeedbackPayloadPath[] {
  const kinds = new Map<string, Set<Kind>>();
  for (const p of payloads) walk(p, '', kinds);
  return [...kinds.entries()]
    .filter(([path]) => JSON_PATH_PATTERN.test(path))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([json_path, seen]) => ({ json_path, value_type: typeOf(seen) }));
}

export async function feedbackPayloadSchema(store: FeedbackAnalyticsStore, req: FeedbackPayloadSchemaReq, now: Micros) {
  const window = feedbackWindow(req, now);
  const limit = req.sample_limit ?? PAYLOAD_SAMPLE_LIMIT.default;
  if (limit < PAYLOAD_SAMPLE_LIMIT.min || limit > PAYLOAD_SAMPLE_LIMIT.max)
    throw new InvalidRequestError(
      `sample_limit must be between ${PAYLOAD_SAMPLE_LIMIT.min} and ${PAYLOAD_SAMPLE_LIMIT.max}`,
    );
  return { paths: discoverPayloadPaths(await store.payloadSamples({ ...window, limit })) };
}
