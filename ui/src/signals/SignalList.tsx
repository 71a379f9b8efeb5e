// The signals on a turn or conversation, one line each: the scorer (linking to its signals),
// its rating or tags, and the reason, as the feedback under a turn shows them.
import { Link } from '@tanstack/react-router';
import { formatTime } from '../format';
import { SignalValue } from './SignalValue';
import { reasonText, scorerOf, type SignalRow, verdictOf } from './signalVerdict';
import styles from './Signals.module.css';

export function SignalList({ projectId, rows }: { projectId: string; rows: readonly SignalRow[] }) {
  if (rows.length === 0) return null;
  const [entity = '', project = ''] = projectId.split('/');
  return (
    <ul className={styles.signalList} data-testid="turn-signals">
      {rows.map((r) => {
        const verdict = verdictOf(r);
        const scorer = scorerOf(r);
        return (
          <li key={r.id} data-testid="turn-signal" data-scorer={scorer} title={formatTime(r.created_at)}>
            <Link
              to="/$entity/$project/agents/signals"
              params={{ entity, project }}
              search={{ scorer }}
              className={styles.signalScorer}
            >
              {scorer}
            </Link>
            <SignalValue verdict={verdict} />
            {verdict.reasons.length > 0 && <span className={styles.signalReason}>{reasonText(verdict)}</span>}
          </li>
        );
      })}
    </ul>
  );
}
