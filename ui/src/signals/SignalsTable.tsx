// One row per scored turn: the scorer, the turn's last message, the agent, its rating or tags,
// the reason, when it was scored. A row opens the turn in its conversation (?turn=).
import { Link, useNavigate } from '@tanstack/react-router';
import { formatTime, timeAgo } from '../format';
import { SignalValue } from './SignalValue';
import { reasonText, scorerOf, type SignalRow, verdictOf } from './signalVerdict';
import styles from './Signals.module.css';

export function SignalsTable({
  entity,
  project,
  rows,
  messages,
}: {
  entity: string;
  project: string;
  rows: SignalRow[];
  /** The turns' last messages by trace id (undefined while they load). */
  messages: Map<string, string> | undefined;
}) {
  const navigate = useNavigate();
  return (
    <table className={styles.table} data-testid="signals">
      <thead>
        <tr>
          <th>Scorer</th>
          <th>Turn</th>
          <th>Agent</th>
          <th>Signal</th>
          <th>Reason</th>
          <th>When</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const verdict = verdictOf(r);
          const traceId = r.span_trace_id ?? '';
          const conversationId = r.span_conversation_id ?? '';
          const message = messages?.get(traceId);
          const open = () =>
            void navigate({
              to: '/$entity/$project/agents/conversations/$conversationId',
              params: { entity, project, conversationId },
              search: { turn: traceId },
            });
          return (
            <tr
              key={r.id}
              data-testid="signal-row"
              data-id={r.id}
              data-trace={traceId}
              data-scorer={scorerOf(r)}
              className={conversationId === '' ? undefined : styles.clickable}
              onClick={(e) => {
                if (conversationId !== '' && !(e.target as HTMLElement).closest('a')) open();
              }}
            >
              <td className={styles.scorer} data-col="scorer">
                {scorerOf(r)}
              </td>
              <td className={styles.preview} title={message ?? ''} data-col="message">
                {conversationId === '' ? (
                  <span className={styles.muted} title="This turn has no conversation id">
                    {message || traceId}
                  </span>
                ) : (
                  <Link
                    to="/$entity/$project/agents/conversations/$conversationId"
                    params={{ entity, project, conversationId }}
                    search={{ turn: traceId }}
                    data-testid="signal-turn"
                  >
                    {message === undefined ? '…' : message || '(no message)'}
                  </Link>
                )}
              </td>
              <td data-col="agent">{r.span_agent_name ?? ''}</td>
              <td data-col="signal">
                <SignalValue verdict={verdict} />
              </td>
              <td className={styles.reason} data-col="reason">
                {reasonText(verdict)}
              </td>
              <td className={styles.when} title={formatTime(r.created_at)} data-col="when">
                {timeAgo(r.created_at)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
