// The side-by-side rows of a diff: line numbers, the line, and for a changed pair the words
// that differ. Drawing stops at MAX_ROWS rows, and says so.
import { useState, type ReactNode } from 'react';
import { formatCount } from '../format';
import { inlineDiff, type DiffRow, type Shown, type Side } from './lineDiff';
import styles from './DiffTable.module.css';

const MAX_ROWS = 5000;

interface Props {
  left: ReactNode;
  right: ReactNode;
  shown: Shown[];
  onUnfold: () => void;
}

export function DiffTable({ left, right, shown, onUnfold }: Props) {
  const [limit, setLimit] = useState(MAX_ROWS);
  const drawn = shown.slice(0, limit);
  return (
    <div className={styles.scroller} data-testid="diff">
      <div className={`${styles.grid} ${styles.heads}`}>
        <div className={styles.head}>{left}</div>
        <div className={styles.head}>{right}</div>
      </div>
      <div className={`${styles.grid} ${styles.body}`}>
        {drawn.map((s) =>
          'fold' in s ? (
            <button
              type="button"
              key={`f${s.at}`}
              className={styles.fold}
              onClick={onUnfold}
              data-testid="diff-hidden"
              data-count={s.fold}
              title="Show every line"
            >
              ⋯ {formatCount(s.fold)} unchanged line{s.fold === 1 ? '' : 's'}
            </button>
          ) : (
            <Row key={s.at} row={s.row} />
          ),
        )}
      </div>
      {shown.length > limit && (
        <p className={styles.more}>
          Showing the first {formatCount(limit)} of {formatCount(shown.length)} lines.{' '}
          <button type="button" onClick={() => setLimit((l) => l + MAX_ROWS)}>
            Show {formatCount(Math.min(MAX_ROWS, shown.length - limit))} more
          </button>
        </p>
      )}
    </div>
  );
}

function Row({ row }: { row: DiffRow }) {
  const words = row.change === 'changed' ? inlineDiff(row.left!.text, row.right!.text) : null;
  return (
    <div className={styles.row} data-testid="diff-row" data-change={row.change}>
      <Cell side={row.left} mark={row.change === 'same' ? null : 'del'} words={words?.left} testid="diff-left" />
      <Cell side={row.right} mark={row.change === 'same' ? null : 'ins'} words={words?.right} testid="diff-right" />
    </div>
  );
}

function Cell({
  side,
  mark,
  words,
  testid,
}: {
  side: Side | undefined;
  mark: 'del' | 'ins' | null;
  words: [string, boolean][] | undefined;
  testid: string;
}) {
  if (side === undefined) return <div className={`${styles.cell} ${styles.blank}`} data-testid={testid} data-empty />;
  return (
    <div className={`${styles.cell} ${mark ? styles[mark] : ''}`} data-testid={testid}>
      <span className={styles.lineNo}>{side.n}</span>
      <span className={styles.sign} aria-hidden>
        {mark === 'del' ? '−' : mark === 'ins' ? '+' : ''}
      </span>
      <span className={styles.text} data-testid="diff-text">
        {words
          ? words.map(([t, differs], i) =>
              differs ? (
                <mark key={i} className={styles.word}>
                  {t}
                </mark>
              ) : (
                t
              ),
            )
          : side.text}
      </span>
    </div>
  );
}
