// /ui/{entity}/{project}/calls: the project's calls, filtered and sorted on the server.
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { ErrorBanner } from '../shell/ErrorBanner';
import { typingIn } from '../shell/Shell';
import { formatCount } from '../format';
import { CallsTable } from './CallsTable';
import { CALL_COLUMNS, ID_COLUMN, pathColumn } from './callColumns';
import { ColumnPicker } from './ColumnPicker';
import { DeleteCalls } from './DeleteCalls';
import { ExportButton } from './ExportButton';
import { FilterBar } from './FilterBar';
import { TimeRangePicker } from './TimeRangePicker';
import { FirstTrace } from './FirstTrace';
import { useColumnLayout } from './useColumnLayout';
import { callsFilterRequest, sortOf, type CallsSearch } from './callsSearch';
import { ROW_COLUMNS, useCallWindows } from './useCallWindows';
import styles from './CallsPage.module.css';
import { usePageTitle } from '../shell/usePageTitle';

// The drawer carries the call detail's renderers: loaded when first opened.
const PeekDrawer = lazy(() => import('./PeekDrawer').then((m) => ({ default: m.PeekDrawer })));

const route = getRouteApi('/$entity/$project/calls');

export function CallsPage() {
  const { entity, project } = route.useParams();
  const search = route.useSearch();
  // The peek drawer is not part of what the table asks for.
  const { peek, ...view } = search;
  const navigate = route.useNavigate();
  const projectId = `${entity}/${project}`;
  usePageTitle(`Calls · ${projectId}`);
  const sort = sortOf(search);
  const cols = search.cols ?? [];
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the column paths' value; `cols` is a new array each time the URL is read
  const columns = useMemo(() => [...CALL_COLUMNS, ...cols.map(pathColumn), ID_COLUMN], [cols.join('\n')]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the view's value (its JSON), not its identity, which is new on every navigation
  const filterRequest = useMemo(() => callsFilterRequest(projectId, view), [projectId, JSON.stringify(view)]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the view's value, like filterRequest; sort and columns are part of the view
  const request = useMemo(
    () => ({
      ...filterRequest,
      sort_by: [sort],
      columns: [...new Set([...ROW_COLUMNS, ...cols.map((c) => c.split('.')[0]!)])],
      include_costs: true,
      include_feedback: true,
    }),
    [projectId, JSON.stringify(view)],
  );
  const [layout, setLayout] = useColumnLayout(projectId);
  const [range, setRange] = useState<[number, number]>([0, 50]);
  const onRange = useCallback((a: number, b: number) => setRange([a, b]), []);
  const data = useCallWindows(request, range[0], range[1]);
  const [selected, setSelected] = useState(-1);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new request (filter, sort or columns) clears the selection: the request is the trigger
  useEffect(() => setSelected(-1), [request]);
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const check = useCallback(
    (c: { id: string }) =>
      setChecked((s) => {
        const n = new Set(s);
        if (!n.delete(c.id)) n.add(c.id);
        return n;
      }),
    [],
  );

  // Nothing narrows the view, so no calls means an empty project (roots-only: a project's
  // every call belongs to a trace with a root).
  const unfiltered = !view.f?.length && !view.op && !view.errors && !view.from && !view.to;
  // The first rows show as soon as they arrive; the count (which may scan more) follows.
  const rowCount = data.total ?? data.firstWindow ?? 0;
  const setSearch = (next: CallsSearch) => void navigate({ search: next, replace: true });
  const open = useCallback(
    (callId: string) =>
      void navigate({ to: '/$entity/$project/calls/$callId', params: { entity, project, callId }, search: {} }),
    [navigate, entity, project],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: setSearch is rebuilt each render; the listener is re-bound when anything it reads changes
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typingIn(e) || e.metaKey || e.ctrlKey || e.altKey || rowCount === 0) return;
      if (e.key === 'j' || e.key === 'ArrowDown') setSelected((s) => Math.min(s + 1, rowCount - 1));
      else if (e.key === 'k' || e.key === 'ArrowUp') setSelected((s) => Math.max(s - 1, 0));
      else if (e.key === 'Enter' && selected >= 0) {
        const c = data.row(selected);
        if (c) open(c.id);
      } else if (e.key === ' ' && selected >= 0) {
        const c = data.row(selected);
        if (c) setSearch({ ...search, peek: peek === c.id ? undefined : c.id });
      } else if (e.key === 'Escape' && peek) setSearch({ ...search, peek: undefined });
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [data, selected, open, rowCount, peek, search]);

  // With the drawer open, it follows the selection.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the drawer follows a change of selection only, not every change of the URL
  useEffect(() => {
    const c = selected >= 0 ? data.row(selected) : undefined;
    if (peek && c && c.id !== peek) setSearch({ ...search, peek: c.id });
  }, [selected]);

  useEffect(() => {
    if (data.total === 0 || data.row(0) !== undefined) performance.mark('weft:view-ready');
  }, [data]);

  return (
    <div className={styles.page}>
      <FilterBar search={search} onChange={setSearch} />
      <div className={styles.status}>
        <ColumnPicker
          request={filterRequest}
          columns={columns.map((c) => ({ id: c.id!, header: String(c.header ?? '') }))}
          layout={layout}
          onLayout={setLayout}
          cols={cols}
          onChange={(next) => setSearch({ ...search, cols: next.length > 0 ? next : undefined })}
        />
        <TimeRangePicker
          range={{ from: search.from, to: search.to }}
          onChange={({ from, to }) => {
            const { from: _f, to: _t, ...rest } = search;
            setSearch({ ...rest, ...(from ? { from } : {}), ...(to ? { to } : {}) });
          }}
        />
        <span className={styles.total} data-testid="calls-total">
          {data.total === null
            ? 'Counting…'
            : `${formatCount(data.total)} ${search.roots === false ? 'call' : 'trace'}${data.total === 1 ? '' : 's'}`}
        </span>
        <ExportButton request={{ ...filterRequest, sort_by: [sort] }} cols={cols} total={data.total} />
        {checked.size > 0 && (
          <span className={styles.actions}>
            <span data-testid="checked-count">{checked.size} selected</span>
            <button
              type="button"
              disabled={checked.size < 2}
              onClick={() =>
                void navigate({
                  to: '/$entity/$project/compare',
                  params: { entity, project },
                  search: { ids: [...checked] },
                })
              }
              data-testid="compare-selected"
            >
              Compare
            </button>
            <DeleteCalls projectId={projectId} ids={[...checked]} onDone={() => setChecked(new Set())} />
            <button type="button" onClick={() => setChecked(new Set())}>
              Clear
            </button>
          </span>
        )}
      </div>
      {data.totalError !== null && data.totalError !== undefined ? (
        <ErrorBanner error={data.totalError} onRetry={data.refetch} />
      ) : data.error ? (
        <ErrorBanner error={data.error} onRetry={data.refetch} />
      ) : null}
      {data.total === 0 &&
        (unfiltered ? (
          <FirstTrace projectId={projectId} />
        ) : (
          <p className={styles.empty} data-testid="no-calls">
            No calls match.
          </p>
        ))}
      {rowCount > 0 && (
        <div className={styles.body}>
          <CallsTable
            columns={columns}
            checked={checked}
            onCheck={check}
            onPeek={(i, c) => {
              setSelected(i);
              setSearch({ ...search, peek: c.id });
            }}
            total={rowCount}
            row={data.row}
            sort={sort}
            onSort={(field) =>
              setSearch({
                ...search,
                sort: `${field}:${sort.field === field && sort.direction === 'desc' ? 'asc' : 'desc'}`,
              })
            }
            onOpen={(c) => open(c.id)}
            selected={selected}
            onSelect={setSelected}
            onRange={onRange}
            layout={layout}
            onLayout={setLayout}
          />
          {peek && (
            <Suspense fallback={<aside className={styles.peek} />}>
              <PeekDrawer
                entity={entity}
                project={project}
                callId={peek}
                onClose={() => setSearch({ ...search, peek: undefined })}
              />
            </Suspense>
          )}
        </div>
      )}
    </div>
  );
}
