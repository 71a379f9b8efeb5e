// Per-example results of the runs side by side (virtual rows): the example's dataset columns
// (inputs first, the expected answer after), then each run's output and scores, scores that
// differ from the baseline's coloured by the metric's direction. Examples are matched across
// runs by their dataset row ref (or the example itself). A row opens the example's panel.
import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { beats, type Direction, type ExampleResult, preview } from './evalData';
import styles from './Evaluations.module.css';

export interface ExampleRowData {
  key: string;
  example: unknown;
  /** one per run, in run order; undefined when the run has no result for this example */
  results: (ExampleResult | undefined)[];
}

const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(3));

/** A dataset column's value in a row (the whole example when it is no dict). */
export function columnValue(example: unknown, column: string | null): unknown {
  if (column === null) return example;
  return typeof example === 'object' && example !== null ? (example as Record<string, unknown>)[column] : undefined;
}

export function ScoreChips({
  result,
  base,
  isBaseline,
  direction,
}: {
  result: ExampleResult;
  base: ExampleResult | undefined;
  isBaseline: boolean;
  direction: Direction;
}) {
  return (
    <>
      {[...result.scores].map(([k, s]) => {
        const b = base?.scores.get(k);
        const cls =
          isBaseline || b === undefined || b === s
            ? ''
            : beats(direction(k), s, b)
              ? styles.scoreGood
              : styles.scoreBad;
        return (
          <span key={k} className={cls} data-score={k}>
            {k} {result.booleans.has(k) ? (s === 1 ? '✓' : '✗') : fmt(s)}{' '}
          </span>
        );
      })}
    </>
  );
}

export function ExampleTable({
  rows,
  columns,
  runNames,
  baselineIndex,
  direction,
  onOpen,
}: {
  rows: readonly ExampleRowData[];
  /** Dataset columns; empty: the example shows whole. */
  columns: readonly string[];
  runNames: readonly string[];
  baselineIndex: number;
  direction: Direction;
  onOpen: (key: string) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 34,
    overscan: 10,
  });
  const shownColumns: (string | null)[] = columns.length > 0 ? [...columns] : [null];
  const template = [
    ...shownColumns.map(() => 'minmax(90px, 1fr)'),
    ...runNames.flatMap(() => ['minmax(120px, 1.2fr)', 'minmax(110px, 1fr)']),
  ].join(' ');
  const width = shownColumns.length * 90 + runNames.length * 230;
  return (
    <div className={styles.examples} ref={scroller} data-testid="examples">
      <div className={styles.exampleHead} style={{ gridTemplateColumns: template, minWidth: width }}>
        {shownColumns.map((c) => (
          <span key={c ?? ''} data-testid="example-column">
            {c ?? 'Example'}
          </span>
        ))}
        {runNames.flatMap((n, i) => [
          <span key={`o${i}`} className={i === baselineIndex ? styles.baseline : ''}>
            {n}
            {i === baselineIndex ? ' (baseline)' : ''} · output
          </span>,
          <span key={`s${i}`} className={i === baselineIndex ? styles.baseline : ''}>
            scores
          </span>,
        ])}
      </div>
      <div style={{ height: virtual.getTotalSize(), position: 'relative', minWidth: width }}>
        {virtual.getVirtualItems().map((v) => {
          const row = rows[v.index]!;
          const base = row.results[baselineIndex];
          return (
            <div
              key={row.key}
              className={styles.exampleRow}
              style={{ transform: `translateY(${v.start}px)`, gridTemplateColumns: template }}
              data-testid="example-row"
              data-index={v.index}
              onClick={() => onOpen(row.key)}
            >
              {shownColumns.map((c) => (
                <span key={c ?? ''} data-col={c ?? ''} title={preview(columnValue(row.example, c), 2000)}>
                  {preview(columnValue(row.example, c))}
                </span>
              ))}
              {row.results.flatMap((r, i) => [
                <span
                  key={`o${i}`}
                  className={i === baselineIndex ? styles.baseline : ''}
                  data-output={i}
                  title={r ? preview(r.output, 2000) : undefined}
                >
                  {r === undefined ? '–' : preview(r.output)}
                </span>,
                <span key={`s${i}`} className={i === baselineIndex ? styles.baseline : ''} data-scores={i}>
                  {r === undefined ? (
                    '–'
                  ) : (
                    <ScoreChips result={r} base={base} isBaseline={i === baselineIndex} direction={direction} />
                  )}
                </span>,
              ])}
            </div>
          );
        })}
      </div>
    </div>
  );
}
