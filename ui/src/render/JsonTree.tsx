// A JSON value as an expandable tree under a virtual list: only the lines on screen exist in
// the DOM, only open nodes are laid out, each lists its children a page at a time, and a
// value with more than NODE_GATE nodes opens one level deep, so a large payload costs what
// is on screen. Lines vary in height (media, chats, long text) and are measured as they show.
import { useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { mediaOf } from './media';
import { MediaView } from './MediaView';
import { ChatView } from './ChatView';
import { RefLink, parseRef } from './RefLink';
import { TextView } from './TextView';
import { jsonLines, PAGE, type JsonLine } from './jsonLines';
import { Caret } from '../shell/icons';
import styles from './render.module.css';
import { NumberText } from './NumberText';

const NODE_GATE = 50_000;
const OPEN_DEPTH = 3;
const LINE_HEIGHT = 20;
const INDENT = 14;

function countNodes(v: unknown, limit: number): number {
  let n = 0;
  const stack: unknown[] = [v];
  while (stack.length > 0 && n <= limit) {
    const x = stack.pop();
    n++;
    if (typeof x === 'object' && x !== null) for (const c of Object.values(x)) stack.push(c);
  }
  return n;
}

function Leaf({ value }: { value: unknown }) {
  if (typeof value === 'string') {
    const media = mediaOf(value);
    if (media) return <MediaView {...media} />;
    if (value.startsWith('weave:///') && parseRef(value)) return <RefLink value={value} />;
    if (value.length > 200 || value.includes('\n')) return <TextView text={value} />;
    return <span className={styles.string}>{JSON.stringify(value)}</span>;
  }
  if (typeof value === 'number') return <NumberText value={value} className={styles.scalar} />;
  return <span className={styles.scalar}>{value === undefined ? 'undefined' : JSON.stringify(value)}</span>;
}

function Line({
  line,
  onToggle,
  onMore,
}: {
  line: JsonLine;
  onToggle: (path: string) => void;
  onMore: (path: string, shown: number) => void;
}) {
  const label = 'name' in line && line.name !== null && <span className={styles.key}>{line.name}: </span>;
  const pad = { paddingLeft: line.depth * INDENT };
  switch (line.kind) {
    case 'leaf':
      return (
        <div className={styles.node} style={pad}>
          {label}
          <Leaf value={line.value} />
        </div>
      );
    case 'chat':
      return (
        <div style={pad}>
          <div className={styles.node}>
            <button
              type="button"
              className={styles.toggle}
              onClick={() => onToggle(line.path)}
              aria-label="Collapse"
              aria-expanded
            >
              <Caret open />
            </button>
            {label}
          </div>
          <div className={styles.nested}>
            <ChatView messages={line.messages} />
          </div>
        </div>
      );
    case 'node': {
      const [open, close] = line.array ? ['[', ']'] : ['{', '}'];
      return (
        <div className={styles.node} style={pad}>
          <button
            type="button"
            className={styles.toggle}
            onClick={() => onToggle(line.path)}
            aria-label={line.open ? 'Collapse' : 'Expand'}
            aria-expanded={line.open}
          >
            <Caret open={line.open} />
          </button>
          {label}
          <span className={styles.punct}>
            {open}
            {!line.open && `${line.count.toLocaleString('en-US')} ${line.array ? 'items' : 'keys'}${close}`}
            {line.open && line.count === 0 && close}
          </span>
        </div>
      );
    }
    case 'more':
      return (
        <div className={styles.node} style={pad}>
          <button type="button" onClick={() => onMore(line.path, line.shown + PAGE)} data-testid="json-more">
            Show {Math.min(PAGE, line.left)} more of {line.left.toLocaleString('en-US')}
          </button>
        </div>
      );
    case 'close':
      return (
        <div className={`${styles.node} ${styles.punct}`} style={{ paddingLeft: line.depth * INDENT + 18 }}>
          {line.array ? ']' : '}'}
        </div>
      );
  }
}

export function JsonTree({ value }: { value: unknown }) {
  const big = useMemo(() => countNodes(value, NODE_GATE) > NODE_GATE, [value]);
  const [flipped, setFlipped] = useState<ReadonlySet<string>>(new Set());
  const [shown, setShown] = useState<ReadonlyMap<string, number>>(new Map());
  const lines = useMemo(
    () => jsonLines(value, { openDepth: big ? 1 : OPEN_DEPTH, flipped, shown }),
    [value, big, flipped, shown],
  );
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => LINE_HEIGHT,
    overscan: 20,
    getItemKey: (i) => `${lines[i]!.kind}:${lines[i]!.path}`,
  });
  const onToggle = (path: string) =>
    setFlipped((f) => {
      const n = new Set(f);
      if (!n.delete(path)) n.add(path);
      return n;
    });
  const onMore = (path: string, count: number) => setShown((s) => new Map(s).set(path, count));
  return (
    <div className={styles.json} data-testid="json-tree" data-lines={lines.length}>
      {big && (
        <div className={styles.gate}>
          Large value (over {NODE_GATE.toLocaleString('en-US')} nodes): opened one level at a time.
        </div>
      )}
      <div className={styles.jsonScroller} ref={scroller} data-testid="json-scroller">
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((v) => (
            <div
              key={v.key}
              ref={virtual.measureElement}
              data-index={v.index}
              data-testid="json-line"
              className={styles.jsonLine}
              style={{ transform: `translateY(${v.start}px)` }}
            >
              <Line line={lines[v.index]!} onToggle={onToggle} onMore={onMore} />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
