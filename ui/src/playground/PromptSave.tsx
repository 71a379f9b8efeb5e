// Saves the messages shown (a loaded prompt's, then the draft's) as a new version of a
// MessagesPrompt; the playground then follows the saved version. The server's reason shows
// in place when it refuses.
import { useState } from 'react';
import { ApiError } from '../api/client';
import styles from './Playground.module.css';

export function PromptSave({
  defaultName,
  disabled,
  onSave,
}: {
  defaultName: string;
  disabled: boolean;
  onSave: (name: string) => Promise<void>;
}) {
  const [name, setName] = useState<string | null>(null);
  const [state, setState] = useState<{ saving: boolean; error: string | null }>({ saving: false, error: null });
  const value = name ?? defaultName;
  return (
    <form
      className={styles.row}
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim() === '') return;
        setState({ saving: true, error: null });
        onSave(value.trim()).then(
          () => setState({ saving: false, error: null }),
          (err: unknown) => setState({ saving: false, error: err instanceof ApiError ? err.reason : String(err) }),
        );
      }}
    >
      <input
        value={value}
        onChange={(e) => setName(e.target.value)}
        placeholder="prompt name"
        aria-label="Prompt name"
        data-testid="prompt-name"
      />
      <button type="submit" disabled={disabled || state.saving || value.trim() === ''} data-testid="prompt-save">
        {state.saving ? 'Saving…' : 'Save as prompt'}
      </button>
      {state.error !== null && (
        <span className={styles.error} role="alert" data-testid="prompt-save-error">
          {state.error}
        </span>
      )}
    </form>
  );
}
