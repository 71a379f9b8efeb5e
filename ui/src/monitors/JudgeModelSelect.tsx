// The model a judge calls, picked from the models the project can call (/completions/models),
// by provider; a model whose provider has no key set says so, and links to the providers page.
import { Link } from '@tanstack/react-router';
import type { CompletionProvider } from '../api/types';
import { modelProvider } from '../playground/modelProvider';
import styles from './Monitors.module.css';

export function JudgeModelSelect({
  entity,
  project,
  providers,
  value,
  onChange,
}: {
  entity: string;
  project: string;
  providers: readonly CompletionProvider[];
  value: string;
  onChange: (model: string) => void;
}) {
  const listed = providers.some((p) => p.models.some((m) => m.id === value));
  const provider = value === '' ? null : modelProvider(providers, value);
  return (
    <label className={styles.field}>
      <span>Judge model</span>
      <select value={value} onChange={(e) => onChange(e.target.value)} data-testid="judge-model">
        <option value="">Pick a model…</option>
        {!listed && value !== '' && <option value={value}>{value}</option>}
        {providers
          .filter((p) => p.models.length > 0)
          .map((p) => (
            <optgroup key={`${p.kind}:${p.name}`} label={`${p.name}${p.secret_set ? '' : ' (no key)'}`}>
              {p.models.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.id}
                </option>
              ))}
            </optgroup>
          ))}
      </select>
      {provider && !provider.secret_set && (
        <span className={styles.warning} data-testid="judge-model-no-key">
          {provider.secret_name || 'Its key'} is not set for {provider.name}: the judge will fail.{' '}
          <Link to="/$entity/$project/settings/providers" params={{ entity, project }}>
            Providers
          </Link>
        </span>
      )}
    </label>
  );
}
