// The derived `summary.weave` block every returned call carries (weave-api.md §3.5):
// status, latency, trace or display name, and, when asked, costs and feedback.
import type { StoredCall } from '../../storage/calls/call-store.js';

export type CallStatus = 'error' | 'running' | 'descendant_error' | 'success';

/** Op name of an op ref (`weave:///e/p/op/<name>:<digest>` -> `<name>`), else the raw op_name. */
export function opNameOf(opName: string): string {
  const m = /^(?:weave|weave-trace-internal):\/\/\/(.*)$/.exec(opName);
  if (!m) return opName;
  // The project part is "<entity>/<project>" externally, one segment internally.
  const parts = m[1]!.split('/');
  const opAt = opName.startsWith('weave:///') ? 2 : 1;
  if (parts[opAt] !== 'op') return opName;
  const rest = parts.slice(opAt + 1).join('/');
  const colon = rest.lastIndexOf(':');
  return colon > 0 ? rest.slice(0, colon) : rest;
}

function errorCount(summary: Record<string, unknown>): number {
  const counts = summary.status_counts;
  if (counts && typeof counts === 'object') {
    const n = Number((counts as Record<string, unknown>).error);
    return Number.isFinite(n) ? n : 0;
  }
  return 0;
}

export function callStatus(
  c: Pick<StoredCall, 'exception' | 'ended_at'>,
  summary: Record<string, unknown>,
): CallStatus {
  if (c.exception) return 'error';
  if (c.ended_at === null) return 'running';
  if (errorCount(summary) > 0) return 'descendant_error';
  return 'success';
}

export interface SummaryExtras {
  /** summary.weave.costs as JSON text (rendered once, spliced in; see cost-summary.ts). */
  costs?: string | null;
  feedback?: unknown[] | null;
}

/** A `weave` block's JSON text with the costs JSON added as its last key. */
export function withCosts(weaveJson: string, costs: string | null | undefined): string {
  if (!costs) return weaveJson;
  return weaveJson === '{}' ? `{"costs":${costs}}` : `${weaveJson.slice(0, -1)},"costs":${costs}}`;
}

/** Stored summary (client keys kept) plus the derived `weave` block; `summaryJson` null = `{}`. */
export function deriveSummary(c: StoredCall, extras: SummaryExtras = {}): Record<string, unknown> {
  const summary: Record<string, unknown> = c.summary ? (JSON.parse(c.summary) as Record<string, unknown>) : {};
  const prior = summary.weave && typeof summary.weave === 'object' ? (summary.weave as Record<string, unknown>) : {};
  const weave = weaveBlock(c, summary, prior, extras);
  if (extras.costs) weave.costs = JSON.parse(extras.costs) as unknown;
  summary.weave = weave;
  return summary;
}

/**
 * The same as JSON.stringify(deriveSummary(c, extras)), without decoding and re-encoding
 * the stored summary when it has no `weave` key of its own (the usual case): the derived
 * block is appended to the stored text. Streaming many calls spends much less time here.
 */
export function renderSummary(c: StoredCall, extras: SummaryExtras = {}): string {
  const text = c.summary;
  if (!text || text === '{}')
    return `{"weave":${withCosts(JSON.stringify(weaveBlock(c, {}, {}, extras)), extras.costs)}}`;
  if (text.includes('"weave"') || text[0] !== '{') return JSON.stringify(deriveSummary(c, extras));
  // Only status needs the summary's content (status_counts.error); small and cheap to read.
  const errorsOnly = text.includes('"status_counts"') ? (JSON.parse(text) as Record<string, unknown>) : {};
  return `${text.slice(0, -1)},"weave":${withCosts(JSON.stringify(weaveBlock(c, errorsOnly, {}, extras)), extras.costs)}}`;
}

function weaveBlock(
  c: StoredCall,
  summary: Record<string, unknown>,
  prior: Record<string, unknown>,
  extras: SummaryExtras,
): Record<string, unknown> {
  const weave: Record<string, unknown> = { ...prior, status: callStatus(c, summary) };
  if (c.ended_at !== null) weave.latency_ms = Math.floor((c.ended_at - c.started_at) / 1000);
  if (c.display_name) weave.display_name = c.display_name;
  else weave.trace_name = opNameOf(c.op_name);
  if (extras.feedback) weave.feedback = extras.feedback;
  return weave;
}
