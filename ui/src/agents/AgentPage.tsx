// /ui/{entity}/{project}/agents/{agent}: the agent's versions side by side on the cards'
// figures; an orchestrator's members and its latest runs' hand-offs; its conversations, most
// recent first.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { formatCost, formatCount, formatDuration, formatTokens, timeAgo } from '../format';
import { ErrorBanner } from '../shell/ErrorBanner';
import { usePageTitle } from '../shell/usePageTitle';
import { errorRate } from './AgentCard';
import { and, eq, inList, latencies, queryAgent, queryVersions, spanGroups } from './agentsApi';
import { HandoffRuns } from './HandoffRuns';
import { OrchestratorMembers } from './OrchestratorMembers';
import { ConversationTable } from './ConversationTable';
import styles from './Agents.module.css';

const route = getRouteApi('/$entity/$project/agents/$agent');
const CONVERSATIONS = 100;

export function AgentPage() {
  const { entity, project, agent } = route.useParams();
  const projectId = `${entity}/${project}`;
  usePageTitle(`${agent} · Agents · ${projectId}`);
  const versions = useQuery({
    queryKey: ['agent-versions', projectId, agent],
    queryFn: async ({ signal }) => {
      const [rows, groups, latency] = await Promise.all([
        queryVersions(projectId, agent, signal),
        spanGroups(
          {
            project_id: projectId,
            query: and(eq('owner_agent_name', agent)),
            group_by: [{ key: 'owner_agent_version', alias: 'version' }],
            limit: 1000,
          },
          signal,
        ),
        latencies(projectId, 'owner_agent_version', agent, signal),
      ]);
      const byVersion = new Map(groups.map((g) => [String(g.group_keys.version ?? ''), g]));
      return rows.versions.map((v) => ({
        v,
        group: byVersion.get(v.agent_version),
        latency: latency.get(v.agent_version),
      }));
    },
  });
  const row = useQuery({
    queryKey: ['agent', projectId, agent],
    queryFn: ({ signal }) => queryAgent(projectId, agent, signal),
  });
  const orchestrator = row.data?.kind === 'orchestrator';
  const conversations = useQuery({
    queryKey: ['agent-conversations', projectId, agent, orchestrator],
    enabled: row.isFetched,
    queryFn: async ({ signal }) => {
      const page = (query: ReturnType<typeof and>) =>
        spanGroups(
          {
            project_id: projectId,
            query,
            group_by: [{ key: 'conversation_id' }],
            include_costs: true,
            limit: CONVERSATIONS,
          },
          signal,
        );
      const named = { $not: [{ $eq: [{ $getField: 'conversation_id' }, { $literal: null }] }] };
      const own = await page(and(eq('owner_agent_name', agent), named));
      if (!orchestrator || own.length === 0) return own;
      // An orchestrator's conversations with every span of them: its members spoke there.
      const ids = own.map((g) => String(g.group_keys.conversation_id));
      return page(and(inList('conversation_id', ids)));
    },
  });
  type Row = NonNullable<typeof versions.data>[number];
  const figures: [string, (r: Row) => string][] = [
    ['Invocations', (r) => formatCount(r.v.invocation_count)],
    ['Conversations', (r) => (r.group ? formatCount(r.group.conversation_count) : '')],
    ['Turns', (r) => (r.group ? formatCount(r.group.turn_count) : '')],
    ['Spans', (r) => formatCount(r.v.span_count)],
    ['Latency p50 (30 d)', (r) => formatDuration(r.latency?.p50 ?? null) || '–'],
    ['Latency p95 (30 d)', (r) => formatDuration(r.latency?.p95 ?? null) || '–'],
    ['Error rate', (r) => errorRate(r.v.error_count, r.v.invocation_count) || '–'],
    ['Input tokens', (r) => formatTokens(r.v.total_input_tokens) || '0'],
    ['Output tokens', (r) => formatTokens(r.v.total_output_tokens) || '0'],
    ['Cost', (r) => formatCost(r.v.total_cost_usd ?? null) || '–'],
    ['Last seen', (r) => timeAgo(r.v.last_seen)],
  ];
  return (
    <div className={styles.page}>
      <div className={styles.head}>
        <h1>
          <Link to="/$entity/$project/agents" params={{ entity, project }}>
            Agents
          </Link>{' '}
          / <span data-testid="agent-name">{agent}</span>
        </h1>
        {orchestrator && (
          <span className={styles.kind} data-testid="agent-kind" title="An agent that runs other agents">
            orchestrator
          </span>
        )}
      </div>
      {versions.isPending && <p className={styles.muted}>Loading versions…</p>}
      {versions.isError && <ErrorBanner error={versions.error} onRetry={() => void versions.refetch()} />}
      {versions.data && (
        <table className={styles.table} data-testid="versions">
          <thead>
            <tr>
              <th>Version</th>
              {versions.data.map((r) => (
                <th key={r.v.agent_version} className={styles.num} data-version={r.v.agent_version}>
                  {r.v.agent_version === '' ? '(none)' : r.v.agent_version}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {figures.map(([label, value]) => (
              <tr key={label} data-figure={label}>
                <th>{label}</th>
                {versions.data.map((r) => (
                  <td key={r.v.agent_version} className={styles.num}>
                    {value(r)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {orchestrator && row.data && (
        <>
          <section className={styles.section}>
            <h2>Members</h2>
            <OrchestratorMembers entity={entity} project={project} members={row.data.members ?? []} />
          </section>
          <section className={styles.section}>
            <h2>Latest runs</h2>
            <HandoffRuns entity={entity} project={project} agent={agent} />
          </section>
        </>
      )}
      <section className={styles.section}>
        <h2>
          Conversations{' '}
          <Link
            to="/$entity/$project/agents/conversations"
            params={{ entity, project }}
            search={{ agent }}
            className={styles.muted}
          >
            search and filter →
          </Link>
        </h2>
        {conversations.isError && (
          <ErrorBanner error={conversations.error} onRetry={() => void conversations.refetch()} />
        )}
        {conversations.data && <ConversationTable entity={entity} project={project} rows={conversations.data} />}
      </section>
    </div>
  );
}
