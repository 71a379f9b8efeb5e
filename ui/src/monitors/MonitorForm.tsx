// Creates or edits a monitor: its name (fixed once published: publishing it again adds
// versions), description, what it scores, how, and whether it is on. Published through
// /signals/publish; the server's reason for a refusal shows in place.
import { useState } from 'react';
import { ApiError } from '../api/client';
import type { CompletionProvider, SignalPreset } from '../api/types';
import { draftProblem, type MonitorDraft, NAME_PATTERN, publishRequest } from './monitorDraft';
import { publishMonitor } from './monitorsApi';
import { ScorerFields } from './ScorerFields';
import { TargetFields } from './TargetFields';
import styles from './Monitors.module.css';

export function MonitorForm({
  entity,
  project,
  initial,
  editing,
  presets,
  providers,
  ops,
  onDone,
  onCancel,
}: {
  entity: string;
  project: string;
  initial: MonitorDraft;
  editing: boolean;
  presets: readonly SignalPreset[];
  providers: readonly CompletionProvider[];
  ops: readonly string[];
  onDone: (name: string) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const change = (patch: Partial<MonitorDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const problem = draftProblem(draft);
  return (
    <form
      className={styles.form}
      data-testid="monitor-form"
      data-editing={editing}
      onSubmit={(e) => {
        e.preventDefault();
        if (problem !== null) return;
        setState({ busy: true, error: null });
        publishMonitor(publishRequest(`${entity}/${project}`, draft)).then(
          () => {
            setState({ busy: false, error: null });
            onDone(draft.name);
          },
          (err: unknown) => setState({ busy: false, error: err instanceof ApiError ? err.reason : String(err) }),
        );
      }}
    >
      <div className={styles.formHead}>
        <h2>{editing ? `Edit ${draft.name}` : 'New monitor'}</h2>
        <button type="button" onClick={onCancel} aria-label="Close the form" data-testid="monitor-cancel">
          ×
        </button>
      </div>
      <label className={styles.field}>
        <span>Name</span>
        <input
          value={draft.name}
          required
          readOnly={editing}
          pattern={NAME_PATTERN}
          title="Letters, digits, - and _"
          placeholder="user-frustration"
          onChange={(e) => change({ name: e.target.value })}
          data-testid="monitor-name"
        />
      </label>
      <label className={styles.field}>
        <span>Description (optional)</span>
        <input
          value={draft.description}
          onChange={(e) => change({ description: e.target.value })}
          data-testid="monitor-description"
        />
      </label>
      <TargetFields draft={draft} ops={ops} onChange={change} />
      <ScorerFields
        entity={entity}
        project={project}
        draft={draft}
        presets={presets}
        providers={providers}
        nameFixed={editing}
        onChange={change}
      />
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={draft.active}
          onChange={(e) => change({ active: e.target.checked })}
          data-testid="monitor-active"
        />
        Active: score new {draft.target === 'agent_turn' ? 'turns' : 'calls'} as they end
      </label>
      <div className={styles.row}>
        <button type="submit" disabled={state.busy || problem !== null} data-testid="monitor-save">
          {state.busy ? 'Publishing…' : editing ? 'Publish a new version' : 'Create monitor'}
        </button>
        {problem !== null && (
          <span className={styles.muted} data-testid="monitor-problem">
            {problem}
          </span>
        )}
        {state.error !== null && (
          <span className={styles.error} role="alert" data-testid="monitor-error">
            {state.error}
          </span>
        )}
      </div>
    </form>
  );
}
