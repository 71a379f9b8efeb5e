// A dataset's rows: a virtual table over its rows table, read in windows of WINDOW rows as
// they scroll into view (/table/query offset and limit), the total from /table/query_stats.
// Columns are the rows' keys; cells are short previews. The selected row (?row=N) shows
// whole beside the table.
import { useEffect, useMemo, useRef } from 'react';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { postJson } from '../api/client';
import type { TableQueryReq, TableQueryRes, TableQueryStatsReq, TableQueryStatsRes, TableRow } from '../api/types';
import { ErrorBanner } from '../shell/ErrorBanner';
import { typingIn } from '../shell/Shell';
import { ValueView } from '../render/ValueView';
import { formatCount } from '../format';
import { preview } from './valueText';
import styles from './DatasetRows.module.css';

export const WINDOW = 200;
const ROW_HEIGHT = 30;
const MAX_COLUMNS = 40;

interface Props {
  projectId: string;
  digest: string;
  selected: number | undefined;
  onSelect: (row: number | undefined) => void;
}

function useTableWindows(projectId: string, digest: string, windows: number[]) {
  return useQueries({
    queries: windows.map((w) => ({
      queryKey: ['table-window', projectId, digest, w],
      queryFn: ({ signal }: { signal: AbortSignal }) => {
        const req: TableQueryReq = { project_id: projectId, digest, offset: w * WINDOW, limit: WINDOW };
        return postJson<TableQueryRes>('/table/query', req, signal).then((r) => r.rows);
      },
      staleTime: Infinity, // a table digest names immutable content
    })),
  });
}

