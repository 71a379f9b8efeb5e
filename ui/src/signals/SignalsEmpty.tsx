// What the Signals view says when it has no rows: none match the filters (clear them), or no
// turn was scored in the window (create a signal: a monitor of agent turns).
import { Link } from '@tanstack/react-router';
import styles from './Signals.module.css';

export function SignalsEmpty({
  entity,
  project,
  filtered,
  onClear,
}: {
  entity: string;
  project: string;
  filtered: boolean;
  onClear: () => void;
}) {
  if (filtered)
    return (
      <div className={styles.empty} data-testid="signals-empty" data-filtered="true">
        <p>No signals match these filters in this window.</p>
        <button type="button" onClick={onClear} data-testid="clear-filters">
          Clear the filters
        </button>
      </div>
    );
  return (
    <div className={styles.empty} data-testid="signals-empty" data-filtered="false">
      <p>
        <strong>No turn was scored in this window.</strong> A signal is a judge that scores each agent turn as it ends:
        a rating from 0 to 1 (user satisfaction, response quality…) or tags (user frustration, NSFW…).
      </p>
      <Link
        to="/$entity/$project/monitors"
        params={{ entity, project }}
        search={{ new: 'agent_turn' }}
        className={styles.cta}
        data-testid="create-signal"
      >
        Create a signal →
      </Link>
    </div>
  );
}
