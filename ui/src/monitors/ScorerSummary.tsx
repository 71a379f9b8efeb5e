// A monitor's scorers in a line each: the preset, the custom tags, an own judge (and the model
// each judge calls), or the remote scorer's host.
import type { SignalPreset } from '../api/types';
import { objectIdOf } from '../signals/signalVerdict';
import { scorerFields } from './monitorDraft';
import type { ScorerInfo } from './monitorsApi';
import styles from './Monitors.module.css';

function describe(s: ScorerInfo | undefined, presets: readonly SignalPreset[]): string {
  const f = scorerFields(s, presets);
  switch (f.scorerType) {
    case 'preset':
      return `preset: ${presets.find((p) => p.id === f.preset)?.name ?? f.preset}`;
    case 'custom_tags':
      return `tags: ${(f.tags ?? []).map((t) => t.name).join(', ')}`;
    case 'judge':
      return `judge (${f.judgeKind === 'tags' ? 'tags' : 'rating'})`;
    case 'remote': {
      try {
        return `remote: ${new URL(f.url ?? '').host}`;
      } catch {
        return `remote: ${f.url ?? ''}`;
      }
    }
    default:
      return 'unreadable scorer';
  }
}

export function ScorerSummary({
  refs,
  scorers,
  presets,
}: {
  refs: readonly string[];
  scorers: Map<string, ScorerInfo>;
  presets: readonly SignalPreset[];
}) {
  if (refs.length === 0) return <span className={styles.muted}>none</span>;
  return (
    <ul className={styles.scorers}>
      {refs.map((ref) => {
        const s = scorers.get(ref);
        return (
          <li key={ref} data-testid="monitor-scorer" data-scorer={objectIdOf(ref) ?? ref}>
            <span title={ref}>{describe(s, presets)}</span>
            {s?.model && <span className={styles.model}>{s.model}</span>}
          </li>
        );
      })}
    </ul>
  );
}
