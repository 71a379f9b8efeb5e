// The agent turns an op call produced (GenAI spans stamped with weave.parent_call.id), each a
// link to its turn in the Agents view.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { postJson } from '../api/client';
import type { AgentSpansQueryReq, AgentSpansQueryRes } from '../api/types';
import styles from './CallDetail.module.css';

type Span = {
  trace_id: string;
  conversation_id: string | null;
  agent_name: string | null;
  owner_agent_name: string | null;
};

export function AgentSpansLink({ projectId, callId }: { projectId: string; callId: string }) {
  const [entity, project] = projectId.split('/') as [string, string];
  const q = useQuery({
    queryKey: ['call-agent-spans', projectId, callId],
    queryFn: async ({ signal }) => {
      const req: AgentSpansQueryReq = {
        project_id: projectId,
        query: { $expr: { $eq: [{ $getField: 'parent_call_id' }, { $literal: callId }] } },
        sort_by: [{ field: 'started_at', direction: 'asc' }],
        limit: 100,
      };
      const spans = (await postJson<AgentSpansQueryRes>('/agents/spans/query', req, signal)).spans as Span[];
      const turns = new Map<string, Span>();
      for (const s of spans) if (!turns.has(s.trace_id) || s.conversation_id) turns.set(s.trace_id, s);
      return [...turns.values()];
    },
  });
  if (!q.data || q.data.length === 0) return null;
  return (
    <div className={styles.ids} data-testid="agent-turns">
      <span>agent turns</span>
      {q.data.map((s) =>
        s.conversation_id ? (
          <Link
            key={s.trace_id}
            to="/$entity/$project/agents/conversations/$conversationId"
            params={{ entity, project, conversationId: s.conversation_id }}
            search={{ turn: s.trace_id }}
          >
            {s.owner_agent_name ?? s.agent_name ?? 'agent'} · {s.conversation_id}
          </Link>
        ) : (
          <code key={s.trace_id}>{s.trace_id}</code>
        ),
      )}
    </div>
  );
}
