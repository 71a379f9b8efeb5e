// Adds a custom OpenAI-compatible provider: its name (the object id models name it by), its
// base URL and the name of the secret holding its API key (the key itself is set apart, by an
// admin). The server's reason for a refusal shows in place.
import { useState } from 'react';
import { ApiError } from '../api/client';
import { createProvider } from './providersApi';
import styles from './Providers.module.css';

const secretNameOf = (provider: string) => `${provider.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_API_KEY`;

export function ProviderForm({ projectId, onCreated }: { projectId: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const secretName = secret ?? (name === '' ? '' : secretNameOf(name));
  return (
    <form
      className={styles.form}
      data-testid="provider-form"
      onSubmit={(e) => {
        e.preventDefault();
        setState({ busy: true, error: null });
        createProvider(projectId, { name, base_url: baseUrl.trim(), api_key_name: secretName }).then(
          () => {
            setState({ busy: false, error: null });
            setName('');
            setBaseUrl('');
            setSecret(null);
            onCreated();
          },
          (err: unknown) => setState({ busy: false, error: err instanceof ApiError ? err.reason : String(err) }),
        );
      }}
    >
      <h2>Add a provider</h2>
      <p className={styles.muted}>Any endpoint that speaks OpenAI's Chat Completions: a gateway, vLLM, Ollama…</p>
      <label>
        <span>Name</span>
        <input
          value={name}
          required
          pattern="[A-Za-z0-9_\-]+"
          title="Letters, digits, - and _"
          placeholder="my-gateway"
          onChange={(e) => setName(e.target.value)}
          data-testid="provider-name"
        />
      </label>
      <label>
        <span>Base URL</span>
        <input
          value={baseUrl}
          required
          placeholder="https://llm.example.com/v1"
          onChange={(e) => setBaseUrl(e.target.value)}
          data-testid="provider-base-url"
        />
      </label>
      <label>
        <span>Secret holding its API key</span>
        <input
          value={secretName}
          required
          placeholder="MY_GATEWAY_API_KEY"
          onChange={(e) => setSecret(e.target.value)}
          data-testid="provider-secret-name"
        />
      </label>
      <div className={styles.formButtons}>
        <button type="submit" disabled={state.busy} data-testid="provider-create">
          {state.busy ? 'Adding…' : 'Add provider'}
        </button>
        {state.error !== null && (
          <span className={styles.error} role="alert" data-testid="provider-error">
            {state.error}
          </span>
        )}
      </div>
    </form>
  );
}
