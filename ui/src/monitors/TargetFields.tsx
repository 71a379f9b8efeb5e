// What a monitor scores: agent turns as they end, or the calls of some ops as they finish; a
// simple filter (one field equal to, or containing, a value) and the share of them sampled. A
// stored query the simple filter cannot show is kept, and said so.
import { useId } from 'react';
import segmented from '../shell/Segmented.module.css';
import { defaultField, type MonitorDraft, type Target } from './monitorDraft';
import styles from './Monitors.module.css';

export function TargetFields({
  draft,
  ops,
  onChange,
}: {
  draft: MonitorDraft;
  /** The project's op names, offered for call monitors. */
  ops: readonly string[];
  onChange: (patch: Partial<MonitorDraft>) => void;
}) {
  const opsList = useId();
  const setTarget = (target: Target) => {
    if (target === draft.target) return;
    const field = draft.filter.value === '' ? defaultField(target) : draft.filter.field;
    onChange({
      target,
      filter: { ...draft.filter, field },
      // Presets and custom tags read a turn's messages: a call monitor has its own judge.
      ...(target === 'call' && (draft.scorerType === 'preset' || draft.scorerType === 'custom_tags')
        ? { scorerType: 'judge' as const }
        : {}),
    });
  };
  return (
    <fieldset className={styles.group} data-testid="target-fields">
      <legend>Scores</legend>
      <div className={segmented.segmented} role="group" aria-label="Target">
        <button
          type="button"
          aria-pressed={draft.target === 'agent_turn'}
          onClick={() => setTarget('agent_turn')}
          data-testid="target-turns"
        >
          Agent turns
        </button>
        <button
          type="button"
          aria-pressed={draft.target === 'call'}
          onClick={() => setTarget('call')}
          data-testid="target-calls"
        >
          Calls
        </button>
      </div>
      {draft.target === 'call' && (
        <label className={styles.field}>
          <span>Ops (comma separated; any version)</span>
          <input
            list={opsList}
            value={draft.opNames}
            placeholder="predict, answer"
            onChange={(e) => onChange({ opNames: e.target.value })}
            data-testid="op-names"
          />
          <datalist id={opsList}>
            {ops.map((o) => (
              <option key={o} value={o} />
            ))}
          </datalist>
        </label>
      )}
      <div className={styles.field}>
        <span>Only {draft.target === 'agent_turn' ? 'turns' : 'calls'} where (optional)</span>
        <div className={styles.filterRow}>
          <input
            value={draft.filter.field}
            aria-label="Filter field"
            className={styles.filterField}
            onChange={(e) => onChange({ filter: { ...draft.filter, field: e.target.value } })}
            data-testid="filter-field"
          />
          <select
            value={draft.filter.op}
            aria-label="Filter operator"
            onChange={(e) => onChange({ filter: { ...draft.filter, op: e.target.value as 'eq' | 'contains' } })}
            data-testid="filter-op"
          >
            <option value="eq">is</option>
            <option value="contains">contains</option>
          </select>
          <input
            value={draft.filter.value}
            aria-label="Filter value"
            placeholder={draft.target === 'agent_turn' ? 'support-bot' : 'gpt-4o'}
            onChange={(e) => onChange({ filter: { ...draft.filter, value: e.target.value } })}
            data-testid="filter-value"
          />
        </div>
        {draft.keptQuery !== null && draft.filter.value === '' && (
          <span className={styles.muted} data-testid="kept-query">
            Its own query is kept: <code>{JSON.stringify(draft.keptQuery)}</code>{' '}
            <button type="button" className={styles.linkButton} onClick={() => onChange({ keptQuery: null })}>
              Remove
            </button>
          </span>
        )}
      </div>
      <label className={styles.field}>
        <span>Sample rate (% scored)</span>
        <input
          type="number"
          min={0}
          max={100}
          step={1}
          className={styles.narrow}
          value={draft.samplePercent}
          onChange={(e) => onChange({ samplePercent: Number(e.target.value) })}
          data-testid="sample-rate"
        />
      </label>
    </fieldset>
  );
}
