// A monitor's health from its score jobs: failing (the latest outcome was an error, which is
// shown with when), ok (when it last scored), or nothing ran yet; and its jobs by state.
import type { MonitorHealth } from '../api/types';
import { formatCount, formatTime, timeAgo } from '../format';
import { StatusDot } from '../shell/icons';
import styles from './Monitors.module.css';

export function MonitorStatus({ health }: { health: MonitorHealth | undefined }) {
  const status = health?.status ?? null;
  return (
    <div className={styles.status} data-testid="monitor-status" data-status={status ?? 'none'}>
      {status === 'error' && (
        <>
          <span className={styles.statusLine}>
            <StatusDot status="error" /> <strong className={styles.error}>Failing</strong>{' '}
            <span className={styles.muted} title={formatTime(health?.last_error_at)}>
              {timeAgo(health?.last_error_at)}
            </span>
          </span>
          <span className={styles.lastError} data-testid="monitor-last-error">
            {health?.last_error}
          </span>
        </>
      )}
      {status === 'ok' && (
        <span className={styles.statusLine}>
          <StatusDot status="success" /> OK{' '}
          <span className={styles.muted} title={formatTime(health?.last_scored_at)}>
            scored {timeAgo(health?.last_scored_at)}
          </span>
        </span>
      )}
      {status === null && <span className={styles.muted}>Nothing scored yet</span>}
    </div>
  );
}

export function JobCounts({ health }: { health: MonitorHealth | undefined }) {
  if (health === undefined) return <span className={styles.muted}>none yet</span>;
  const parts: [string, number][] = [
    ['queued', health.queued],
    ['running', health.running],
    ['done', health.done],
    ['failed', health.failed],
  ];
  return (
    <span
      className={styles.jobs}
      title={parts.map(([label, n]) => `${formatCount(n)} ${label}`).join(', ')}
      data-testid="monitor-jobs"
    >
      {parts
        .filter(([, n]) => n > 0)
        .map(([label, n]) => (
          <span key={label} data-state={label} data-count={n} className={label === 'failed' ? styles.error : undefined}>
            {formatCount(n)} {label}
          </span>
        ))}
    </span>
  );
}
