// A list of conversations (span groups by conversation_id): name, agents, first and last
// message, turns, tokens, cost, duration, errors, last activity; each row opens the chat.
import { Link } from '@tanstack/react-router';
import { formatCost, formatCount, formatDuration, formatTokens, timeAgo } from '../format';
import { StatusDot } from '../shell/icons';
import type { SpanGroup } from './agentsApi';
import styles from './Agents.module.css';

const present = (list: (string | null)[]) => list.filter((v): v is string => typeof v === 'string' && v !== '');

/** A conversation's wall clock: first span start to last span end. */
const span = (g: SpanGroup) =>
  g.first_seen && g.last_seen ? new Date(g.last_seen).getTime() - new Date(g.first_seen).getTime() : null;

export function ConversationTable({ entity, project, rows }: { entity: string; project: string; rows: SpanGroup[] }) {
  return (
    <table className={styles.table} data-testid="conversations">
      <thead>
        <tr>
          <th>Conversation</th>
          <th>Agents</th>
          <th>First message</th>
          <th>Last message</th>
          <th className={styles.num}>Turns</th>
          <th className={styles.num}>Tokens</th>
          <th className={styles.num}>Cost</th>
          <th className={styles.num}>Duration</th>
          <th>Last activity</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((g) => {
          const id = String(g.group_keys.conversation_id ?? '');
          const name = present(g.conversation_names)[0];
          return (
            <tr key={id} data-id={id}>
              <td>
                <StatusDot status={g.error_count > 0 ? 'error' : 'success'} />{' '}
                <Link
                  to="/$entity/$project/agents/conversations/$conversationId"
                  params={{ entity, project, conversationId: id }}
                >
                  {name ?? id}
                </Link>
                {name !== undefined && <div className={styles.muted}>{id}</div>}
              </td>
              <td>{present(g.agent_names).join(', ')}</td>
              <td className={styles.preview} title={g.first_message?.text ?? ''} data-col="first">
                {g.first_message?.text ?? ''}
              </td>
              <td className={styles.preview} title={g.last_message?.text ?? ''} data-col="last">
                {g.last_message?.text ?? ''}
              </td>
              <td className={styles.num} data-col="turns">
                {formatCount(g.turn_count)}
              </td>
              <td className={styles.num} data-col="tokens">
                {formatTokens(g.total_input_tokens + g.total_output_tokens)}
              </td>
              <td className={styles.num} data-col="cost">
                {formatCost(g.total_cost_usd)}
              </td>
              <td className={styles.num}>{formatDuration(span(g))}</td>
              <td className={styles.muted} title={g.last_seen ?? ''}>
                {timeAgo(g.last_seen)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
