// The preset signals as a choice of cards: each one's name, whether it rates or tags, and what
// it looks for.
import type { SignalPreset } from '../api/types';
import styles from './Monitors.module.css';

export function PresetPicker({
  presets,
  value,
  onChange,
}: {
  presets: readonly SignalPreset[];
  value: string;
  onChange: (id: string) => void;
}) {
  return (
    <fieldset className={styles.presets} data-testid="preset-picker">
      <legend>Preset</legend>
      {presets.map((p) => (
        <label key={p.id} className={styles.preset} data-testid="preset" data-id={p.id} data-checked={value === p.id}>
          <input type="radio" name="preset" value={p.id} checked={value === p.id} onChange={() => onChange(p.id)} />
          <span className={styles.presetHead}>
            <strong>{p.name}</strong>
            <span className={styles.kind}>{p.kind === 'rating' ? 'rating 0–1' : `tag ${p.tags.join(', ')}`}</span>
          </span>
          <span className={styles.presetText}>{p.description}</span>
        </label>
      ))}
    </fieldset>
  );
}
