// The calls view's time range (?from=&to=): quick ranges ending now, or any two instants.
// A quick range is written as its two instants, so a link keeps showing the same calls.
import { useState } from 'react';
import { formatTime } from '../format';
import { QUICK_RANGES } from '../shell/quickRanges';
import segmented from '../shell/Segmented.module.css';
import styles from './CallsPage.module.css';

export interface TimeRange {
  from?: string;
  to?: string;
}

/** An ISO instant as a datetime-local input's value (local time, to the minute). */
function localValue(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (local time) as an ISO instant; '' is no bound. */
const fromLocal = (v: string) => (v === '' ? undefined : new Date(v).toISOString());

export function TimeRangePicker({ range, onChange }: { range: TimeRange; onChange: (next: TimeRange) => void }) {
  const [custom, setCustom] = useState(false);
  const set = range.from !== undefined || range.to !== undefined;
  return (
    <span className={styles.timeRange} data-testid="time-range">
      <span className={segmented.segmented} role="group" aria-label="Time range">
        {QUICK_RANGES.map(([id, label, ms]) => (
          <button
            type="button"
            key={id}
            title={label}
            data-testid={`range-${id}`}
            onClick={() => {
              const now = Date.now();
              setCustom(false);
              onChange({ from: new Date(now - ms).toISOString(), to: new Date(now).toISOString() });
            }}
          >
            {id}
          </button>
        ))}
        <button type="button" aria-pressed={custom} onClick={() => setCustom(!custom)} data-testid="range-custom">
          Custom
        </button>
      </span>
      {custom && (
        <span className={styles.customRange}>
          {(['from', 'to'] as const).map((end, i) => (
            <span key={end}>
              {i === 1 && '→ '}
              <input
                type="datetime-local"
                aria-label={end === 'from' ? 'From' : 'To'}
                value={localValue(range[end])}
                onChange={(e) => onChange({ ...range, [end]: fromLocal(e.target.value) })}
                data-testid={`range-${end}`}
              />
            </span>
          ))}
        </span>
      )}
      {set && (
        <span className={styles.chip} data-testid="range-chip" data-from={range.from} data-to={range.to}>
          {range.from ? formatTime(range.from) : 'the first call'} → {range.to ? formatTime(range.to) : 'now'}
          <button
            type="button"
            aria-label="Clear the time range"
            onClick={() => {
              setCustom(false);
              onChange({});
            }}
            data-testid="range-clear"
          >
            ×
          </button>
        </span>
      )}
    </span>
  );
}
