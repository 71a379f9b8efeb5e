// /ui/{entity}/{project}/monitor: the project's calls over time, computed by the server over
// every matching call (POST /ui/api/calls/timeseries), not over a first page of them. The
// filter is the calls view's (same params, same bar); dragging across a chart zooms.
import { useCallback, useEffect, useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { postJson } from '../api/client';
import type { UiTimeseriesRes } from '../api/types';
import { FilterBar } from '../calls/FilterBar';
import { ErrorBanner } from '../shell/ErrorBanner';
import { MonitorCharts } from './MonitorCharts';
import { MonitorTable } from './MonitorTable';
import { MonitorTotals } from './MonitorTotals';
import { RangeBar } from './RangeBar';
import { filterOf, isFiltered, timeseriesRequest, type MonitorFilter, type MonitorSearch } from './monitorSearch';
import styles from './Monitor.module.css';
import { usePageTitle } from '../shell/usePageTitle';

const route = getRouteApi('/$entity/$project/monitor');

function Empty({ search, onReset }: { search: MonitorSearch; onReset: () => void }) {
  const zoomed = search.from !== undefined || search.to !== undefined;
  return (
    <div className={styles.empty} data-testid="monitor-empty">
      <p>
        {zoomed
          ? 'No calls match in this window.'
          : isFiltered(search)
            ? 'No calls match this filter.'
            : 'No calls in this project yet.'}
      </p>
      {zoomed && (
        <button type="button" onClick={onReset}>
          Show all time
        </button>
      )}
    </div>
  );
}

export function MonitorPage() {
  const { entity, project } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const projectId = `${entity}/${project}`;
  usePageTitle(`Monitor · ${projectId}`);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the search's value (its JSON), not its identity
  const request = useMemo(() => timeseriesRequest(projectId, search), [projectId, JSON.stringify(search)]);
  const q = useQuery({
    queryKey: ['ui-timeseries', request],
    queryFn: ({ signal }) => postJson<UiTimeseriesRes>('/ui/api/calls/timeseries', request, signal),
    placeholderData: keepPreviousData,
  });

  // Filter and range edits replace the entry; a zoom pushes one, so Back zooms out.
  const setSearch = useCallback(
    (next: MonitorSearch, push = false) => void navigate({ search: next, replace: !push }),
    [navigate],
  );
  const onFilter = (next: MonitorFilter) => {
    const { from, to, bucket } = search;
    setSearch({ ...filterOf(next), ...(from ? { from } : {}), ...(to ? { to } : {}), ...(bucket ? { bucket } : {}) });
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the search's value (its JSON), not its identity
  const onBrush = useCallback(
    (from: number, to: number) => {
      const { bucket: _, ...rest } = search;
      setSearch(
        {
          ...rest,
          from: new Date(Math.floor(from * 1000)).toISOString(),
          to: new Date(Math.ceil(to * 1000)).toISOString(),
        },
        true,
      );
    },
    [setSearch, JSON.stringify(search)],
  );

  const data = q.data;
  useEffect(() => {
    // Child effects (the charts) have run: they are drawn.
    if (data && !q.isPlaceholderData) performance.mark('weft:view-ready');
  }, [data, q.isPlaceholderData]);

  return (
    <div className={styles.page} data-testid="monitor" aria-busy={q.isFetching}>
      <FilterBar search={search} onChange={onFilter} />
      <RangeBar entity={entity} project={project} search={search} data={data} onChange={(next) => setSearch(next)} />
      <div className={styles.body}>
        {q.isError && <ErrorBanner error={q.error} onRetry={() => void q.refetch()} />}
        {q.isPending && !q.isError && (
          <p className={styles.loading} data-testid="loading">
            Computing the time series…
          </p>
        )}
        {data && data.totals.calls === 0 && !q.isError && (
          <Empty search={search} onReset={() => setSearch({ ...filterOf(search) })} />
        )}
        {data && data.totals.calls > 0 && !q.isError && (
          <div className={q.isPlaceholderData ? styles.stale : undefined} data-testid="monitor-content">
            <MonitorTotals totals={data.totals} traces={search.roots !== false} />
            <MonitorCharts data={data} onBrush={onBrush} />
            <MonitorTable data={data} />
          </div>
        )}
      </div>
    </div>
  );
}
