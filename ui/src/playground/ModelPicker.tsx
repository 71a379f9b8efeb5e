// A column's model: one of /completions/models (suggested as the id is typed) or any id the
// server can route. Taken on Enter, on leaving the field, or when a listed id is picked. When
// the model's provider has no API key set, says which secret is missing and links to the
// providers page.
import { useId, useState } from 'react';
import { Link } from '@tanstack/react-router';
import type { CompletionProvider } from '../api/types';
import { modelProvider } from './modelProvider';
import styles from './Playground.module.css';

export function ModelPicker({
  entity,
  project,
  model,
  providers,
  onModel,
}: {
  entity: string;
  project: string;
  model: string;
  providers: readonly CompletionProvider[];
  onModel: (m: string) => void;
}) {
  const listId = useId();
  const [typed, setTyped] = useState<string | null>(null);
  const value = typed ?? model;
  const commit = (v: string) => {
    setTyped(null);
    if (v.trim() !== '' && v.trim() !== model) onModel(v.trim());
  };
  const provider = modelProvider(providers, model);
  return (
    <div className={styles.picker}>
      <input
        list={listId}
        value={value}
        title={value}
        aria-label="Model"
        spellCheck={false}
        data-testid="model-input"
        onChange={(e) => {
          setTyped(e.target.value);
          if (providers.some((p) => p.models.some((m) => m.id === e.target.value))) commit(e.target.value);
        }}
        onBlur={() => commit(value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(value);
          if (e.key === 'Escape') setTyped(null);
        }}
      />
      <datalist id={listId}>
        {providers.flatMap((p) =>
          p.models.map((m) => (
            <option key={m.id} value={m.id}>
              {`${p.name} · ${m.name}${p.secret_set ? '' : ' (no key)'}`}
            </option>
          )),
        )}
      </datalist>
      {provider && !provider.secret_set && (
        <span className={styles.warning} data-testid="secret-missing">
          No key: {provider.secret_name || 'the secret'} is not set for {provider.name}.{' '}
          <Link to="/$entity/$project/settings/providers" params={{ entity, project }}>
            Providers
          </Link>
        </span>
      )}
    </div>
  );
}
