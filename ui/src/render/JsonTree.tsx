// A JSON value as an expandable tree. Children are built only when their node is open, a
// node lists its children in pages of PAGE, and a value with more than NODE_GATE nodes opens
// collapsed, so a large payload costs what is on screen. Strings that are media or long
// text render as such.
import { useMemo, useState } from 'react';
import { mediaOf } from './media';
import { MediaView } from './MediaView';
import { ChatView, chatMessages } from './ChatView';
import { RefLink, parseRef } from './RefLink';
import { TextView } from './TextView';
import { Caret } from '../shell/icons';
import styles from './render.module.css';

const PAGE = 100;
const NODE_GATE = 50_000;
const OPEN_DEPTH = 3;

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

export function JsonTree({ value }: { value: unknown }) {
  const big = useMemo(() => countNodes(value, NODE_GATE) > NODE_GATE, [value]);
  return (
    <div className={styles.json} data-testid="json-tree">
      {big && <div className={styles.gate}>Large value (over {NODE_GATE.toLocaleString('en-US')} nodes): opened one level at a time.</div>}
      {typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0 ? (
        // A top-level object lists its keys without an enclosing brace.
        Object.entries(value).map(([k, v]) => <JsonNode key={k} name={k} value={v} depth={0} openDepth={big ? 1 : OPEN_DEPTH} />)
      ) : (
        <JsonNode name={null} value={value} depth={0} openDepth={big ? 1 : OPEN_DEPTH} />
      )}
    </div>
  );
}

function Leaf({ value }: { value: unknown }) {
  if (typeof value === 'string') {
    const media = mediaOf(value);
    if (media) return <MediaView {...media} />;
    if (value.startsWith('weave:///') && parseRef(value)) return <RefLink value={value} />;
    if (value.length > 200 || value.includes('\n')) return <TextView text={value} />;
    return <span className={styles.string}>{JSON.stringify(value)}</span>;
  }
  return <span className={styles.scalar}>{value === undefined ? 'undefined' : JSON.stringify(value)}</span>;
}

function JsonNode({ name, value, depth, openDepth }: { name: string | null; value: unknown; depth: number; openDepth: number }) {
  const isObject = typeof value === 'object' && value !== null;
  const [open, setOpen] = useState(depth < openDepth);
  const [shown, setShown] = useState(PAGE);
  const label = name !== null && <span className={styles.key}>{name}: </span>;
  if (!isObject) {
    return (
      <div className={styles.node} style={{ paddingLeft: depth * 14 }}>
        {label}
        <Leaf value={value} />
      </div>
    );
  }
  // Chat messages anywhere in a value (e.g. an op's `messages` argument) read as a chat.
  const chat = isObject ? chatMessages(value) : null;
  if (chat && open) {
    return (
      <div style={{ paddingLeft: depth * 14 }}>
        <div className={styles.node}>
          <button className={styles.toggle} onClick={() => setOpen(false)} aria-label="Collapse" aria-expanded>
            <Caret open />
          </button>
          {label}
        </div>
        <div className={styles.nested}>
          <ChatView messages={chat} />
        </div>
      </div>
    );
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  const brackets = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return (
    <div>
      <div className={styles.node} style={{ paddingLeft: depth * 14 }}>
        <button className={styles.toggle} onClick={() => setOpen(!open)} aria-label={open ? 'Collapse' : 'Expand'} aria-expanded={open}>
          <Caret open={open} />
        </button>
        {label}
        <span className={styles.punct}>
          {brackets[0]}
          {!open && `${entries.length} ${Array.isArray(value) ? 'items' : 'keys'}${brackets[1]}`}
          {open && entries.length === 0 && brackets[1]}
        </span>
      </div>
      {open &&
        entries.slice(0, shown).map(([k, v]) => <JsonNode key={k} name={k} value={v} depth={depth + 1} openDepth={openDepth} />)}
      {open && entries.length > shown && (
        <div className={styles.node} style={{ paddingLeft: (depth + 1) * 14 }}>
          <button onClick={() => setShown(shown + PAGE)}>
            Show {Math.min(PAGE, entries.length - shown)} more of {(entries.length - shown).toLocaleString('en-US')}
          </button>
        </div>
      )}
      {open && entries.length > 0 && (
        <div className={`${styles.node} ${styles.punct}`} style={{ paddingLeft: depth * 14 + 18 }}>
          {brackets[1]}
        </div>
      )}
    </div>
  );
}
