// The conversation-level filters of the agent span reads: signal filters (conversations whose
// agent feedback carries the tags and ratings, at any time: storage/spans/span-filters.ts) and
// Insights filters (Weave's extracted intents and failures). Insights filters are checked as
// Weave checks them (sentiments, severities, UUID topic ids), but Weft extracts no Insights:
// a filter that includes values matches no conversation, one that excludes them (`exclude`)
// leaves every span in, as Weave's `conversation_id NOT IN (...)` over no Insights rows does.
import type { Static } from 'typebox';
import {
  FAILURE_SEVERITIES,
  INTENT_SENTIMENTS,
  type AgentInsightFilter,
  type AgentSignalFilter,
} from '../../api/agent-span-filters.js';
import { InvalidRequestError } from '../../api/errors.js';
import type { SpanSignalFilter } from '../../storage/spans/span-filters.js';

type Signals = Static<typeof AgentSignalFilter>;
type Insight = Static<typeof AgentInsightFilter>;

/** Python's uuid.UUID() forms: hex with or without hyphens, braces, a urn:uuid: prefix. */
const UUID = /^(?:urn:uuid:)?\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/i;

/** The signal filter as the store takes it; null when it asks for nothing. */
export function signalsOf(f: Signals | null | undefined): SpanSignalFilter | null {
  const tags = f?.tags ?? [];
  const ratings = (f?.ratings ?? []).map((r) => ({
    scorerKey: r.scorer_key,
    op: r.op as SpanSignalFilter['ratings'][number]['op'],
    value: r.value,
  }));
  return tags.length === 0 && ratings.length === 0 ? null : { tags, ratings };
}

/** Checks the Insights filters; true when they leave no conversation (an including filter). */
export function insightsMatchNothing(filters: readonly Insight[] | undefined): boolean {
  (filters ?? []).forEach((f, i) => {
    const allowed =
      f.field === 'intent_sentiment' ? INTENT_SENTIMENTS : f.field === 'failure_severity' ? FAILURE_SEVERITIES : null;
    const invalid =
      allowed === null ? [] : [...new Set(f.values.filter((v) => !(allowed as readonly string[]).includes(v)))];
    if (invalid.length > 0)
      throw new InvalidRequestError(
        `insight_filters[${i}]: ${f.field} values must be one of: ${allowed!.join(', ')}; got: ${invalid.sort().join(', ')}`,
      );
    if (f.field === 'intent_topic_id' || f.field === 'failure_topic_id')
      for (const v of f.values)
        if (!UUID.test(v)) throw new InvalidRequestError(`insight_filters[${i}]: invalid topic ID: ${v}`);
  });
  return (filters ?? []).some((f) => f.exclude !== true);
}
