// The grouped options of the agent span reads (Weave's weave/shared/agents/types.py): group
// filters (keep groups whose measure lies within bounds), signal filters (conversations carrying
// scorer tags and ratings), Insights filters, per-group custom attribute distributions and the
// numeric buckets of /agents/spans/stats. Shapes only; the rules across fields (one bound at
// least, max >= min, UUID topic ids...) are checked in service/agents/, each answering 400.
import { Type } from 'typebox';
import { AgentGroupByRef } from './agent-group-by.js';
import { DateTime, Nullable, Strict } from './common.js';
import { List, MAX_NAMES } from './limits.js';
import { AgentSpanMeasureSpec, AgentSpanValueRef, Identifier, literals } from './agent-span-values.js';

/** Weave's MAX_AGENT_CUSTOM_ATTR_DISTRIBUTION_SPECS, _BINS and _TOP_N, and the defaults. */
export const DISTRIBUTION_LIMITS = { specs: 20, bins: 50, topN: 20, defaultBins: 12, defaultTopN: 5 } as const;
/** Weave's AgentSpanStatsNumericBucketSpec.bins bounds and default. */
export const NUMERIC_BUCKET_BINS = { min: 1, max: 200, default: 24 } as const;
export const INSIGHT_FIELDS = [
  'intent_category',
  'intent_sentiment',
  'failure_category',
  'failure_severity',
  'intent_topic_id',
  'failure_topic_id',
] as const;
/** Weave's AgentIntentSentiment and AgentFailureSeverity. */
export const INTENT_SENTIMENTS = ['frustrated', 'dissatisfied', 'neutral', 'satisfied', 'delighted'] as const;
export const FAILURE_SEVERITIES = ['info', 'major', 'minor'] as const;
export const RATING_OPS = ['gte', 'gt', 'lte', 'lt', 'eq'] as const;

/** A bound: a number, or a time for measures of times (min/max of started_at...). */
const Bound = Type.Optional(Nullable(Type.Union([Type.Number(), DateTime])));

export const AgentSpanGroupFilter = Strict({
  /** Empty: the request's grouping (query), or conversations (stats). */
  group_by: Type.Optional(List(AgentGroupByRef, 20)),
  measure: AgentSpanMeasureSpec,
  min: Bound,
  max: Bound,
});

export const AgentSignalFilter = Strict({
  tags: Type.Optional(List(Type.String({ maxLength: 1000 }), MAX_NAMES)),
  ratings: Type.Optional(
    List(
      Strict({
        scorer_key: Type.String({ minLength: 1, maxLength: 1000 }),
        op: literals(RATING_OPS),
        value: Type.Number(),
      }),
      MAX_NAMES,
    ),
  ),
});

export const AgentInsightFilter = Strict({
  field: literals(INSIGHT_FIELDS),
  values: List(Type.String({ maxLength: 1000 }), 1000, { minItems: 1 }),
  exclude: Type.Optional(Type.Boolean()),
});

export const AgentSpanGroupDistributionSpec = Strict({
  alias: Identifier,
  value: AgentSpanValueRef,
  bins: Type.Optional(Type.Integer({ minimum: 1, maximum: DISTRIBUTION_LIMITS.bins })),
  top_n: Type.Optional(Type.Integer({ minimum: 1, maximum: DISTRIBUTION_LIMITS.topN })),
});

const TimeBucket = Strict({ type: Type.Optional(Type.Literal('time')) });
const NumericBucket = Strict({
  type: Type.Literal('number'),
  /** Accepted as in Weave; its rows name their bounds bucket_index, bucket_min and bucket_max. */
  alias: Type.Optional(Identifier),
  bins: Type.Optional(Type.Integer({ minimum: NUMERIC_BUCKET_BINS.min, maximum: NUMERIC_BUCKET_BINS.max })),
  min: Type.Optional(Nullable(Type.Number())),
  max: Type.Optional(Nullable(Type.Number())),
  value: Type.Optional(Nullable(AgentSpanValueRef)),
  group_by: Type.Optional(List(AgentGroupByRef, 20)),
  measure: Type.Optional(Nullable(AgentSpanMeasureSpec)),
});
export const AgentSpanStatsBucketSpec = Type.Union([TimeBucket, NumericBucket]);
