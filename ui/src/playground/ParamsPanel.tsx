// The request's parameters: sampling (temperature, top_p, seed), length (max_tokens), stop
// sequences (one per line) and JSON output. Blank means "the provider's default": not sent.
import type { DraftParams } from './playgroundDraft';
import styles from './Playground.module.css';

function NumberField({
  label,
  value,
  step,
  min,
  max,
  integer,
  onChange,
}: {
  label: string;
  value: number | null;
  step: number;
  min?: number;
  max?: number;
  integer?: boolean;
  onChange: (v: number | null) => void;
}) {
  const id = `param-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <label className={styles.param} htmlFor={id}>
      <span>{label}</span>
      <input
        id={id}
        type="number"
        step={step}
        min={min}
        max={max}
        value={value ?? ''}
        placeholder="default"
        data-testid={id}
        onChange={(e) => {
          const n = e.target.value === '' ? null : Number(e.target.value);
          onChange(n === null || !Number.isFinite(n) ? null : integer ? Math.trunc(n) : n);
        }}
      />
    </label>
  );
}

export function ParamsPanel({ params, onChange }: { params: DraftParams; onChange: (p: DraftParams) => void }) {
  const set = (patch: Partial<DraftParams>) => onChange({ ...params, ...patch });
  const json = params.response_format !== null;
  const schema = params.response_format?.type === 'json_schema';
  return (
    <section className={styles.section} data-testid="params">
      <h2>Parameters</h2>
      <div className={styles.params}>
        <NumberField
          label="Temperature"
          value={params.temperature}
          step={0.1}
          min={0}
          max={2}
          onChange={(temperature) => set({ temperature })}
        />
        <NumberField
          label="Max tokens"
          value={params.max_tokens}
          step={1}
          min={1}
          integer
          onChange={(max_tokens) => set({ max_tokens })}
        />
        <NumberField
          label="Top p"
          value={params.top_p}
          step={0.05}
          min={0}
          max={1}
          onChange={(top_p) => set({ top_p })}
        />
        <NumberField label="Seed" value={params.seed} step={1} integer onChange={(seed) => set({ seed })} />
      </div>
      <label className={styles.param}>
        <span>Stop sequences, one per line</span>
        <textarea
          className={styles.text}
          rows={Math.max(1, params.stop.length)}
          value={params.stop.join('\n')}
          data-testid="param-stop"
          onChange={(e) => set({ stop: e.target.value === '' ? [] : e.target.value.split('\n') })}
        />
      </label>
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={json}
          data-testid="param-json"
          onChange={(e) => set({ response_format: e.target.checked ? { type: 'json_object' } : null })}
        />
        {schema ? 'JSON output, to the schema of the call' : 'JSON output'}
      </label>
    </section>
  );
}
