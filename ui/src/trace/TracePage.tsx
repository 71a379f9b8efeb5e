// /ui/{entity}/{project}/calls/{callId}: that call inside its whole trace. The tree streams
// the trace's skeleton; the selected call (?call=, default the one in the path) loads its
// detail on its own.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { ApiError } from '../api/client';
import { CallDetail } from '../call/CallDetail';
import { ErrorBanner } from '../shell/ErrorBanner';
import { typingIn } from '../shell/Shell';
import { formatCost, formatCount, formatDuration, opShortName } from '../format';
import { ErrorNav } from './ErrorNav';
import { nameMatcher, type Tab, zoomOf } from './traceSearch';
import { TimeAxis } from './TimeAxis';
import { TraceTree, type ScrollRequest } from './TraceTree';
import { treeMove } from './traceKeys';
import { useTraceStream } from './useTraceStream';
import styles from './TracePage.module.css';
import { usePageTitle } from '../shell/usePageTitle';

const route = getRouteApi('/$entity/$project/calls/$callId');

export function TracePage() {
  const { entity, project, callId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const projectId = `${entity}/${project}`;
  usePageTitle(`Trace · ${projectId}`);
  const selected = search.call ?? callId;
  const [attempt, setAttempt] = useState(0);

  const stream = useTraceStream(projectId, callId, attempt);
  const { index } = stream;
  const missing = stream.error instanceof ApiError && stream.error.status === 404;

  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const maxDepth = search.depth ?? null;
  const isOpen = useCallback(
    (id: string, depth: number) => index.isOpen(id, depth, collapsed, maxDepth),
    [index, collapsed, maxDepth],
  );
  const errorsOnly = search.errors === 1;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the index mutates as the trace streams in; stream.version says when
  const flat = useMemo(
    () => index.flatten(collapsed, maxDepth, errorsOnly ? index.errorPaths() : null),
    [index, stream.version, collapsed, maxDepth, errorsOnly],
  );
  const [scrollRequest, setScrollRequest] = useState<ScrollRequest | null>(null);

  // A deep link opens every ancestor of the selected call, once it has arrived.
  const selectedLoaded = index.rows.has(selected);
  // biome-ignore lint/correctness/useExhaustiveDependencies: opens the ancestors when the selected call arrives or changes; isOpen and index are read at that moment
  useEffect(() => {
    if (!selectedLoaded) return;
    const closed = index.ancestors(selected).filter((a) => !isOpen(a, index.depthOf(a)));
    if (closed.length > 0)
      setCollapsed((c) => {
        const n = new Set(c);
        for (const a of closed) {
          n.delete(a);
          n.add(`+${a}`);
        }
        return n;
      });
    setScrollRequest((r) => r ?? { id: selected, align: 'center' });
  }, [selectedLoaded, selected]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: marks the first row once, when the tree stops being empty
  useEffect(() => {
    if (flat.ids.length > 0) performance.mark('weft:first-row');
  }, [flat.ids.length > 0]);
  useEffect(() => {
    if (stream.done && !stream.error) performance.mark('weft:trace-ready');
  }, [stream.done, stream.error]);

  const select = useCallback(
    (id: string) => void navigate({ search: (s) => ({ ...s, call: id === callId ? undefined : id }), replace: true }),
    [navigate, callId],
  );
  const toggle = useCallback(
    (id: string, depth: number) =>
      setCollapsed((c) => {
        const n = new Set(c);
        if (index.isOpen(id, depth, c, maxDepth)) {
          n.add(id);
          n.delete(`+${id}`);
        } else {
          n.delete(id);
          n.add(`+${id}`);
        }
        return n;
      }),
    [index, maxDepth],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typingIn(e) || e.metaKey || e.ctrlKey || e.altKey || !index.rows.has(selected)) return;
      const depth = index.depthOf(selected);
      const move = treeMove(e.key, index, flat, selected, isOpen(selected, depth));
      if (move === null) return;
      e.preventDefault();
      if ('toggle' in move) toggle(move.toggle, depth);
      else {
        select(move.select);
        setScrollRequest({ id: move.select, align: 'auto' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, flat, selected, isOpen, toggle, select]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the index mutates as the trace streams in; stream.version says when
  const totals = useMemo(() => {
    const { tokens, cost } = index.totalUsage();
    return { errors: index.errors, tokens, cost, start: index.start, end: Math.max(index.end, index.start) };
  }, [index, stream.version]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the index mutates as the trace streams in; stream.version says when
  const errorIds = useMemo(() => index.errorIds(), [index, stream.version]);
  const jumpError = useCallback(
    (dir: 1 | -1) => {
      if (errorIds.length === 0) return;
      const at = errorIds.indexOf(selected);
      const order = index.flatten(new Set(), null).indexOf;
      const here = at >= 0 ? at : null;
      let next: string;
      if (here !== null) next = errorIds[(here + dir + errorIds.length) % errorIds.length]!;
      else {
        // From a call that did not fail: the first error after (or before) it in the tree.
        const pos = order.get(selected) ?? -1;
        next =
          dir === 1
            ? (errorIds.find((id) => order.get(id)! > pos) ?? errorIds[0]!)
            : ([...errorIds].reverse().find((id) => order.get(id)! < pos) ?? errorIds[errorIds.length - 1]!);
      }
      select(next);
      setScrollRequest({ id: next, align: 'center' });
    },
    [errorIds, index, selected, select],
  );

  const timeline = search.view === 'timeline';
  const zoom = zoomOf(search.zoom);
  // The timeline's window in ms from the trace's start: the zoom, else the whole trace.
  const shown: [number, number] = zoom ?? [0, Math.max(totals.end - totals.start, 1)];
  const setSearch = (patch: Record<string, unknown>) =>
    void navigate({ search: (s) => ({ ...s, ...patch }), replace: true });
  // Stable, so the (memoised) detail is not redrawn each time more of the tree streams in.
  const onTab = useCallback(
    (tab: Tab) => void navigate({ search: (s) => ({ ...s, tab: tab === 'io' ? undefined : tab }), replace: true }),
    [navigate],
  );

  // Name search: matching rows stay bright; n / N (or the buttons) go to the next / previous.
  const matcher = useMemo(() => nameMatcher(search.q), [search.q]);
  const matches = useMemo(
    () =>
      matcher === null
        ? null
        : flat.ids.filter((id) => {
            const r = index.rows.get(id)!;
            return matcher(r.display_name ?? '') || matcher(opShortName(r.op_name));
          }),
    [matcher, flat, index],
  );
  const matchSet = useMemo(() => (matches === null ? null : new Set(matches)), [matches]);
  const dimmed = useCallback((id: string) => matchSet !== null && !matchSet.has(id), [matchSet]);
  const jumpMatch = useCallback(
    (dir: 1 | -1) => {
      if (!matches || matches.length === 0) return;
      const at = flat.indexOf.get(selected) ?? -1;
      const next =
        dir === 1
          ? (matches.find((id) => flat.indexOf.get(id)! > at) ?? matches[0]!)
          : ([...matches].reverse().find((id) => flat.indexOf.get(id)! < at) ?? matches[matches.length - 1]!);
      select(next);
      setScrollRequest({ id: next, align: 'center' });
    },
    [matches, flat, selected, select],
  );
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typingIn(e) || e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === 'n') jumpMatch(1);
      else if (e.key === 'N') jumpMatch(-1);
      else if (e.key === 'e') jumpError(1);
      else if (e.key === 'E') jumpError(-1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [jumpMatch, jumpError]);

  return (
    <div className={styles.page}>
      <section className={`${styles.treePane} ${timeline ? styles.timeline : ''}`}>
        <div className={styles.traceHead}>
          <Link to="/$entity/$project/calls" params={{ entity, project }} search={{}}>
            ← Calls
          </Link>
          <span data-testid="trace-stats">
            {formatCount(index.size)} {index.size === 1 ? 'call' : 'calls'}
            {stream.done ? '' : ' (loading…)'} · {formatCount(totals.errors)} {totals.errors === 1 ? 'error' : 'errors'}
            {Number.isFinite(totals.start) ? ` · ${formatDuration(totals.end - totals.start)}` : ''}
            {totals.tokens > 0 ? ` · ${formatCount(totals.tokens)} tokens` : ''}
            {totals.cost !== null && totals.cost > 0 ? ` · ${formatCost(totals.cost)}` : ''}
          </span>
          {totals.errors > 0 && (
            <ErrorNav
              errorsOnly={errorsOnly}
              onJump={jumpError}
              onToggle={() => setSearch({ errors: errorsOnly ? undefined : 1 })}
            />
          )}
        </div>
        <div className={styles.treeTools}>
          <button
            type="button"
            aria-pressed={search.view !== 'timeline'}
            onClick={() => setSearch({ view: undefined })}
            data-testid="view-tree"
          >
            Tree
          </button>
          <button
            type="button"
            aria-pressed={search.view === 'timeline'}
            onClick={() => setSearch({ view: 'timeline' })}
            data-testid="view-timeline"
          >
            Timeline
          </button>
          <input
            className={styles.search}
            placeholder="Find op…"
            defaultValue={search.q ?? ''}
            key={search.q ?? ''}
            aria-label="Find calls by op or name (regular expression)"
            data-testid="tree-search"
            onKeyDown={(e) => {
              if (e.key === 'Enter') setSearch({ q: e.currentTarget.value.trim() || undefined });
              if (e.key === 'Escape') setSearch({ q: undefined });
            }}
          />
          {/* Always laid out (hidden without a search), so a search does not reflow the toolbar. */}
          <span
            className={styles.matches}
            data-testid={matches === null ? undefined : 'tree-matches'}
            style={matches === null ? { visibility: 'hidden' } : undefined}
            aria-hidden={matches === null}
          >
            {formatCount(matches?.length ?? 0)} {matches?.length === 1 ? 'match' : 'matches'}{' '}
            <button
              type="button"
              onClick={() => jumpMatch(-1)}
              aria-label="Previous match"
              tabIndex={matches === null ? -1 : 0}
            >
              ↑
            </button>{' '}
            <button
              type="button"
              onClick={() => jumpMatch(1)}
              aria-label="Next match"
              tabIndex={matches === null ? -1 : 0}
            >
              ↓
            </button>
          </span>
          <label>
            Open to depth{' '}
            <select
              value={search.depth ?? ''}
              onChange={(e) => {
                setCollapsed(new Set());
                setSearch({ depth: e.target.value === '' ? undefined : Number(e.target.value) });
              }}
              data-testid="depth"
            >
              <option value="">all</option>
              {[1, 2, 3, 4, 5].map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
          </label>
        </div>
        {missing ? (
          <p className={styles.muted} data-testid="no-call">
            No call {callId} in {projectId}.
          </p>
        ) : (
          Boolean(stream.error) && <ErrorBanner error={stream.error} onRetry={() => setAttempt((a) => a + 1)} />
        )}
        {flat.ids.length === 0 && !stream.error && (
          <p className={styles.muted} data-testid="loading">
            Loading trace…
          </p>
        )}
        {timeline && flat.ids.length > 0 && Number.isFinite(totals.start) && (
          <TimeAxis
            from={shown[0]}
            to={shown[1]}
            zoomed={zoom !== null}
            onZoom={(a, b) => setSearch({ zoom: `${Math.round(a)}-${Math.max(Math.round(b), Math.round(a) + 1)}` })}
            onReset={() => setSearch({ zoom: undefined })}
          />
        )}
        {flat.ids.length > 0 && (
          <TraceTree
            index={index}
            flat={flat}
            selected={selected}
            scrollRequest={scrollRequest}
            timeline={timeline}
            span={timeline ? { start: totals.start + shown[0], end: totals.start + shown[1] } : totals}
            isOpen={isOpen}
            dimmed={dimmed}
            onSelect={select}
            onToggle={toggle}
          />
        )}
      </section>
      <section className={styles.detailPane}>
        <CallDetail projectId={projectId} callId={selected} tab={search.tab ?? 'io'} onTab={onTab} />
      </section>
    </div>
  );
}
