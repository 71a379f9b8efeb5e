// /ui/{entity}/{project}/settings/providers: the model providers the project can call (Weft's
// builtin ones and the project's own Provider objects), their models and whether the secret
// holding each one's API key is set; forms to add a provider and its models, and for admins
// to set a key.
import { Link, getRouteApi } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { CompletionProvider } from '../api/types';
import { ErrorBanner } from '../shell/ErrorBanner';
import { usePageTitle } from '../shell/usePageTitle';
import { useCompletionModels } from '../playground/playgroundApi';
import { ProviderForm } from './ProviderForm';
import { ProviderModelForm } from './ProviderModelForm';
import { useIsSecretsAdmin } from './providersApi';
import { SecretField } from './SecretField';
import styles from './Providers.module.css';

const route = getRouteApi('/$entity/$project/settings/providers');

export function ProvidersPage() {
  const { entity, project } = route.useParams();
  const projectId = `${entity}/${project}`;
  usePageTitle(`Providers · ${projectId}`);
  const queryClient = useQueryClient();
  const models = useCompletionModels(projectId);
  const isAdmin = useIsSecretsAdmin(entity);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['completion-models', projectId] });
  const providers = models.data?.providers ?? [];
  const custom = providers.filter((p) => p.kind === 'custom');
  const builtin = providers.filter((p) => p.kind === 'builtin');
  const card = (p: CompletionProvider) => (
    <ProviderCard
      key={`${p.kind}:${p.name}`}
      entity={entity}
      project={project}
      provider={p}
      isAdmin={isAdmin}
      onChanged={refresh}
    />
  );
  return (
    <div className={styles.page}>
      <div className={styles.bar}>
        <h1>Model providers</h1>
        <span className={styles.muted}>
          API keys are secrets of {entity}: their values are never shown.{' '}
          <Link to="/$entity/$project/playground" params={{ entity, project }}>
            Open the playground
          </Link>
        </span>
      </div>
      {models.isError && <ErrorBanner error={models.error} onRetry={() => void models.refetch()} />}
      {models.isPending && <p className={styles.muted}>Loading providers…</p>}
      <div className={styles.layout}>
        <div className={styles.list}>
          <h2>Custom providers of {project}</h2>
          {models.data && custom.length === 0 && <p className={styles.muted}>None yet: add one with the form.</p>}
          {custom.map(card)}
          <h2>Built in</h2>
          {builtin.map(card)}
        </div>
        <ProviderForm projectId={projectId} onCreated={refresh} />
      </div>
    </div>
  );
}

function ProviderCard({
  entity,
  project,
  provider: p,
  isAdmin,
  onChanged,
}: {
  entity: string;
  project: string;
  provider: CompletionProvider;
  isAdmin: boolean | undefined;
  onChanged: () => void;
}) {
  return (
    <section className={styles.card} data-testid="provider" data-name={p.name} data-kind={p.kind}>
      <div className={styles.cardHead}>
        <strong>{p.name}</strong>
        <code className={styles.muted}>{p.base_url}</code>
      </div>
      <SecretField entity={entity} name={p.secret_name} isSet={p.secret_set} isAdmin={isAdmin} onSaved={onChanged} />
      <div className={styles.models}>
        {p.models.length === 0 && <span className={styles.muted}>No models yet.</span>}
        {p.models.map((m) => (
          <Link
            key={m.id}
            to="/$entity/$project/playground"
            params={{ entity, project }}
            search={{ models: m.id }}
            className={styles.model}
            title={`Try ${m.id} in the playground${m.max_tokens ? ` (max ${m.max_tokens} tokens)` : ''}`}
            data-testid="provider-model"
            data-id={m.id}
          >
            {m.name}
          </Link>
        ))}
      </div>
      {p.kind === 'custom' && (
        <ProviderModelForm projectId={`${entity}/${project}`} provider={p.name} onCreated={onChanged} />
      )}
    </section>
  );
}
