// The window's totals above the charts. Each figure carries its exact value in data-value.
import type { UiTimeseriesTotals } from '../api/types';
import { formatCount } from '../format';
import { ms, percent, usd } from './monitorFormat';
import styles from './Monitor.module.css';

function Stat({
  id,
  label,
  value,
  shown,
  note,
  tone,
}: {
  id: string;
  label: string;
  value: number | null;
  shown: string;
  note?: string;
  tone?: 'error';
}) {
  return (
    <div className={styles.stat} data-testid={`total-${id}`} data-value={value ?? ''}>
      <div className={styles.statLabel}>{label}</div>
      <div className={tone === 'error' && value ? `${styles.statValue} ${styles.statError}` : styles.statValue}>
        {shown}
      </div>
      {note && <div className={styles.statNote}>{note}</div>}
    </div>
  );
}

export function MonitorTotals({ totals, traces }: { totals: UiTimeseriesTotals; traces: boolean }) {
  const rate = totals.calls > 0 ? (100 * totals.errors) / totals.calls : null;
  return (
    <div className={styles.totals} data-testid="monitor-totals">
      <Stat id="calls" label={traces ? 'Traces' : 'Calls'} value={totals.calls} shown={formatCount(totals.calls)} />
      <Stat
        id="errors"
        label="Errors"
        value={totals.errors}
        shown={formatCount(totals.errors)}
        note={rate === null ? undefined : `${percent(rate)} of ${traces ? 'traces' : 'calls'}`}
        tone="error"
      />
      <Stat
        id="latency"
        label="Latency p50 · p95"
        value={totals.latency_p50_ms}
        shown={`${ms(totals.latency_p50_ms)} · ${ms(totals.latency_p95_ms)}`}
      />
      <Stat id="tokens" label="Tokens" value={totals.tokens} shown={formatCount(totals.tokens)} />
      <Stat
        id="cost"
        label="Cost"
        value={totals.cost_usd}
        shown={usd(totals.cost_usd)}
        note={totals.tokens > 0 && totals.cost_usd === 0 ? 'no prices for these models' : undefined}
      />
    </div>
  );
}
