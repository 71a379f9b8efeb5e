// /ui/{entity}/{project}/evaluations: every evaluation run, newest first, with its model and
// scores; pick two or more to compare.
import { useState } from 'react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { ErrorBanner } from '../shell/ErrorBanner';
import { StatusDot } from '../shell/icons';
import { callStatus } from '../call/callFacts';
import { formatCount, formatTime } from '../format';
import { evalRun } from './evalData';
import { useEvaluateCalls } from './useEvaluations';
import styles from './Evaluations.module.css';
import { usePageTitle } from '../shell/usePageTitle';

const route = getRouteApi('/$entity/$project/evaluations');
const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(3));

export function EvaluationsPage() {
  const { entity, project } = route.useParams();
  usePageTitle(`Evaluations · ${entity}/${project}`);
  const navigate = route.useNavigate();
  const q = useEvaluateCalls(`${entity}/${project}`);
  const [picked, setPicked] = useState<string[]>([]);
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]));
  return (
    <div className={styles.page}>
      <div className={styles.bar}>
        <h1>Evaluations</h1>
        {q.data && (
          <span className={styles.muted} data-testid="evaluations-total">
            {formatCount(q.data.length)} runs
          </span>
        )}
        <button
          type="button"
          disabled={picked.length < 2}
          data-testid="compare"
          onClick={() =>
            void navigate({
              to: '/$entity/$project/evaluations/compare',
              params: { entity, project },
              search: { ids: picked },
            })
          }
        >
          Compare {picked.length >= 2 ? picked.length : ''}
        </button>
      </div>
      {q.isPending && <p className={styles.muted}>Loading evaluations…</p>}
      {q.isError && <ErrorBanner error={q.error} onRetry={() => void q.refetch()} />}
      {q.data && q.data.length === 0 && (
        <p className={styles.muted} data-testid="no-evaluations">
          No evaluations yet: run a weave Evaluation and its runs appear here.
        </p>
      )}
      {q.data && q.data.length > 0 && (
        <table className={styles.table} data-testid="evaluations">
          <thead>
            <tr>
              <th />
              <th />
              <th>Evaluation</th>
              <th>Model</th>
              <th>Scores</th>
              <th>Started</th>
            </tr>
          </thead>
          <tbody>
            {q.data.map(evalRun).map((r) => (
              <tr key={r.call.id} data-id={r.call.id}>
                <td>
                  <input
                    type="checkbox"
                    checked={picked.includes(r.call.id)}
                    onChange={() => toggle(r.call.id)}
                    aria-label={`Select ${r.name} of ${r.model}`}
                  />
                </td>
                <td>
                  <StatusDot status={callStatus(r.call)} />
                </td>
                <td>
                  <Link to="/$entity/$project/calls/$callId" params={{ entity, project, callId: r.call.id }}>
                    {r.name}
                  </Link>
                </td>
                <td>{r.model}</td>
                <td className={styles.metrics}>
                  {[...r.metrics]
                    .filter(([k]) => !k.startsWith('model_'))
                    .slice(0, 4)
                    .map(([k, v]) => (
                      <span key={k}>
                        <span className={styles.muted}>{k}</span> {fmt(v)}
                      </span>
                    ))}
                </td>
                <td className={styles.muted}>{formatTime(r.call.started_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
