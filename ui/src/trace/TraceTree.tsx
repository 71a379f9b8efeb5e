// The trace as a virtual tree: only the rows on screen exist in the DOM, whatever the
// trace's size. Each row: caret, status, op, a latency bar on the trace's time scale
// (a waterfall when `timeline` is on), latency, and tokens and cost with the descendants'
// (traceIndex.ts says how they roll up); a model call names its model.
import { useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { formatCost, formatDuration, formatTokens, opShortName } from '../format';
import { Caret, StatusDot } from '../shell/icons';
import type { FlatTree, TraceIndex } from './traceIndex';
import styles from './TracePage.module.css';

const ROW_HEIGHT = 28;

export interface ScrollRequest {
  readonly id: string;
  readonly align: 'center' | 'auto';
}

export interface TraceTreeProps {
  index: TraceIndex;
  flat: FlatTree;
  selected: string | null;
  /** Scrolls that call into view once it is selected: centred (deep links) or just enough (keyboard). */
  scrollRequest: ScrollRequest | null;
  timeline: boolean;
  span: { start: number; end: number };
  isOpen: (id: string, depth: number) => boolean;
  /** Rows that do not match the name search (none when there is no search). */
  dimmed: (id: string) => boolean;
  onSelect: (id: string) => void;
  onToggle: (id: string, depth: number) => void;
}

export function TraceTree(p: TraceTreeProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: p.flat.ids.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const selectedIndex = p.selected === null ? -1 : (p.flat.indexOf.get(p.selected) ?? -1);
  // Each request is honoured once, when its call is the selection and has a row: streaming
  // more rows must not pull the view back to it.
  const done = useRef<ScrollRequest | null>(null);
  useEffect(() => {
    const r = p.scrollRequest;
    if (r === null || done.current === r || r.id !== p.selected || selectedIndex < 0) return;
    done.current = r;
    // Rows have one fixed height, so the offset is known: set it directly (the virtualizer
    // follows the scroll event) rather than through its measured, frame-by-frame scrolling.
    const el = scroller.current;
    if (el === null) return;
    const top = selectedIndex * ROW_HEIGHT;
    if (r.align === 'center') el.scrollTop = top - (el.clientHeight - ROW_HEIGHT) / 2;
    else if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
  }, [p.scrollRequest, p.selected, selectedIndex]);
  const total = Math.max(p.span.end - p.span.start, 1);

  return (
    <div className={styles.treeScroller} ref={scroller} data-testid="trace-tree" tabIndex={0}>
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((v) => {
          const id = p.flat.ids[v.index]!;
          const depth = p.flat.depths[v.index]!;
          const row = p.index.rows.get(id)!;
          const usage = p.index.rollup(id);
          const kids = p.index.childrenOf(id).length;
          const open = p.isOpen(id, depth);
          const start = new Date(row.started_at).getTime();
          const end = row.ended_at ? new Date(row.ended_at).getTime() : p.span.end;
          const lat = row.ended_at ? end - start : null;
          // On the timeline, bars are clipped to the window (a zoom may cut them at either end).
          const from = p.timeline ? Math.max(start, p.span.start) : start;
          const to = p.timeline ? Math.min(end, p.span.end) : end;
          const outside = p.timeline && (end < p.span.start || start > p.span.end);
          const left = p.timeline ? ((from - p.span.start) / total) * 100 : 0;
          const width = outside ? 0 : Math.max(((p.timeline ? to - from : (lat ?? end - start)) / total) * 100, 0.5);
          return (
            <div
              key={v.key}
              className={`${styles.treeRow} ${id === p.selected ? styles.selected : ''} ${p.dimmed(id) ? styles.dimmed : ''}`}
              style={{ transform: `translateY(${v.start}px)` }}
              data-testid="tree-row"
              data-id={id}
              data-depth={depth}
              data-dimmed={p.dimmed(id) || undefined}
              aria-selected={id === p.selected}
              role="treeitem"
              aria-level={depth + 1}
              aria-expanded={kids > 0 ? open : undefined}
              onClick={() => p.onSelect(id)}
            >
              <span className={styles.treeLabel} style={{ paddingLeft: depth * 14 }}>
                {kids > 0 ? (
                  <button
                    type="button"
                    className={styles.caret}
                    aria-label={open ? 'Collapse' : 'Expand'}
                    onClick={(e) => {
                      e.stopPropagation();
                      p.onToggle(id, depth);
                    }}
                  >
                    <Caret open={open} />
                  </button>
                ) : (
                  <span className={styles.caret} />
                )}
                <StatusDot status={row.status} />
                <span className={styles.opName}>{row.display_name || opShortName(row.op_name)}</span>
                {usage.modelCall && (
                  <span className={styles.model} data-testid="row-model" title={row.models.join(', ')}>
                    {row.models.join(', ')}
                  </span>
                )}
                {kids > 0 && !open && <span className={styles.kidCount}>{kids}</span>}
              </span>
              <span className={styles.barTrack}>
                <span
                  className={`${styles.bar} ${row.ended_at ? '' : styles.open}`}
                  style={{ marginLeft: `${left}%`, width: `${Math.min(width, 100 - left)}%` }}
                  data-testid="bar"
                  hidden={outside}
                />
              </span>
              <span className={styles.metric}>{formatDuration(lat)}</span>
              <span
                className={styles.metric}
                data-testid="row-tokens"
                title={usage.tokens > 0 ? `${usage.tokens} tokens` : undefined}
              >
                {formatTokens(usage.tokens)}
              </span>
              <span
                className={styles.metric}
                data-testid="row-cost"
                title={usage.cost === null ? undefined : `$${usage.cost}`}
              >
                {formatCost(usage.cost)}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