export function DatasetRows({ projectId, digest, selected, onSelect }: Props) {
  const statsReq: TableQueryStatsReq = { project_id: projectId, digest };
  const stats = useQuery({
    queryKey: ['table-count', projectId, digest],
    queryFn: ({ signal }) => postJson<TableQueryStatsRes>('/table/query_stats', statsReq, signal),
    placeholderData: keepPreviousData,
  });
  const total = stats.data?.count ?? null;
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtual.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;

  const windows: number[] = [];
  for (let w = Math.floor(first / WINDOW); w <= Math.floor(last / WINDOW); w++) windows.push(w);
  if (selected !== undefined && !windows.includes(Math.floor(selected / WINDOW)))
    windows.push(Math.floor(selected / WINDOW));
  const results = useTableWindows(projectId, digest, windows);
  const byWindow = new Map(windows.map((w, i) => [w, results[i]?.data]));
  const row = (i: number): TableRow | undefined => byWindow.get(Math.floor(i / WINDOW))?.[i % WINDOW];
  const failed = results.find((r) => r.error);

  // Columns: the keys of the rows seen so far, in first-seen order, window 0 first.
  const columnsRef = useRef<string[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: columns grow as windows load: keyed by the windows' load times, and they keep first-seen order across renders through a ref
  const columns = useMemo(() => {
    const seen = new Set(columnsRef.current);
    const next = [...columnsRef.current];
    for (const w of [...byWindow.keys()].sort((a, b) => a - b)) {
      for (const r of byWindow.get(w) ?? []) {
        if (typeof r.val !== 'object' || r.val === null || Array.isArray(r.val)) continue;
        for (const k of Object.keys(r.val))
          if (!seen.has(k) && next.length < MAX_COLUMNS) {
            seen.add(k);
            next.push(k);
          }
      }
    }
    // The server keeps a row's keys sorted; an `id` column still reads best first.
    const at = next.indexOf('id');
    if (at > 0) next.unshift(...next.splice(at, 1));
    columnsRef.current = next;
    return next;
  }, [results.map((r) => r.dataUpdatedAt).join()]);

  // A deep link centres its row once the table has a size; later selections (keys, the
  // detail's arrows) scroll only when the row is out of view.
  const scrolledTo = useRef<number | null>(null);
  useEffect(() => {
    if (total === null || selected === undefined || selected >= total || scrolledTo.current === selected) return;
    virtual.scrollToIndex(selected, { align: scrolledTo.current === null ? 'center' : 'auto' });
    scrolledTo.current = selected;
  }, [total, selected, virtual]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typingIn(e) || e.metaKey || e.ctrlKey || e.altKey || total === null || total === 0) return;
      if (e.key === 'j' || e.key === 'ArrowDown') onSelect(Math.min((selected ?? -1) + 1, total - 1));
      else if (e.key === 'k' || e.key === 'ArrowUp') onSelect(Math.max((selected ?? 1) - 1, 0));
      else if (e.key === 'Escape' && selected !== undefined) onSelect(undefined);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [selected, total, onSelect]);

  // Column widths from the first loaded rows' previews, fixed once measured (scrolling never
  // moves the columns): short values get narrow columns, the last one takes what is left.
  const widthsRef = useRef<{ key: string; widths: number[] } | null>(null);
  const sample = [...byWindow.values()].find((rows) => rows !== undefined && rows.length > 0)?.slice(0, 50);
  const columnsKey = columns.join('\u0000');
  if (sample && widthsRef.current?.key !== columnsKey) {
    const widths = (columns.length === 0 ? [null] : columns).map((c) => {
      let chars = (c ?? 'value').length + 2;
      for (const r of sample) chars = Math.max(chars, preview(c === null ? r.val : cellOf(r.val, c), 48).length);
      return Math.round(Math.min(Math.max(chars * 7.5 + 24, 72), 380));
    });
    widthsRef.current = { key: columnsKey, widths };
  }
  const widths = widthsRef.current?.widths ?? [150];
  const template = `64px ${widths.map((w, i) => (i === widths.length - 1 ? `minmax(${w}px, 1fr)` : `${w}px`)).join(' ')}`;
  const minWidth = 64 + widths.reduce((a, b) => a + b, 0);
  const selectedRow = selected === undefined ? undefined : row(selected);

  return (
    <div className={`${styles.layout} ${selected !== undefined ? styles.withDetail : ''}`}>
      <div className={styles.tablePane}>
        <div className={styles.status}>
          <span data-testid="dataset-total">
            {total === null
              ? stats.isError
                ? ''
                : 'Counting rows…'
              : `${formatCount(total)} row${total === 1 ? '' : 's'}`}
          </span>
          {total !== null && total > 0 && virtual.range && (
            <span className={styles.range} data-testid="dataset-range">
              showing {formatCount(virtual.range.startIndex)}–{formatCount(virtual.range.endIndex)}
            </span>
          )}
        </div>
        {stats.isError && <ErrorBanner error={stats.error} onRetry={() => void stats.refetch()} />}
        {failed && <ErrorBanner error={failed.error} onRetry={() => void failed.refetch()} />}
        {total === 0 && (
          <p className={styles.empty} data-testid="dataset-empty">
            This dataset has no rows.
          </p>
        )}
        {total !== null && total > 0 && (
          <div className={styles.scroller} ref={scroller} data-testid="dataset-table" tabIndex={0}>
            <div className={styles.header} style={{ gridTemplateColumns: template, minWidth }} role="row">
              <span className={styles.headCell}>#</span>
              {columns.length === 0 && <span className={styles.headCell}>value</span>}
              {columns.map((c) => (
                <span key={c} className={styles.headCell} title={c} data-testid="dataset-column">
                  {c}
                </span>
              ))}
            </div>
            <div style={{ height: virtual.getTotalSize(), position: 'relative', minWidth }}>
              {items.map((v) => {
                const r = row(v.index);
                return (
                  <div
                    key={v.key}
                    className={`${styles.row} ${v.index === selected ? styles.selected : ''}`}
                    style={{ transform: `translateY(${v.start}px)`, gridTemplateColumns: template }}
                    role="row"
                    aria-selected={v.index === selected}
                    data-testid="dataset-row"
                    data-index={v.index}
                    data-id={r?.digest}
                    onClick={() => onSelect(v.index === selected ? undefined : v.index)}
                  >
                    <span className={styles.index}>{v.index}</span>
                    {r === undefined ? (
                      <span className={styles.placeholder} />
                    ) : columns.length === 0 ? (
                      <Cell value={r.val} />
                    ) : (
                      columns.map((c) => <Cell key={c} value={cellOf(r.val, c)} />)
                    )}
                  </div>
                );
              })}
            </div>
          </div>
        )}
      </div>
      {selected !== undefined && (
        <aside className={styles.detail} data-testid="row-detail" data-index={selected}>
          <div className={styles.detailHead}>
            <strong>Row {formatCount(selected)}</strong>
            {total !== null && <span className={styles.muted}>of {formatCount(total)}</span>}
            {selectedRow && (
              <code className={styles.muted} title="Row digest">
                {selectedRow.digest.slice(0, 10)}
              </code>
            )}
            <span className={styles.spacer} />
            <button
              type="button"
              onClick={() => onSelect(Math.max(selected - 1, 0))}
              disabled={selected === 0}
              aria-label="Previous row"
              title="Previous row (k)"
            >
              ↑
            </button>
            <button
              type="button"
              onClick={() => onSelect(selected + 1)}
              disabled={total === null || selected >= total - 1}
              aria-label="Next row"
              title="Next row (j)"
            >
              ↓
            </button>
            <button type="button" onClick={() => onSelect(undefined)} aria-label="Close the row" title="Close (Esc)">
              ×
            </button>
          </div>
          <div className={styles.detailBody} data-testid="row-value">
            {total !== null && selected >= total ? (
              <p className={styles.muted}>
                No row {formatCount(selected)}: the dataset has {formatCount(total)} rows.
              </p>
            ) : selectedRow === undefined ? (
              <p className={styles.muted}>Loading row…</p>
            ) : (
              <ValueView value={selectedRow.val} />
            )}
          </div>
        </aside>
      )}
    </div>
  );
}

function cellOf(val: unknown, column: string): unknown {
  return typeof val === 'object' && val !== null && !Array.isArray(val)
    ? (val as Record<string, unknown>)[column]
    : undefined;
}

function Cell({ value }: { value: unknown }) {
  if (value === undefined) return <span className={styles.cell} />;
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return (
    <span className={styles.cell} data-kind={kind}>
      {preview(value)}
    </span>
  );
}
