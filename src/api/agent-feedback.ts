// Feedback as the agent read routes show it (agents.md §5.1): Weave's AgentChatFeedback, the
// projection of a feedback row folded into /agents/traces/chat and /agents/conversations/chat
// with include_feedback, and the markers of /agents/conversations/spans.
import { Type } from 'typebox';
import { AnyObject, DateTime, Nullable } from './common.js';

const StringMap = Type.Record(Type.String(), Type.String());
const NumberMap = Type.Record(Type.String(), Type.Number());

/** A feedback row without project_id and the span_* columns (Weave's FEEDBACK_QUERY_FIELDS). */
export const AgentChatFeedback = Type.Object({
  id: Type.String(),
  feedback_type: Type.String(),
  weave_ref: Type.String(),
  payload: AnyObject,
  creator: Nullable(Type.String()),
  created_at: Nullable(DateTime),
  wb_user_id: Nullable(Type.String()),
  runnable_ref: Nullable(Type.String()),
  call_ref: Nullable(Type.String()),
  trigger_ref: Nullable(Type.String()),
  annotation_ref: Nullable(Type.String()),
  scorer_tags: Type.Array(Type.String()),
  scorer_tag_reasons: StringMap,
  scorer_tag_confidences: NumberMap,
  scorer_ratings: NumberMap,
  scorer_rating_reasons: StringMap,
  scorer_rating_confidences: NumberMap,
});

/** Present (possibly empty) only when include_feedback was asked for. */
export const ChatFeedbackField = Type.Optional(Nullable(Type.Array(AgentChatFeedback)));

/** The feedback types that become conversation-list markers (Weave's AgentSpanFeedbackType). */
export const AGENT_SPAN_FEEDBACK_TYPES = ['wandb.agent_user_feedback', 'wandb.agent_monitor'] as const;

/** One feedback row on a conversation's turn (trace_id) or on the conversation (trace_id null). */
export const AgentConversationSpanFeedback = Type.Object({
  trace_id: Nullable(Type.String()),
  feedback_type: Type.Union(AGENT_SPAN_FEEDBACK_TYPES.map((t) => Type.Literal(t))),
  tags: Type.Array(Type.String()),
  ratings: Type.Array(
    Type.Object({
      name: Type.String(),
      value: Type.Number(),
      reason: Type.Optional(Nullable(Type.String())),
      confidence: Type.Optional(Nullable(Type.Number())),
    }),
  ),
});
