// Scores what is already stored: the monitor over the turns or calls of the last hour, day or
// week (its filter applied, not its sample), through the same queue; says how many matched and
// how many were queued (a target the monitor version already scored is not queued again).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../api/client';
import { formatCount } from '../format';
import segmented from '../shell/Segmented.module.css';
import { backfillMonitor } from './monitorsApi';
import styles from './Monitors.module.css';

const HOUR = 3_600_000;
const RANGES = [
  ['1h', 'last hour', HOUR],
  ['24h', 'last day', 24 * HOUR],
  ['7d', 'last week', 7 * 24 * HOUR],
] as const;
type RangeId = (typeof RANGES)[number][0];

export function BackfillPanel({
  projectId,
  monitorId,
  what,
  onClose,
}: {
  projectId: string;
  monitorId: string;
  /** "turns" or "calls". */
  what: string;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [range, setRange] = useState<RangeId>('24h');
  const run = useMutation({
    mutationFn: () => {
      const now = Date.now();
      const ms = RANGES.find(([id]) => id === range)![2];
      return backfillMonitor({
        project_id: projectId,
        monitor_ref: monitorId,
        after: new Date(now - ms).toISOString(),
        before: new Date(now).toISOString(),
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['monitor-health', projectId] }),
  });
  return (
    <div className={styles.backfill} data-testid="backfill-panel" data-monitor={monitorId}>
      <span>Score the {what} of the</span>
      <div className={segmented.segmented} role="group" aria-label="Backfill window">
        {RANGES.map(([id, label]) => (
          <button
            type="button"
            key={id}
            aria-pressed={range === id}
            onClick={() => setRange(id)}
            data-testid={`backfill-range-${id}`}
          >
            {label}
          </button>
        ))}
      </div>
      <button type="button" disabled={run.isPending} onClick={() => run.mutate()} data-testid="backfill-run">
        {run.isPending ? 'Queueing…' : 'Queue'}
      </button>
      {run.data && (
        <span data-testid="backfill-result" data-matched={run.data.matched} data-queued={run.data.queued}>
          {formatCount(run.data.matched)} matched · {formatCount(run.data.queued)} queued
        </span>
      )}
      {run.isError && (
        <span className={styles.error} role="alert" data-testid="backfill-error">
          {run.error instanceof ApiError ? run.error.reason : String(run.error)}
        </span>
      )}
      <button type="button" className={styles.linkButton} onClick={onClose} data-testid="backfill-close">
        Close
      </button>
    </div>
  );
}
