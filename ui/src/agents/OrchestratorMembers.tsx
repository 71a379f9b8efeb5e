// An orchestrator's members: each agent its runs invoked, in the order they first ran, with its
// figures inside those runs (the `members` of /agents/query), each opening its own agent page.
import { Link } from '@tanstack/react-router';
import type { Agent } from '../api/types';
import { formatCost, formatCount, formatDuration, formatTokens } from '../format';
import { errorRate } from './AgentCard';
import styles from './Agents.module.css';

type Member = NonNullable<Agent['members']>[number];

export function OrchestratorMembers({
  entity,
  project,
  members,
}: {
  entity: string;
  project: string;
  members: Member[];
}) {
  return (
    <table className={styles.table} data-testid="members">
      <thead>
        <tr>
          <th>Member</th>
          <th className={styles.num}>Invocations</th>
          <th className={styles.num}>Spans</th>
          <th className={styles.num}>Time</th>
          <th className={styles.num}>Error rate</th>
          <th className={styles.num}>Tokens in / out</th>
          <th className={styles.num}>Cost</th>
        </tr>
      </thead>
      <tbody>
        {members.map((m) => (
          <tr key={m.agent_name} data-member={m.agent_name}>
            <td>
              <Link to="/$entity/$project/agents/$agent" params={{ entity, project, agent: m.agent_name }}>
                {m.agent_name}
              </Link>
            </td>
            <td className={styles.num} data-col="invocations">
              {formatCount(m.invocation_count)}
            </td>
            <td className={styles.num}>{formatCount(m.span_count)}</td>
            <td className={styles.num}>{formatDuration(m.total_duration_ms)}</td>
            <td className={styles.num}>{errorRate(m.error_count, m.invocation_count) || '–'}</td>
            <td className={styles.num} data-col="tokens">
              {formatTokens(m.total_input_tokens) || '0'} / {formatTokens(m.total_output_tokens) || '0'}
            </td>
            <td className={styles.num}>{formatCost(m.total_cost_usd ?? null) || '–'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
