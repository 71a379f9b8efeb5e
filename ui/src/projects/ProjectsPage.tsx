// /ui/: every project the caller may read, newest activity first.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { getJson } from '../api/client';
import type { UiProjectsRes } from '../api/types';
import { ErrorBanner } from '../shell/ErrorBanner';
import { formatCount, formatTime, timeAgo } from '../format';
import styles from './ProjectsPage.module.css';
import { usePageTitle } from '../shell/usePageTitle';

export function ProjectsPage() {
  usePageTitle('Projects');
  const q = useQuery({
    queryKey: ['ui-projects'],
    queryFn: ({ signal }) => getJson<UiProjectsRes>('/ui/api/projects', signal),
  });
  return (
    <div className={styles.page}>
      <h1>Projects</h1>
      {q.isPending && (
        <p className={styles.muted} data-testid="loading">
          Loading projects…
        </p>
      )}
      {q.isError && <ErrorBanner error={q.error} onRetry={() => void q.refetch()} />}
      {q.data && q.data.projects.length === 0 && (
        <div className={styles.empty} data-testid="no-projects">
          <p>No projects yet. Point an SDK at this server and log a call:</p>
          <pre>{`import * as weave from 'weave';\nawait weave.init('my-team/my-project');`}</pre>
          <p className={styles.muted}>with WF_TRACE_SERVER_URL={window.location.origin}</p>
        </div>
      )}
      {q.data && q.data.projects.length > 0 && (
        <table className={styles.table} data-testid="projects">
          <thead>
            <tr>
              <th>Project</th>
              <th className={styles.num}>Calls</th>
              <th>Last call</th>
            </tr>
          </thead>
          <tbody>
            {q.data.projects.map((p) => (
              <tr key={p.project_id} data-id={p.project_id}>
                <td>
                  <Link to="/$entity/$project/calls" params={{ entity: p.entity, project: p.project }}>
                    {p.project_id}
                  </Link>
                </td>
                <td className={styles.num}>{formatCount(p.call_count)}</td>
                <td title={formatTime(p.last_call_at)} data-testid="volatile">
                  {timeAgo(p.last_call_at)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
