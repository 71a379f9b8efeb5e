// /ui/{entity}/{project}/compare?ids=[...]: two or more calls side by side. The first call is
// the left side, the one picked (`right`, default the second) the right; what is compared is
// each call's op, inputs, output, exception, usage and latency as JSON with sorted keys, with
// changed lines and words marked, and unchanged lines folded away on request.
import { useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { postJson } from '../api/client';
import type { Call, CallReadReq } from '../api/types';
import { ErrorBanner } from '../shell/ErrorBanner';
import { latencyMs } from '../call/callFacts';
import { formatTime, opShortName } from '../format';
import { DiffTable } from '../objects/DiffTable';
import { countChanges, sideBySide, visibleRows } from '../objects/lineDiff';
import { stableStringify } from '../objects/valueText';
import styles from './Compare.module.css';
import { usePageTitle } from '../shell/usePageTitle';

const route = getRouteApi('/$entity/$project/compare');

/** What of a call is compared: its meaning, not its ids or timestamps. */
function comparable(c: Call): unknown {
  const summary = (c.summary ?? {}) as { usage?: unknown; weave?: { costs?: unknown } };
  return {
    op: opShortName(c.op_name),
    display_name: c.display_name ?? null,
    inputs: c.inputs,
    output: c.output ?? null,
    exception: c.exception ?? null,
    usage: summary.usage ?? null,
    latency_ms: latencyMs(c),
  };
}

export function CompareCallsPage() {
  const { entity, project } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const projectId = `${entity}/${project}`;
  usePageTitle(`Compare calls · ${projectId}`);
  const ids = search.ids ?? [];
  const calls = useQueries({
    queries: ids.map((id) => ({
      queryKey: ['call', projectId, id],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        postJson<{ call: Call | null }>(
          '/call/read',
          { project_id: projectId, id, include_costs: true } satisfies CallReadReq,
          signal,
        ),
    })),
  });
  const rightId = search.right ?? ids[1];
  const left = calls[0]?.data?.call ?? null;
  const right = calls[ids.indexOf(rightId ?? '')]?.data?.call ?? null;
  const rows = useMemo(
    () => (left && right ? sideBySide(stableStringify(comparable(left)), stableStringify(comparable(right))) : []),
    [left, right],
  );
  const shown = useMemo(() => visibleRows(rows, search.diffOnly === 1), [rows, search.diffOnly]);
  const counts = countChanges(rows);
  const error = calls.find((c) => c.error)?.error;
  const set = (patch: Record<string, unknown>) => void navigate({ search: (s) => ({ ...s, ...patch }), replace: true });
  if (ids.length < 2)
    return (
      <p className={styles.page}>
        Tick two or more calls in the{' '}
        <Link to="/$entity/$project/calls" params={{ entity, project }}>
          calls table
        </Link>{' '}
        to compare them.
      </p>
    );
  const head = (c: Call) => (
    <span>
      <Link to="/$entity/$project/calls/$callId" params={{ entity, project, callId: c.id }}>
        {c.display_name || opShortName(c.op_name)}
      </Link>{' '}
      <span className={styles.muted}>{formatTime(c.started_at)}</span>
    </span>
  );
  return (
    <div className={styles.page}>
      <div className={styles.bar}>
        <h1>Compare calls</h1>
        <span className={styles.muted} data-testid="compare-counts">
          {counts.changed + counts.added + counts.removed} changed lines
        </span>
        {ids.length > 2 && (
          <label>
            against
            <select value={rightId} onChange={(e) => set({ right: e.target.value })} data-testid="compare-right">
              {ids.slice(1).map((id, i) => (
                <option key={id} value={id}>
                  call {i + 2} · {id.slice(-8)}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          <input
            type="checkbox"
            checked={search.diffOnly === 1}
            onChange={(e) => set({ diffOnly: e.target.checked ? 1 : undefined })}
            data-testid="compare-diff-only"
          />{' '}
          Changes only
        </label>
      </div>
      {error ? <ErrorBanner error={error} onRetry={() => calls.forEach((c) => void c.refetch())} /> : null}
      {calls.some((c) => c.isPending) && <p className={styles.muted}>Loading calls…</p>}
      {calls.every((c) => c.data) && (!left || !right) && (
        <p className={styles.muted}>A call of this comparison no longer exists.</p>
      )}
      {left && right && (
        <DiffTable left={head(left)} right={head(right)} shown={shown} onUnfold={() => set({ diffOnly: undefined })} />
      )}
    </div>
  );
}
