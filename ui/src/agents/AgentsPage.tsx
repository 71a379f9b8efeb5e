// /ui/{entity}/{project}/agents: one card per agent (the rollups of /agents/query, conversations
// and turns from the span groups, latency percentiles over the last 30 days), sortable.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { ErrorBanner } from '../shell/ErrorBanner';
import { usePageTitle } from '../shell/usePageTitle';
import { AgentCard, type AgentFigures } from './AgentCard';
import { latencies, queryAgents, spanGroups } from './agentsApi';
import { AGENT_SORTS, type AgentSort } from './agentsSearch';
import styles from './Agents.module.css';

const route = getRouteApi('/$entity/$project/agents');

const SORT_LABELS: Record<AgentSort, string> = {
  last_seen: 'Last seen',
  invocations: 'Most invocations',
  tokens: 'Most tokens',
  errors: 'Most errors',
  cost: 'Highest cost',
  name: 'Name',
};

function sorted(list: AgentFigures[], sort: AgentSort): AgentFigures[] {
  const key = (f: AgentFigures): number | string => {
    const a = f.agent;
    switch (sort) {
      case 'invocations':
        return -a.invocation_count;
      case 'tokens':
        return -(a.total_input_tokens + a.total_output_tokens);
      case 'errors':
        return -a.error_count;
      case 'cost':
        return -(a.total_cost_usd ?? 0);
      case 'name':
        return a.agent_name;
      default:
        return -new Date(a.last_seen ?? 0).getTime();
    }
  };
  return [...list].sort((x, y) => {
    const [a, b] = [key(x), key(y)];
    return a < b ? -1 : a > b ? 1 : x.agent.agent_name.localeCompare(y.agent.agent_name);
  });
}

export function AgentsPage() {
  const { entity, project } = route.useParams();
  const { sort = 'last_seen' } = route.useSearch();
  const navigate = route.useNavigate();
  const projectId = `${entity}/${project}`;
  usePageTitle(`Agents · ${projectId}`);
  const figures = useQuery({
    queryKey: ['agents', projectId],
    queryFn: async ({ signal }) => {
      const [agents, groups, latency] = await Promise.all([
        queryAgents(projectId, signal),
        spanGroups(
          { project_id: projectId, group_by: [{ key: 'owner_agent_name', alias: 'agent' }], limit: 1000 },
          signal,
        ),
        latencies(projectId, 'owner_agent_name', null, signal),
      ]);
      const byAgent = new Map(groups.map((g) => [String(g.group_keys.agent ?? ''), g]));
      return agents.agents.map(
        (agent): AgentFigures => ({
          agent,
          group: byAgent.get(agent.agent_name),
          latency: latency.get(agent.agent_name),
        }),
      );
    },
  });
  return (
    <div className={styles.page}>
      <div className={styles.head}>
        <h1>
          Agents{' '}
          {figures.data && (
            <span className={styles.muted} data-testid="agents-total">
              {figures.data.length}
            </span>
          )}
        </h1>
        <label className={styles.muted}>
          Sort{' '}
          <select
            data-testid="agents-sort"
            value={sort}
            onChange={(e) => void navigate({ search: { sort: e.target.value as AgentSort }, replace: true })}
          >
            {AGENT_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <span className={styles.headLinks}>
          <Link to="/$entity/$project/agents/conversations" params={{ entity, project }} data-testid="to-conversations">
            Conversations →
          </Link>
          <Link to="/$entity/$project/agents/signals" params={{ entity, project }} data-testid="to-signals">
            Signals →
          </Link>
        </span>
      </div>
      {figures.isPending && <p className={styles.muted}>Loading agents…</p>}
      {figures.isError && <ErrorBanner error={figures.error} onRetry={() => void figures.refetch()} />}
      {figures.data?.length === 0 && (
        <p className={styles.muted} data-testid="no-agents">
          No agents yet. Agent frameworks and the Weave SDKs send OpenTelemetry GenAI spans to{' '}
          <code>/agents/otel/v1/traces</code>; each <code>invoke_agent</code> span's agent appears here.
        </p>
      )}
      <div className={styles.cards} data-testid="agent-cards">
        {figures.data &&
          sorted(figures.data, sort).map((f) => (
            <AgentCard key={f.agent.agent_name} entity={entity} project={project} figures={f} />
          ))}
      </div>
    </div>
  );
}
