// How a monitor scores: a preset signal, custom tags, an own judge prompt (each a judge model
// call) or a remote scorer. Presets and custom tags read a turn's messages: turns only.
import type { CompletionProvider, SignalPreset } from '../api/types';
import segmented from '../shell/Segmented.module.css';
import { CustomTagRows } from './CustomTagRows';
import { JudgeModelSelect } from './JudgeModelSelect';
import { JudgePromptFields } from './JudgePromptFields';
import type { MonitorDraft, ScorerType } from './monitorDraft';
import { PresetPicker } from './PresetPicker';
import { RemoteScorerFields } from './RemoteScorerFields';
import styles from './Monitors.module.css';

const TYPES: [ScorerType, string][] = [
  ['preset', 'Preset'],
  ['custom_tags', 'Custom tags'],
  ['judge', 'Judge prompt'],
  ['remote', 'Remote scorer'],
];

export function ScorerFields({
  entity,
  project,
  draft,
  presets,
  providers,
  nameFixed,
  onChange,
}: {
  entity: string;
  project: string;
  draft: MonitorDraft;
  presets: readonly SignalPreset[];
  providers: readonly CompletionProvider[];
  /** Editing: the name is the monitor's. */
  nameFixed: boolean;
  onChange: (patch: Partial<MonitorDraft>) => void;
}) {
  const turnsOnly = (t: ScorerType) => t === 'preset' || t === 'custom_tags';
  return (
    <div className={styles.scorer}>
      <span className={styles.scorerLabel}>Scored by</span>
      <div className={segmented.segmented} role="group" aria-label="Scorer">
        {TYPES.map(([t, label]) => (
          <button
            type="button"
            key={t}
            aria-pressed={draft.scorerType === t}
            disabled={draft.target === 'call' && turnsOnly(t)}
            title={draft.target === 'call' && turnsOnly(t) ? 'For agent turns' : undefined}
            onClick={() => onChange({ scorerType: t })}
            data-testid={`scorer-${t}`}
          >
            {label}
          </button>
        ))}
      </div>
      {draft.scorerType === 'preset' && (
        <PresetPicker
          presets={presets}
          value={draft.preset}
          // A preset's id is the signal's default name (until one is typed).
          onChange={(preset) =>
            onChange(
              !nameFixed && (draft.name === '' || draft.name === draft.preset) ? { preset, name: preset } : { preset },
            )
          }
        />
      )}
      {draft.scorerType === 'custom_tags' && (
        <CustomTagRows
          tags={draft.tags}
          includeToolCalls={draft.includeToolCalls}
          onChange={(tags) => onChange({ tags })}
          onToolCalls={(includeToolCalls) => onChange({ includeToolCalls })}
        />
      )}
      {draft.scorerType === 'judge' && (
        <JudgePromptFields
          target={draft.target}
          kind={draft.judgeKind}
          prompt={draft.prompt}
          onKind={(judgeKind) => onChange({ judgeKind })}
          onPrompt={(prompt) => onChange({ prompt })}
        />
      )}
      {draft.scorerType === 'remote' ? (
        <RemoteScorerFields
          url={draft.url}
          secretName={draft.secretName}
          onUrl={(url) => onChange({ url })}
          onSecretName={(secretName) => onChange({ secretName })}
        />
      ) : (
        <JudgeModelSelect
          entity={entity}
          project={project}
          providers={providers}
          value={draft.model}
          onChange={(model) => onChange({ model })}
        />
      )}
    </div>
  );
}
