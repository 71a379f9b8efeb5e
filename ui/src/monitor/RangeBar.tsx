// The window and the bucket width: quick ranges, the bucket picker, the window shown, reset
// zoom, and the link to the same calls in the calls view. Everything is written to the URL.
import { Link } from '@tanstack/react-router';
import type { UiTimeseriesRes } from '../api/types';
import { bucketLabel, windowLabel } from './monitorFormat';
import { callsLinkOf, type MonitorSearch } from './monitorSearch';
import { QUICK_RANGES } from '../shell/quickRanges';
import segmented from '../shell/Segmented.module.css';
import styles from './Monitor.module.css';

const BUCKETS = [1, 5, 15, 60, 300, 900, 3600, 21_600, 86_400, 604_800];
/** The server's cap on buckets per answer (src/api/ui.ts MAX_TIMESERIES_BUCKETS). */
const MAX_BUCKETS = 2000;

interface Props {
  entity: string;
  project: string;
  search: MonitorSearch;
  data: UiTimeseriesRes | undefined;
  onChange: (next: MonitorSearch) => void;
}

export function RangeBar({ entity, project, search, data, onChange }: Props) {
  const zoomed = search.from !== undefined || search.to !== undefined;
  const spanSeconds = data?.from && data.to ? (Date.parse(data.to) - Date.parse(data.from)) / 1000 : null;
  const buckets =
    search.bucket !== undefined && !BUCKETS.includes(search.bucket)
      ? [...BUCKETS, search.bucket].sort((a, b) => a - b)
      : BUCKETS;
  const window = (ms: number) => {
    const now = Date.now();
    const { bucket: _, ...rest } = search;
    onChange({ ...rest, from: new Date(now - ms).toISOString(), to: new Date(now).toISOString() });
  };

  return (
    <div className={styles.rangeBar} data-testid="range-bar">
      <div className={segmented.segmented} role="group" aria-label="Time range">
        {QUICK_RANGES.map(([id, label, ms]) => (
          <button type="button" key={id} onClick={() => window(ms)} data-testid={`range-${id}`} title={label}>
            {id}
          </button>
        ))}
      </div>
      <label className={styles.bucketPick}>
        Bucket
        <select
          value={search.bucket ?? ''}
          onChange={(e) => onChange({ ...search, bucket: e.target.value === '' ? undefined : Number(e.target.value) })}
          data-testid="bucket-select"
        >
          <option value="">
            Auto{data && search.bucket === undefined ? ` (${bucketLabel(data.bucket_seconds)})` : ''}
          </option>
          {buckets.map((s) => (
            <option
              key={s}
              value={s}
              disabled={spanSeconds !== null && spanSeconds / s > MAX_BUCKETS && s !== search.bucket}
            >
              {bucketLabel(s)}
            </option>
          ))}
        </select>
      </label>
      {data?.from && data.to && (
        <span
          className={styles.window}
          data-testid="monitor-window"
          data-from={data.from}
          data-to={data.to}
          data-bucket={data.bucket_seconds}
        >
          {windowLabel(data.from, data.to)} · {bucketLabel(data.bucket_seconds)} buckets
        </span>
      )}
      {zoomed && (
        <button
          type="button"
          onClick={() => {
            const { from: _f, to: _t, ...rest } = search;
            onChange(rest);
          }}
          data-testid="reset-zoom"
          title="From the first to the last matching call"
        >
          Reset zoom
        </button>
      )}
      <span className={styles.spacer} />
      <span className={styles.hint}>Drag across a chart to zoom</span>
      <Link
        to="/$entity/$project/calls"
        params={{ entity, project }}
        search={callsLinkOf(search)}
        className={styles.showCalls}
        data-testid="show-calls"
      >
        Show these calls →
      </Link>
    </div>
  );
}
