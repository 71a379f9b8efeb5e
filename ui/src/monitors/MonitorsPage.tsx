// /ui/{entity}/{project}/monitors: the project's monitors (Weave's Monitor objects): what each
// scores and how, whether it is on, its health and jobs, with the form to create or edit one
// (`?new=`, `?edit=`) beside the list, and a backfill per monitor. Monitors of agent turns are
// the signals the Signals view shows.
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { defaultModel } from '../playground/modelProvider';
import { useCompletionModels } from '../playground/playgroundApi';
import { ErrorBanner } from '../shell/ErrorBanner';
import { usePageTitle } from '../shell/usePageTitle';
import { draftOf, emptyDraft, type MonitorDraft } from './monitorDraft';
import { MonitorForm } from './MonitorForm';
import { useMonitorHealth, useMonitors, useOpNames, usePresets } from './monitorsApi';
import { MonitorsTable } from './MonitorsTable';
import styles from './Monitors.module.css';

const route = getRouteApi('/$entity/$project/monitors');

export function MonitorsPage() {
  const { entity, project } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const projectId = `${entity}/${project}`;
  usePageTitle(`Monitors · ${projectId}`);
  const queryClient = useQueryClient();
  const list = useMonitors(projectId);
  const health = useMonitorHealth(projectId);
  const presets = usePresets(projectId);
  const models = useCompletionModels(projectId);
  const formOpen = search.new !== undefined || search.edit !== undefined;
  const ops = useOpNames(projectId, formOpen);
  const editing = search.edit === undefined ? undefined : list.data?.monitors.find((m) => m.id === search.edit);
  const providers = models.data?.providers ?? [];
  const ready = presets.data !== undefined && models.data !== undefined && (search.edit === undefined || list.data);
  let initial: MonitorDraft | null = null;
  if (ready && search.new) initial = emptyDraft(search.new, defaultModel(providers) ?? '');
  if (ready && editing)
    initial = draftOf(editing, list.data?.scorers.get(editing.val.scorers?.[0] ?? ''), presets.data ?? []);
  const close = () => void navigate({ search: {}, replace: true });
  const error = list.error ?? presets.error ?? models.error;
  return (
    <div className={styles.page}>
      <div className={styles.bar}>
        <h1>
          Monitors{' '}
          {list.data && (
            <span className={styles.muted} data-testid="monitors-total">
              {list.data.monitors.length}
            </span>
          )}
        </h1>
        <span className={styles.muted}>
          Judges that score agent turns (signals) or calls as they end; the scores are feedback.
        </span>
        <span className={styles.spacer} />
        <Link
          to="/$entity/$project/monitors"
          params={{ entity, project }}
          search={{ new: 'agent_turn' }}
          className={styles.button}
          data-testid="new-turn-monitor"
        >
          New signal (turns)
        </Link>
        <Link
          to="/$entity/$project/monitors"
          params={{ entity, project }}
          search={{ new: 'call' }}
          className={styles.button}
          data-testid="new-call-monitor"
        >
          New call monitor
        </Link>
        <Link to="/$entity/$project/agents/signals" params={{ entity, project }} data-testid="to-signals">
          Signals →
        </Link>
      </div>
      {error && <ErrorBanner error={error} onRetry={() => void queryClient.invalidateQueries()} />}
      <div className={formOpen ? styles.layout : undefined}>
        <div className={styles.list}>
          {list.isPending && <p className={styles.muted}>Loading monitors…</p>}
          {list.data?.monitors.length === 0 && (
            <p className={styles.empty} data-testid="no-monitors">
              No monitors yet. A monitor scores what ends in this project with a judge (a preset signal, your own tags
              or prompt) or a remote scorer: create one above.
            </p>
          )}
          {list.data && list.data.monitors.length > 0 && (
            <MonitorsTable
              entity={entity}
              project={project}
              monitors={list.data.monitors}
              scorers={list.data.scorers}
              presets={presets.data ?? []}
              health={health.data}
            />
          )}
        </div>
        {search.edit !== undefined && list.data && editing === undefined && (
          <ErrorBanner error={`No monitor ${search.edit} in ${projectId}`} />
        )}
        {formOpen && initial !== null && (
          <MonitorForm
            key={search.edit ?? `new-${search.new}`}
            entity={entity}
            project={project}
            initial={initial}
            editing={editing !== undefined}
            presets={presets.data ?? []}
            providers={providers}
            ops={ops.data ?? []}
            onCancel={close}
            onDone={() => {
              void queryClient.invalidateQueries({ queryKey: ['monitors', projectId] });
              close();
            }}
          />
        )}
      </div>
    </div>
  );
}
