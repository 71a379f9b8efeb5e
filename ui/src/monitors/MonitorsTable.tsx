// The project's monitors, one row each: name and description, what it scores (turns, or the
// calls of its ops, with its filter), its scorers, sample rate, the on/off switch, its health
// (the last error and when) and jobs; Edit opens the form, Backfill the panel under the row.
import { Link } from '@tanstack/react-router';
import { Fragment, useState } from 'react';
import type { MonitorHealth, SignalPreset } from '../api/types';
import { opShortName } from '../format';
import { ActiveToggle } from './ActiveToggle';
import { BackfillPanel } from './BackfillPanel';
import { filterText } from './monitorDraft';
import { isTurnMonitor, type Monitor, type ScorerInfo } from './monitorsApi';
import { JobCounts, MonitorStatus } from './MonitorStatus';
import { ScorerSummary } from './ScorerSummary';
import styles from './Monitors.module.css';

const percent = (rate: number | undefined) => `${Math.round((rate ?? 1) * 1000) / 10}%`;

function TargetCell({ m }: { m: Monitor }) {
  const turns = isTurnMonitor(m.val);
  const filter = filterText(m.val.query);
  return (
    <td data-col="target">
      <span className={styles.kind} data-testid="monitor-target" data-target={turns ? 'agent_turn' : 'call'}>
        {turns ? 'Agent turns' : 'Calls'}
      </span>
      {!turns && <div className={styles.ops}>{(m.val.op_names ?? []).map(opShortName).join(', ')}</div>}
      {filter !== null && (
        <div className={styles.muted} title={filter}>
          where {filter}
        </div>
      )}
    </td>
  );
}

export function MonitorsTable({
  entity,
  project,
  monitors,
  scorers,
  presets,
  health,
}: {
  entity: string;
  project: string;
  monitors: Monitor[];
  scorers: Map<string, ScorerInfo>;
  presets: readonly SignalPreset[];
  health: Map<string, MonitorHealth> | undefined;
}) {
  const projectId = `${entity}/${project}`;
  const [backfill, setBackfill] = useState<string | null>(null);
  return (
    <table className={styles.table} data-testid="monitors">
      <thead>
        <tr>
          <th>Monitor</th>
          <th>Scores</th>
          <th>Scorer</th>
          <th className={styles.num}>Sample</th>
          <th>Active</th>
          <th>Status</th>
          <th>Jobs</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {monitors.map((m) => (
          <Fragment key={m.id}>
            <tr data-testid="monitor-row" data-id={m.id} data-active={m.val.active !== false}>
              <td data-col="name">
                <strong>{m.id}</strong> <span className={styles.muted}>v{m.versionIndex}</span>
                {m.val.description && <div className={styles.muted}>{m.val.description}</div>}
              </td>
              <TargetCell m={m} />
              <td data-col="scorer">
                <ScorerSummary refs={m.val.scorers ?? []} scorers={scorers} presets={presets} />
              </td>
              <td className={styles.num} data-col="sample">
                {percent(m.val.sampling_rate)}
              </td>
              <td data-col="active">
                <ActiveToggle projectId={projectId} monitorId={m.id} active={m.val.active !== false} />
              </td>
              <td data-col="status">
                <MonitorStatus health={health?.get(m.id)} />
              </td>
              <td data-col="jobs">
                <JobCounts health={health?.get(m.id)} />
              </td>
              <td className={styles.actions}>
                <Link
                  to="/$entity/$project/monitors"
                  params={{ entity, project }}
                  search={{ edit: m.id }}
                  data-testid="monitor-edit"
                >
                  Edit
                </Link>
                <button
                  type="button"
                  className={styles.linkButton}
                  aria-expanded={backfill === m.id}
                  onClick={() => setBackfill(backfill === m.id ? null : m.id)}
                  data-testid="monitor-backfill"
                >
                  Backfill
                </button>
              </td>
            </tr>
            {backfill === m.id && (
              <tr className={styles.backfillRow}>
                <td colSpan={8}>
                  <BackfillPanel
                    projectId={projectId}
                    monitorId={m.id}
                    what={isTurnMonitor(m.val) ? 'turns' : 'calls'}
                    onClose={() => setBackfill(null)}
                  />
                </td>
              </tr>
            )}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}
