// /ui/{entity}/{project}/agents/conversations/{conversation_id}: the conversation as a chat,
// turn after turn (virtualised: a 1,000-turn conversation renders what is on screen), each
// turn's figures in its header; `?turn=` opens that turn's spans as a waterfall beside it.
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { formatCost, formatCount, formatTokens } from '../format';
import { ErrorBanner } from '../shell/ErrorBanner';
import { usePageTitle } from '../shell/usePageTitle';
import { and, eq, inList, spanRows } from './agentsApi';
import { agentRef } from '../call/useFeedback';
import { TargetFeedback } from './TargetFeedback';
import { TurnMessages } from './TurnMessages';
import { TurnWaterfall } from './TurnWaterfall';
import { useConversationTurns } from './useConversationTurns';
import styles from './Conversation.module.css';

const route = getRouteApi('/$entity/$project/agents/conversations/$conversationId');

export function ConversationPage() {
  const { entity, project, conversationId } = route.useParams();
  const { turn } = route.useSearch();
  const navigate = route.useNavigate();
  const projectId = `${entity}/${project}`;
  usePageTitle(`${conversationId} · Conversations · ${projectId}`);
  const { turns, total, done, error } = useConversationTurns(projectId, conversationId);
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: turns.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 220,
    overscan: 4,
  });
  // A linked turn (from search) is scrolled to once it has arrived.
  const shown = useRef<string | null>(null);
  const openIndex = turn === undefined ? -1 : turns.findIndex((t) => t.trace_id === turn);
  useEffect(() => {
    if (openIndex < 0 || shown.current === turn) return;
    shown.current = turn ?? null;
    virtual.scrollToIndex(openIndex, { align: 'start' });
  }, [openIndex, turn, virtual]);
  // The op calls that produced turns (weave.parent_call.id on their spans), once all turns are in.
  const calls = useQuery({
    queryKey: ['conversation-calls', projectId, conversationId, turns.length],
    enabled: done && turns.length > 0,
    queryFn: async ({ signal }) => {
      const spans = await spanRows(
        {
          project_id: projectId,
          query: and(
            inList(
              'trace_id',
              turns.map((t) => t.trace_id),
            ),
            { $not: [eq('parent_call_id', null)] },
          ),
          limit: 10_000,
        },
        signal,
      );
      return new Map(spans.map((s) => [String(s.trace_id), String(s.parent_call_id)]));
    },
  });
  const tokens = turns.reduce((n, t) => n + t.total_input_tokens + t.total_output_tokens, 0);
  const costs = turns.map((t) => t.total_cost_usd).filter((c): c is number => c !== null);
  const toggle = (traceId: string) =>
    void navigate({ search: turn === traceId ? {} : { turn: traceId }, replace: true });
  return (
    <div className={styles.page}>
      <div className={styles.chatColumn}>
        <div className={styles.head}>
          <h1>
            <Link to="/$entity/$project/agents/conversations" params={{ entity, project }}>
              Conversations
            </Link>{' '}
            / <span data-testid="conversation-id">{conversationId}</span>
          </h1>
          <span className={styles.facts} data-testid="conversation-facts">
            {total === null ? '' : `${formatCount(total)} ${total === 1 ? 'turn' : 'turns'}`}
            {done && turns.length > 0 ? ` · ${formatTokens(tokens) || '0'} tokens` : ''}
            {done && costs.length > 0 ? ` · ${formatCost(costs.reduce((a, b) => a + b, 0))}` : ''}
            {!done && total !== null ? ` · loading ${formatCount(turns.length)}…` : ''}
          </span>
        </div>
        <div className={styles.conversationFeedback} data-testid="conversation-feedback">
          <TargetFeedback
            projectId={projectId}
            weaveRef={agentRef(projectId, 'agent_conversation', conversationId)}
            label="The whole conversation:"
          />
        </div>
        {error !== null && <ErrorBanner error={error} onRetry={() => window.location.reload()} />}
        {done && total === 0 && (
          <p className={styles.facts} data-testid="no-turns">
            No turns: no span carries this conversation id.
          </p>
        )}
        <div className={styles.scroller} ref={scroller} data-testid="turns">
          <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
            {virtual.getVirtualItems().map((v) => (
              <div
                key={v.key}
                data-index={v.index}
                ref={virtual.measureElement}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)` }}
              >
                <TurnMessages
                  turn={turns[v.index]!}
                  index={v.index}
                  open={turns[v.index]!.trace_id === turn}
                  onSpans={() => toggle(turns[v.index]!.trace_id)}
                  callId={calls.data?.get(turns[v.index]!.trace_id) ?? null}
                  entity={entity}
                  project={project}
                />
              </div>
            ))}
          </div>
        </div>
      </div>
      {turn !== undefined && (
        <aside className={styles.side} data-testid="turn-panel">
          <header>
            <strong>Turn {openIndex >= 0 ? openIndex + 1 : ''} spans</strong>{' '}
            <span className={styles.facts}>{turn}</span>
            <button type="button" onClick={() => toggle(turn)} aria-label="Close the spans">
              ×
            </button>
          </header>
          <TurnWaterfall projectId={projectId} traceId={turn} />
        </aside>
      )}
    </div>
  );
}
