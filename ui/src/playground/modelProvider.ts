// Which provider of /completions/models a model id goes to, as far as the UI can tell: a listed
// model, `custom::<provider>::<model>` (or `custom::<provider>-<model>`), `<provider>/<model>`.
// A typed id of a builtin provider that is not listed (gpt-3.5-turbo) stays unknown: the server
// decides, and says so in place when it cannot.
import type { CompletionProvider } from '../api/types';

export function modelProvider(providers: readonly CompletionProvider[], model: string): CompletionProvider | null {
  const listed = providers.find((p) => p.models.some((m) => m.id === model));
  if (listed) return listed;
  if (model.startsWith('custom::')) {
    const rest = model.slice('custom::'.length);
    const name = rest.includes('::') ? rest.slice(0, rest.indexOf('::')) : rest;
    return providers.find((p) => p.kind === 'custom' && (p.name === name || name.startsWith(`${p.name}-`))) ?? null;
  }
  const slash = model.indexOf('/');
  return slash > 0 ? (providers.find((p) => p.name === model.slice(0, slash)) ?? null) : null;
}

/** The model to start with: the first of a provider whose key is set, else the first listed. */
export function defaultModel(providers: readonly CompletionProvider[]): string | null {
  const ready = providers.find((p) => p.secret_set && p.models.length > 0);
  return (ready ?? providers.find((p) => p.models.length > 0))?.models[0]?.id ?? null;
}
