// The calls table: a header from TanStack Table over virtual rows, so a million calls cost
// as much as the forty on screen. Rows not fetched yet show as placeholders.
import { type CSSProperties, useEffect, useRef } from 'react';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type ColumnSizingState,
  type Header,
  type Updater,
} from '@tanstack/react-table';
import type { ColumnLayout } from './useColumnLayout';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Call } from '../api/types';
import type { ColumnMeta } from './callColumns';
import { EyeIcon } from '../shell/icons';
import styles from './CallsTable.module.css';

const ROW_HEIGHT = 32;
const CHECK_WIDTH = 56;

export interface CallsTableProps {
  columns: ColumnDef<Call>[];
  /** Calls ticked for an action (compare, delete), by id. */
  checked: ReadonlySet<string>;
  onCheck: (call: Call) => void;
  /** Shows the call in the peek drawer. */
  onPeek: (index: number, call: Call) => void;
  total: number;
  row: (index: number) => Call | undefined;
  sort: { field: string; direction: 'asc' | 'desc' };
  onSort: (field: string) => void;
  onOpen: (call: Call) => void;
  selected: number;
  onSelect: (index: number) => void;
  /** Reports the visible index range, so the caller can fetch its windows. */
  onRange: (first: number, last: number) => void;
  /** Hidden, pinned and resized columns (the caller remembers them). */
  layout: ColumnLayout;
  onLayout: (next: ColumnLayout) => void;
}

const EMPTY: Call[] = [];

export function CallsTable(p: CallsTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: p.total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtual.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const { onRange } = p;
  useEffect(() => onRange(first, last), [first, last, onRange]);
  useEffect(() => {
    if (p.selected >= 0) virtual.scrollToIndex(p.selected, { align: 'auto' });
  }, [p.selected, virtual]);

  // The table model holds only the columns; rows are rendered per virtual item.
  const { layout, onLayout } = p;
  const ids = new Set(p.columns.map((c) => c.id!));
  const table = useReactTable({
    data: EMPTY,
    columns: p.columns,
    getCoreRowModel: getCoreRowModel(),
    columnResizeMode: 'onChange',
    enableColumnResizing: true,
    state: {
      columnSizing: layout.sizes,
      columnVisibility: Object.fromEntries(layout.hidden.map((id) => [id, false])),
      columnPinning: { left: layout.pinned.filter((id) => ids.has(id)), right: [] },
    },
    onColumnSizingChange: (u: Updater<ColumnSizingState>) =>
      onLayout({ ...layout, sizes: typeof u === 'function' ? u(layout.sizes) : u }),
  });
  // Pinned columns first (TanStack orders the headers left, centre, right).
  const headers = table.getHeaderGroups()[0]!.headers.filter((h) => h.column.getIsVisible());
  const template = `${CHECK_WIDTH}px ${headers.map((h) => `${h.getSize()}px`).join(' ')} 1fr`;
  const width = CHECK_WIDTH + headers.reduce((s, h) => s + h.getSize(), 0);
  /** A pinned column's cell sticks at its offset while the table scrolls sideways. */
  const stick = (h: Header<Call, unknown>) =>
    h.column.getIsPinned()
      ? { position: 'sticky' as const, left: CHECK_WIDTH + h.column.getStart('left'), zIndex: 1 }
      : undefined;

  return (
    <div className={styles.scroller} ref={scroller} data-testid="calls-table" tabIndex={0}>
      <div className={styles.header} style={{ gridTemplateColumns: template, minWidth: width }} role="row">
        <span className={`${styles.pinnedHead} ${styles.stickCheck}`} />
        {headers.map((h) => (
          <HeaderCell key={h.id} header={h} sort={p.sort} onSort={p.onSort} style={stick(h)} />
        ))}
        <span />
      </div>
      <div style={{ height: virtual.getTotalSize(), position: 'relative', minWidth: width }}>
        {items.map((v) => {
          const call = p.row(v.index);
          return (
            <div
              key={v.key}
              className={`${styles.row} ${v.index === p.selected ? styles.selected : ''}`}
              style={{ transform: `translateY(${v.start}px)`, gridTemplateColumns: template }}
              data-testid="call-row"
              data-index={v.index}
              data-id={call?.id}
              aria-selected={v.index === p.selected}
              role="row"
              onClick={() => {
                p.onSelect(v.index);
                if (call) p.onOpen(call);
              }}
            >
              {call === undefined ? (
                <span className={styles.placeholder} />
              ) : (
                [
                  <span
                    key="check"
                    className={`${styles.check} ${styles.pinned} ${styles.stickCheck}`}
                    onClick={(e) => e.stopPropagation()}
                  >
                    <input
                      type="checkbox"
                      checked={p.checked.has(call.id)}
                      onChange={() => p.onCheck(call)}
                      aria-label="Select this call"
                      data-testid="row-check"
                    />
                    <button
                      type="button"
                      className={styles.peekButton}
                      onClick={() => p.onPeek(v.index, call)}
                      aria-label="Peek at this call"
                      title="Peek (Space)"
                      data-testid="row-peek"
                    >
                      <EyeIcon />
                    </button>
                  </span>,
                ].concat(
                  headers.map((h) => {
                    const meta = h.column.columnDef.meta as ColumnMeta;
                    return (
                      <span
                        key={h.id}
                        className={`${styles.cell} ${meta.align === 'right' ? styles.right : ''} ${h.column.getIsPinned() ? styles.pinned : ''}`}
                        data-col={h.id}
                        style={stick(h)}
                      >
                        {meta.render(call)}
                      </span>
                    );
                  }),
                )
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function HeaderCell({
  header,
  sort,
  onSort,
  style,
}: {
  header: Header<Call, unknown>;
  sort: CallsTableProps['sort'];
  onSort: (f: string) => void;
  style: CSSProperties | undefined;
}) {
  const meta = header.column.columnDef.meta as ColumnMeta | undefined;
  const sortField = meta?.sortField;
  const active = sortField !== undefined && sort.field === sortField;
  return (
    <span
      className={`${styles.headCell} ${meta?.align === 'right' ? styles.right : ''} ${header.column.getIsPinned() ? styles.pinnedHead : ''}`}
      style={style}
      data-col={header.column.id}
      data-width={header.getSize()}
      role="columnheader"
      aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
    >
      {sortField ? (
        <button
          type="button"
          className={styles.sortButton}
          onClick={() => onSort(sortField)}
          data-testid={`sort-${header.column.id}`}
        >
          {flexRender(header.column.columnDef.header, header.getContext())}
          {active ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : ''}
        </button>
      ) : (
        flexRender(header.column.columnDef.header, header.getContext())
      )}
      <span
        className={styles.resizer}
        data-testid="resizer"
        onMouseDown={header.getResizeHandler()}
        onDoubleClick={() => header.column.resetSize()}
      />
    </span>
  );
}
