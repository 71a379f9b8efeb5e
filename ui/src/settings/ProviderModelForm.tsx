// Adds a model to a custom provider: the name the provider knows it by and its token bound.
// The playground then offers it as custom::<provider>::<model>.
import { useState } from 'react';
import { ApiError } from '../api/client';
import { createProviderModel } from './providersApi';
import styles from './Providers.module.css';

export function ProviderModelForm({
  projectId,
  provider,
  onCreated,
}: {
  projectId: string;
  provider: string;
  onCreated: () => void;
}) {
  const [model, setModel] = useState('');
  const [maxTokens, setMaxTokens] = useState('4096');
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  return (
    <form
      className={styles.inlineForm}
      data-testid="model-form"
      onSubmit={(e) => {
        e.preventDefault();
        setState({ busy: true, error: null });
        createProviderModel(projectId, provider, model.trim(), Number(maxTokens)).then(
          () => {
            setState({ busy: false, error: null });
            setModel('');
            onCreated();
          },
          (err: unknown) => setState({ busy: false, error: err instanceof ApiError ? err.reason : String(err) }),
        );
      }}
    >
      <input
        value={model}
        required
        placeholder="model name upstream"
        aria-label={`New model of ${provider}`}
        onChange={(e) => setModel(e.target.value)}
        data-testid="model-name"
      />
      <input
        className={styles.narrow}
        type="number"
        min={1}
        step={1}
        required
        value={maxTokens}
        aria-label="Max tokens"
        title="Max tokens"
        onChange={(e) => setMaxTokens(e.target.value)}
        data-testid="model-max-tokens"
      />
      <button type="submit" disabled={state.busy || model.trim() === ''} data-testid="model-create">
        Add model
      </button>
      {state.error !== null && (
        <span className={styles.error} role="alert" data-testid="model-error">
          {state.error}
        </span>
      )}
    </form>
  );
}
