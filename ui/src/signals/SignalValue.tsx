// A verdict at a glance: the rating as a number over a small meter (0-1; other numbers as they
// are), the tags as chips. The reasons go in the title, and beside it where there is room.
import { readableNumber } from '../format';
import { reasonText, type Verdict } from './signalVerdict';
import styles from './Signals.module.css';

export function SignalValue({ verdict }: { verdict: Verdict }) {
  const { rating, tags } = verdict;
  const title = reasonText(verdict) || undefined;
  return (
    <span className={styles.value} title={title} data-testid="signal-value">
      {rating !== null && (
        <span className={styles.rating} data-testid="signal-rating" data-rating={rating}>
          {rating >= 0 && rating <= 1 && (
            <span className={styles.meter} aria-hidden="true">
              <span style={{ width: `${Math.round(rating * 100)}%` }} />
            </span>
          )}
          {readableNumber(rating)}
        </span>
      )}
      {tags.map((t) => (
        <span key={t} className={styles.tag} data-testid="signal-tag" data-tag={t}>
          {t}
        </span>
      ))}
      {rating === null && tags.length === 0 && <span className={styles.muted}>no score</span>}
    </span>
  );
}
