// What /completions/models answers: the builtin providers with a few of their models, then the
// project's Provider objects with their ProviderModels (as `custom::<provider>::<model>`), each
// saying whether the secret its key is read from is set for the project's entity. Names of
// secrets only: never a value.
import type { CompletionsModelsRes } from '../../api/completions.js';
import type { StoredObjectVersion } from '../../storage/objects/object-store.js';
import { latestOfClass } from '../objects/object-service.js';
import { refUri } from '../refs/refs.js';
import { BUILTIN_PROVIDERS, builtinBaseUrl } from './builtin-providers.js';
import type { CompletionsDeps } from './completions-service.js';

type Dict = Record<string, unknown>;

const valOf = (v: StoredObjectVersion): Dict => (v.val === null ? {} : (JSON.parse(v.val) as Dict));

export async function listModels(
  deps: Pick<CompletionsDeps, 'objects' | 'secrets' | 'env'>,
  projectId: string,
): Promise<CompletionsModelsRes> {
  const entity = projectId.slice(0, projectId.indexOf('/'));
  const project = projectId.slice(entity.length + 1);
  const providers: CompletionsModelsRes['providers'] = [];
  for (const p of BUILTIN_PROVIDERS)
    providers.push({
      name: p.name,
      kind: 'builtin',
      base_url: builtinBaseUrl(p, deps.env),
      secret_name: p.secretName,
      secret_set: await deps.secrets.has(entity, p.secretName),
      ref: null,
      models: p.models.map((id) => ({ id, provider: p.name, name: id.slice(id.indexOf('/') + 1), max_tokens: null })),
    });
  const [custom, models] = await Promise.all([
    deps.objects.query(latestOfClass(projectId, 'Provider')),
    deps.objects.query(latestOfClass(projectId, 'ProviderModel')),
  ]);
  for (const v of custom) {
    const val = valOf(v);
    const secret = typeof val.api_key_name === 'string' ? val.api_key_name : '';
    const own = models.filter((m) => {
      const pointer = valOf(m).provider;
      return (
        pointer === v.object_id ||
        pointer === v.digest ||
        (typeof pointer === 'string' && pointer.includes(`/${v.object_id}:`))
      );
    });
    providers.push({
      name: v.object_id,
      kind: 'custom',
      base_url: typeof val.base_url === 'string' ? val.base_url : '',
      secret_name: secret,
      secret_set: secret !== '' && (await deps.secrets.has(entity, secret)),
      ref: refUri({ kind: 'object', entity, project, projectId, name: v.object_id, digest: v.digest, extra: [] }),
      models: own.map((m) => {
        const name = String(valOf(m).name ?? m.object_id);
        const max = valOf(m).max_tokens;
        return {
          id: `custom::${v.object_id}::${name}`,
          provider: v.object_id,
          name,
          max_tokens: typeof max === 'number' ? max : null,
        };
      }),
    });
  }
  return { providers };
}
