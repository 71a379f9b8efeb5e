// Switches a monitor on or off (a new version of it with `active` changed, as the Weave SDK's
// activate / deactivate write it). While off, nothing new is scored; a backfill still runs.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { setMonitorActive } from './monitorsApi';
import styles from './Monitors.module.css';

export function ActiveToggle({
  projectId,
  monitorId,
  active,
}: {
  projectId: string;
  monitorId: string;
  active: boolean;
}) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (next: boolean) => setMonitorActive(projectId, monitorId, next),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['monitors', projectId] }),
  });
  const shown = toggle.isPending ? (toggle.variables ?? active) : active;
  return (
    <span className={styles.toggleCell}>
      <label className={styles.switch} title={shown ? 'On: scoring new targets' : 'Off: scoring nothing new'}>
        <input
          type="checkbox"
          role="switch"
          aria-checked={shown}
          checked={shown}
          disabled={toggle.isPending}
          aria-label={`${monitorId} active`}
          onChange={(e) => toggle.mutate(e.target.checked)}
          data-testid="monitor-active-toggle"
        />
        <span>{shown ? 'On' : 'Off'}</span>
      </label>
      {toggle.isError && (
        <span className={styles.error} role="alert">
          {toggle.error instanceof ApiError ? toggle.error.reason : String(toggle.error)}
        </span>
      )}
    </span>
  );
}
