// One agent's card: its figures, all-time from the rollups, latency over the last 30 days; an
// orchestrator's kind and members.
import { Link } from '@tanstack/react-router';
import type { Agent } from '../api/types';
import { formatCost, formatCount, formatDuration, formatTokens, timeAgo } from '../format';
import type { SpanGroup } from './agentsApi';
import styles from './Agents.module.css';

export interface AgentFigures {
  readonly agent: Agent;
  readonly group: SpanGroup | undefined;
  readonly latency: { p50: number | null; p95: number | null } | undefined;
}

/** Errored invocations per invocation, as a percentage ('' without invocations). */
export function errorRate(errors: number, invocations: number): string {
  if (invocations === 0) return '';
  const pct = (100 * errors) / invocations;
  return `${pct === 0 || pct >= 10 ? pct.toFixed(0) : pct.toFixed(1)}%`;
}

export function AgentCard({ entity, project, figures }: { entity: string; project: string; figures: AgentFigures }) {
  const { agent, group, latency } = figures;
  const cells: [string, string][] = [
    ['Invocations', formatCount(agent.invocation_count)],
    ['Conversations', group ? formatCount(group.conversation_count) : ''],
    ['Turns', group ? formatCount(group.turn_count) : ''],
    ['Spans', formatCount(agent.span_count)],
    ['Latency p50', formatDuration(latency?.p50 ?? null) || '–'],
    ['Latency p95', formatDuration(latency?.p95 ?? null) || '–'],
    ['Error rate', errorRate(agent.error_count, agent.invocation_count) || '–'],
    [
      'Tokens',
      `${formatTokens(agent.total_input_tokens) || '0'} in / ${formatTokens(agent.total_output_tokens) || '0'} out`,
    ],
    ['Cost', formatCost(agent.total_cost_usd ?? null) || '–'],
  ];
  return (
    <article className={styles.card} data-testid="agent-card" data-agent={agent.agent_name}>
      <header>
        <Link to="/$entity/$project/agents/$agent" params={{ entity, project, agent: agent.agent_name }}>
          {agent.agent_name}
        </Link>
        {agent.kind === 'orchestrator' && <span className={styles.kind}>orchestrator</span>}
        <span className={styles.muted} title={agent.last_seen ?? ''}>
          {timeAgo(agent.last_seen)}
        </span>
      </header>
      {agent.members && agent.members.length > 0 && (
        <p className={styles.members} data-testid="agent-members">
          runs {agent.members.map((m) => m.agent_name).join(', ')}
        </p>
      )}
      <dl className={styles.figures}>
        {cells.map(([label, value]) => (
          <div key={label} data-figure={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </article>
  );
}
