// One card per scorer that gave signals in the window: its mean rating (or the tags it gave)
// over the window and per bucket as a sparkline, and its most frequent tags. A card picks that
// scorer as the filter (again: all scorers).
import { readableNumber, formatCount } from '../format';
import { Sparkline } from './Sparkline';
import type { ScorerTrend } from './signalBuckets';
import styles from './Signals.module.css';

export function ScorerTrends({
  trends,
  selected,
  onSelect,
}: {
  trends: ScorerTrend[];
  selected: string | undefined;
  onSelect: (scorer: string | undefined) => void;
}) {
  if (trends.length === 0) return null;
  return (
    <div className={styles.trends} data-testid="scorer-trends">
      {trends.map((t) => (
        <button
          type="button"
          key={t.scorer}
          className={styles.trend}
          aria-pressed={selected === t.scorer}
          onClick={() => onSelect(selected === t.scorer ? undefined : t.scorer)}
          data-testid="scorer-trend"
          data-scorer={t.scorer}
          data-kind={t.kind}
          title={selected === t.scorer ? 'Show every scorer' : `Show only ${t.scorer}`}
        >
          <span className={styles.trendHead}>
            <strong>{t.scorer}</strong>
            <span className={styles.muted}>{formatCount(t.scored)} scored</span>
          </span>
          <span className={styles.trendFigure} data-testid="trend-figure">
            {t.kind === 'rating'
              ? `mean ${t.overall === null ? '–' : readableNumber(Number(t.overall.toFixed(3)))}`
              : `${formatCount(t.overall ?? 0)} ${t.overall === 1 ? 'tag' : 'tags'}`}
          </span>
          <Sparkline
            values={t.values}
            kind={t.kind === 'rating' ? 'line' : 'bars'}
            max={t.kind === 'rating' ? 1 : undefined}
            label={t.kind === 'rating' ? `${t.scorer}: mean rating per bucket` : `${t.scorer}: tags per bucket`}
          />
          {t.tags.length > 0 && (
            <span className={styles.trendTags}>
              {t.tags.slice(0, 3).map(([tag, n]) => (
                <span key={tag} className={styles.tag}>
                  {tag} <span className={styles.muted}>{formatCount(n)}</span>
                </span>
              ))}
            </span>
          )}
        </button>
      ))}
    </div>
  );
}
