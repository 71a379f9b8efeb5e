// Loads a MessagesPrompt version into the playground: the project's prompts by name, then the
// chosen one's versions, newest first (the latest preselected).
import { useState } from 'react';
import { objectRef, usePromptList, usePromptVersions } from './playgroundApi';
import styles from './Playground.module.css';

export function PromptPicker({ projectId, onPick }: { projectId: string; onPick: (ref: string) => void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState<string | null>(null);
  const list = usePromptList(projectId, open);
  const versions = usePromptVersions(projectId, name);
  if (!open)
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        title="Follow a saved MessagesPrompt: its messages replace these"
        data-testid="prompt-load"
      >
        Load a prompt…
      </button>
    );
  const pick = (digest: string) => {
    if (name === null || digest === '') return;
    onPick(objectRef(projectId, name, digest));
    setOpen(false);
    setName(null);
  };
  return (
    <span className={styles.row}>
      <select
        value={name ?? ''}
        onChange={(e) => setName(e.target.value === '' ? null : e.target.value)}
        aria-label="Prompt"
        data-testid="prompt-pick"
      >
        <option value="">{list.isPending ? 'Loading prompts…' : `${list.data?.length ?? 0} prompts`}</option>
        {(list.data ?? []).map((o) => (
          <option key={o.object_id} value={o.object_id}>
            {o.object_id}
          </option>
        ))}
      </select>
      {name !== null && (
        <select
          value=""
          onChange={(e) => pick(e.target.value)}
          aria-label="Version"
          data-testid="prompt-version"
          disabled={versions.isPending}
        >
          <option value="">{versions.isPending ? 'Loading…' : 'Version…'}</option>
          {(versions.data ?? []).map((o) => (
            <option key={o.digest} value={o.digest}>
              v{o.version_index}
              {o.is_latest ? ' (latest)' : ''}
            </option>
          ))}
        </select>
      )}
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
      {list.isError && <span className={styles.error}>{String(list.error)}</span>}
    </span>
  );
}
