// An orchestrator's latest runs, each as the order in which it invoked its members (its
// hand-offs): the orchestrator's own invocation spans, then the agent invocations of those
// traces by start, read through /agents/spans/query. A run opens its turn in the conversation.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { formatDuration, timeAgo } from '../format';
import { ErrorBanner } from '../shell/ErrorBanner';
import { StatusDot } from '../shell/icons';
import { and, eq, INVOCATION_OPERATIONS, inList, spanRows } from './agentsApi';
import styles from './Agents.module.css';

const RUNS = 10;
const str = (v: unknown) => (typeof v === 'string' ? v : null);

interface Run {
  readonly traceId: string;
  readonly conversationId: string | null;
  readonly startedAt: string;
  readonly ms: number | null;
  readonly failed: boolean;
  readonly members: string[];
}

async function latestRuns(projectId: string, agent: string, signal: AbortSignal): Promise<Run[]> {
  const own = await spanRows(
    {
      project_id: projectId,
      query: and(eq('owner_agent_name', agent), inList('operation_name', INVOCATION_OPERATIONS)),
      sort_by: [{ field: 'started_at', direction: 'desc' }],
      limit: RUNS,
    },
    signal,
  );
  const traces = [...new Set(own.map((s) => String(s.trace_id)))];
  if (traces.length === 0) return [];
  const invoked = await spanRows(
    {
      project_id: projectId,
      query: and(inList('trace_id', traces), eq('operation_name', 'invoke_agent')),
      sort_by: [{ field: 'started_at', direction: 'asc' }],
      limit: 1000,
    },
    signal,
  );
  return own
    .filter((s, i) => own.findIndex((o) => o.trace_id === s.trace_id) === i)
    .map((s) => ({
      traceId: String(s.trace_id),
      conversationId: str(s.conversation_id),
      startedAt: String(s.started_at),
      ms:
        typeof s.started_at === 'string' && typeof s.ended_at === 'string'
          ? new Date(s.ended_at).getTime() - new Date(s.started_at).getTime()
          : null,
      failed: s.status_code === 'ERROR',
      members: invoked
        .filter((x) => x.trace_id === s.trace_id && x.span_id !== s.span_id && x.owner_agent_name !== agent)
        .map((x) => String(x.owner_agent_name ?? x.agent_name ?? '')),
    }));
}

export function HandoffRuns({ entity, project, agent }: { entity: string; project: string; agent: string }) {
  const projectId = `${entity}/${project}`;
  const runs = useQuery({
    queryKey: ['agent-runs', projectId, agent],
    queryFn: ({ signal }) => latestRuns(projectId, agent, signal),
  });
  if (runs.isError) return <ErrorBanner error={runs.error} onRetry={() => void runs.refetch()} />;
  if (!runs.data) return <p className={styles.muted}>Loading runs…</p>;
  return (
    <ol className={styles.runs} data-testid="handoffs">
      {runs.data.map((r) => (
        <li key={r.traceId} data-trace={r.traceId}>
          <StatusDot status={r.failed ? 'error' : 'success'} />{' '}
          <span className={styles.handoffs} data-col="members">
            {r.members.map((m, i) => (
              <span key={`${m}-${i}`}>
                {i > 0 && <span className={styles.muted}> → </span>}
                {m}
              </span>
            ))}
          </span>
          <span className={styles.muted}>
            {' '}
            {formatDuration(r.ms)} · {timeAgo(r.startedAt)}
          </span>
          {r.conversationId !== null && (
            <Link
              to="/$entity/$project/agents/conversations/$conversationId"
              params={{ entity, project, conversationId: r.conversationId }}
              search={{ turn: r.traceId }}
              className={styles.muted}
            >
              {' '}
              open turn →
            </Link>
          )}
        </li>
      ))}
    </ol>
  );
}
