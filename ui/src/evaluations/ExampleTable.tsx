// Per-example results of the runs side by side (virtual rows): the example, each run's
// output and scores, scores that differ from the baseline's coloured. Examples are matched
// across runs by their dataset row ref (or the example itself).
import { useRef } from 'react';
import { Link } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { lowerIsBetter, preview, type ExampleResult } from './evalData';
import styles from './Evaluations.module.css';

export interface ExampleRowData {
  key: string;
  example: unknown;
  /** one per run, in run order; undefined when the run has no result for this example */
  results: (ExampleResult | undefined)[];
}

const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(3));

export function ExampleTable({
  rows,
  runNames,
  baselineIndex,
  entity,
  project,
}: {
  rows: readonly ExampleRowData[];
  runNames: readonly string[];
  baselineIndex: number;
  entity: string;
  project: string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 34,
    overscan: 10,
  });
  const template = `minmax(200px, 1.4fr) ${runNames.map(() => 'minmax(180px, 1fr)').join(' ')}`;
  return (
    <div className={styles.examples} ref={scroller} data-testid="examples">
      <div className={styles.exampleHead} style={{ gridTemplateColumns: template }}>
        <span>Example</span>
        {runNames.map((n, i) => (
          <span key={i}>
            {n}
            {i === baselineIndex ? ' (baseline)' : ''}
          </span>
        ))}
      </div>
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
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
            >
              <span title={preview(row.example, 2000)}>{preview(row.example)}</span>
              {row.results.map((r, i) => (
                <span key={i} className={i === baselineIndex ? styles.baseline : ''}>
                  {r === undefined ? (
                    '–'
                  ) : (
                    <Link
                      to="/$entity/$project/calls/$callId"
                      params={{ entity, project, callId: r.call.id }}
                      title="Open this prediction's trace"
                    >
                      {[...r.scores].map(([k, s]) => {
                        const b = base?.scores.get(k);
                        const cls =
                          i === baselineIndex || b === undefined || b === s
                            ? ''
                            : (lowerIsBetter(k) ? s < b : s > b)
                              ? styles.scoreGood
                              : styles.scoreBad;
                        return (
                          <span key={k} className={cls} data-score={k}>
                            {k} {r.booleans.has(k) ? (s === 1 ? '✓' : '✗') : fmt(s)}{' '}
                          </span>
                        );
                      })}
                      <span className={styles.muted}>{preview(r.output, 60)}</span>
                    </Link>
                  )}
                </span>
              ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}
