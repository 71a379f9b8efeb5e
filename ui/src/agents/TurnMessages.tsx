// One turn as a chat (AgentTraceChatRes.messages): the user's message, each agent's start
// (sub-agents indented under the turn's agent), assistant text with its reasoning folded,
// tool calls with their arguments and results folded, context compaction.
import { Link } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import type { AgentTurn } from '../api/types';
import { formatCost, formatDuration, formatTokens } from '../format';
import { looksLikeMarkdown } from '../render/looksLikeMarkdown';
import { agentRef } from '../call/useFeedback';
import { TargetFeedback } from './TargetFeedback';
import styles from './Conversation.module.css';

type Message = Record<string, unknown> & { type: string; agent_name?: string | null; span_id?: string | null };
type Payload = Record<string, unknown>;
const tokensLabel = (n: number) => (n > 0 ? `${formatTokens(n)} tok` : '');
const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v));

// The markdown renderer loads after the first turns show (their text plain until it has).
const Markdown = lazy(() => import('../render/Markdown').then((m) => ({ default: m.Markdown })));

function Text({ text }: { text: string }) {
  const plain = <div className={styles.plain}>{text}</div>;
  if (!looksLikeMarkdown(text)) return plain;
  return (
    <Suspense fallback={plain}>
      <Markdown text={text} />
    </Suspense>
  );
}

function Pretty({ text }: { text: string }) {
  try {
    return <pre>{JSON.stringify(JSON.parse(text), null, 2)}</pre>;
  } catch {
    return <pre>{text}</pre>;
  }
}

function MessageView({ m }: { m: Message }) {
  const p = (m[m.type] ?? {}) as Payload;
  switch (m.type) {
    case 'user_message':
      return (
        <div className={styles.user} data-kind="user">
          <Text text={str(p.text)} />
        </div>
      );
    case 'assistant_message': {
      const facts = [
        str(p.model),
        tokensLabel(((p.input_tokens as number) ?? 0) + ((p.output_tokens as number) ?? 0)),
        formatCost((p.total_cost_usd as number | null) ?? null),
        formatDuration((p.duration_ms as number | null) ?? null),
      ].filter(Boolean);
      return (
        <div className={styles.assistant} data-kind="assistant">
          {p.reasoning_content ? (
            <details className={styles.reasoning}>
              <summary>Reasoning</summary>
              <div className={styles.plain}>{str(p.reasoning_content)}</div>
            </details>
          ) : null}
          <Text text={str(p.text)} />
          {facts.length > 0 && <div className={styles.facts}>{facts.join(' · ')}</div>}
        </div>
      );
    }
    case 'tool_call':
      return (
        <details className={`${styles.tool} ${p.status === 'ERROR' ? styles.failed : ''}`} data-kind="tool">
          <summary>
            <span className={styles.toolName}>{str(p.tool_name) || 'tool'}</span>
            <code className={styles.args}>{str(p.tool_arguments)}</code>
            <span className={styles.facts}>{formatDuration((p.duration_ms as number | null) ?? null)}</span>
          </summary>
          <h4>Arguments</h4>
          <Pretty text={str(p.tool_arguments)} />
          <h4>Result</h4>
          <Pretty text={str(p.tool_result)} />
        </details>
      );
    case 'agent_start':
      return (
        <div className={styles.agentStart} data-kind="agent">
          ▸ <strong>{m.agent_name ?? 'agent'}</strong>
          {p.model ? <span className={styles.facts}> {str(p.model)}</span> : null}
          {p.system_instructions ? (
            <details>
              <summary className={styles.facts}>Instructions</summary>
              <div className={styles.plain}>{str(p.system_instructions)}</div>
            </details>
          ) : null}
        </div>
      );
    case 'context_compacted':
      return (
        <div className={styles.compacted} data-kind="compacted">
          Context compacted
          {p.compaction_items_before !== undefined
            ? ` (${str(p.compaction_items_before)} → ${str(p.compaction_items_after)} items)`
            : ''}
          {p.compaction_summary ? <div className={styles.plain}>{str(p.compaction_summary)}</div> : null}
        </div>
      );
    default:
      return <div className={styles.agentStart}>→ {m.type.replace('_', ' ')}</div>;
  }
}

/** The turn's header figures and its messages; sub-agents' messages are indented. */
export function TurnMessages({
  turn,
  index,
  onSpans,
  open,
  callId,
  entity,
  project,
}: {
  turn: AgentTurn;
  index: number;
  onSpans: () => void;
  open: boolean;
  /** The op call that produced the turn, if any. */
  callId: string | null;
  entity: string;
  project: string;
}) {
  const projectId = `${entity}/${project}`;
  const own = turn.agent_name;
  const facts = [
    turn.agent_name ?? '',
    formatDuration(turn.total_duration_ms ?? null),
    `${formatTokens(turn.total_input_tokens) || '0'} in / ${formatTokens(turn.total_output_tokens) || '0'} out`,
    formatCost(turn.total_cost_usd ?? null),
  ].filter(Boolean);
  return (
    <article className={styles.turn} data-testid="turn" data-trace={turn.trace_id}>
      <header>
        <strong>Turn {index + 1}</strong>
        <span className={turn.status_code === 'ERROR' ? styles.statusError : styles.facts} data-testid="turn-status">
          {turn.status_code ?? ''}
        </span>
        <span className={styles.facts} data-testid="turn-facts">
          {facts.join(' · ')}
        </span>
        {callId !== null && (
          <Link to="/$entity/$project/calls/$callId" params={{ entity, project, callId }} data-testid="turn-call">
            op call →
          </Link>
        )}
        <button type="button" onClick={onSpans} aria-pressed={open} data-testid="turn-spans">
          {open ? 'Hide spans' : 'Spans'}
        </button>
      </header>
      {(turn.messages as Message[]).map((m, i) => (
        <div
          key={i}
          className={m.agent_name && own && m.agent_name !== own && m.type !== 'user_message' ? styles.sub : ''}
          data-agent={m.agent_name ?? ''}
        >
          <MessageView m={m} />
        </div>
      ))}
      <TargetFeedback projectId={projectId} weaveRef={agentRef(projectId, 'agent_turn', turn.trace_id)} />
    </article>
  );
}
