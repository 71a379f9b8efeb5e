// The Signals view's filters, each written to the URL: scorer, agent and tag (offered from the
// window's signals and the project's agents), the rating range, and the time window (a quick
// range, or the zoomed window with its reset).
import { QUICK_RANGES } from '../shell/quickRanges';
import segmented from '../shell/Segmented.module.css';
import { DEFAULT_RANGE, type SignalsSearch } from './signalsSearch';
import styles from './Signals.module.css';

const withCurrent = (list: readonly string[], current: string | undefined) =>
  current === undefined || list.includes(current) ? list : [current, ...list];

function RatingBound({
  label,
  value,
  testId,
  onChange,
}: {
  label: string;
  value: number | undefined;
  testId: string;
  onChange: (v: number | undefined) => void;
}) {
  const commit = (raw: string) => {
    const n = raw.trim() === '' ? undefined : Number(raw);
    if (n === undefined || (Number.isFinite(n) && n >= 0 && n <= 1)) {
      if (n !== value) onChange(n);
    }
  };
  return (
    <input
      key={String(value)}
      type="number"
      min={0}
      max={1}
      step={0.05}
      placeholder={label}
      aria-label={`Rating ${label}`}
      className={styles.bound}
      defaultValue={value ?? ''}
      data-testid={testId}
      onBlur={(e) => commit(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit(e.currentTarget.value);
      }}
    />
  );
}

export function SignalFilters({
  search,
  scorers,
  agents,
  tags,
  onChange,
}: {
  search: SignalsSearch;
  scorers: readonly string[];
  agents: readonly string[];
  tags: readonly string[];
  onChange: (patch: Partial<SignalsSearch>) => void;
}) {
  const zoomed = search.from !== undefined;
  const range = search.range ?? DEFAULT_RANGE;
  return (
    <div className={styles.filters} data-testid="signal-filters">
      <select
        aria-label="Scorer"
        data-testid="filter-scorer"
        value={search.scorer ?? ''}
        onChange={(e) => onChange({ scorer: e.target.value || undefined })}
      >
        <option value="">Every scorer</option>
        {withCurrent(scorers, search.scorer).map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      <select
        aria-label="Agent"
        data-testid="filter-agent"
        value={search.agent ?? ''}
        onChange={(e) => onChange({ agent: e.target.value || undefined })}
      >
        <option value="">Every agent</option>
        {withCurrent(agents, search.agent).map((a) => (
          <option key={a} value={a}>
            {a}
          </option>
        ))}
      </select>
      <select
        aria-label="Tag"
        data-testid="filter-tag"
        value={search.tag ?? ''}
        onChange={(e) => onChange({ tag: e.target.value || undefined })}
      >
        <option value="">Any tag</option>
        {withCurrent(tags, search.tag).map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      <span className={styles.ratingRange}>
        Rating
        <RatingBound label="min" value={search.min} testId="filter-min" onChange={(min) => onChange({ min })} />
        –
        <RatingBound label="max" value={search.max} testId="filter-max" onChange={(max) => onChange({ max })} />
      </span>
      <span className={styles.spacer} />
      <div className={segmented.segmented} role="group" aria-label="Time window">
        {QUICK_RANGES.map(([id, label]) => (
          <button
            type="button"
            key={id}
            title={label}
            aria-pressed={!zoomed && range === id}
            data-testid={`range-${id}`}
            onClick={() => onChange({ range: id === DEFAULT_RANGE ? undefined : id, from: undefined, to: undefined })}
          >
            {id}
          </button>
        ))}
      </div>
      {zoomed && (
        <button
          type="button"
          data-testid="reset-zoom"
          onClick={() => onChange({ from: undefined, to: undefined })}
          title="Back to the quick range"
        >
          Reset zoom
        </button>
      )}
    </div>
  );
}
