// Where a completion goes: `inputs.model` resolved to a provider's endpoint, the secret holding
// its key, the name the provider knows the model by and the key its usage is recorded under,
// as Weave resolves it (weave-objects.md §4, §9.2):
//   custom::<provider>::<model>   the ProviderModel `<provider>-<model>` (each sanitized) and its Provider
//   custom::<object id>           that ProviderModel
//   <builtin>/<model>             a builtin provider (openai/, anthropic/, groq/, openrouter/...)
//   <provider>/<model>            older Weave: a custom provider's model, when one is stored
//   gpt-4o, claude-..., gemini-.. the builtin provider that owns the plain id
// A failure is a CompletionSetupError, which the route answers as Weave does: 200, response.error.
import type { ObjectStore, StoredObjectVersion, VersionSelector } from '../../storage/objects/object-store.js';
import { isContentHash } from '../json/digest.js';
import { tryParseRef } from '../refs/refs.js';
import { type BuiltinProvider, builtinBaseUrl, builtinProvider, ownerOf } from './builtin-providers.js';

export interface ModelRoute {
  readonly kind: 'builtin' | 'custom';
  /** The provider's name: a builtin's, or the Provider object's id. */
  readonly provider: string;
  /** Without a trailing `/`; the client appends /chat/completions. */
  readonly baseUrl: string;
  readonly secretName: string;
  /** The model as the provider knows it. */
  readonly model: string;
  readonly extraHeaders: Readonly<Record<string, string>>;
  /** The key of summary.usage (and so of the price lookup). */
  readonly usageKey: string;
}

/** The request cannot be sent; its message is the answer's response.error. */
export class CompletionSetupError extends Error {}

const CUSTOM = 'custom::';

/** Weave's sanitization of object ids built from names. */
export const sanitizeId = (s: string): string => s.replace(/[^a-zA-Z0-9_-]/g, '_');

/** The ProviderModel object id of a custom provider's model. */
export const providerModelId = (provider: string, model: string): string =>
  `${sanitizeId(provider)}-${sanitizeId(model)}`;

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

function builtinRoute(p: BuiltinProvider, model: string, usageKey: string, env: NodeJS.ProcessEnv): ModelRoute {
  return {
    kind: 'builtin',
    provider: p.name,
    baseUrl: builtinBaseUrl(p, env),
    secretName: p.secretName,
    model,
    extraHeaders: {},
    usageKey,
  };
}

async function readLive(
  objects: ObjectStore,
  projectId: string,
  objectId: string,
  selector: VersionSelector,
): Promise<StoredObjectVersion | null> {
  const v = await objects.read(projectId, objectId, selector, { metadataOnly: false, includeLabels: false });
  return v === null || v.deleted_at !== null || v.val === null ? null : v;
}

const isClass = (v: StoredObjectVersion, cls: string) => v.base_object_class === cls || v.leaf_object_class === cls;

/**
 * The Provider a ProviderModel names. Weave reads `provider` as a digest of the object named like
 * the provider; what its UI stores is not known, so a digest, a ref, an alias and the provider's
 * own id (its latest version) are all read.
 */
async function providerOf(objects: ObjectStore, projectId: string, name: string, pointer: string) {
  const ref = tryParseRef(pointer);
  if (ref !== null && ref.kind === 'object' && ref.projectId === projectId)
    return readLive(
      objects,
      projectId,
      ref.name,
      isContentHash(ref.digest) ? { kind: 'digest', digest: ref.digest } : { kind: 'latest' },
    );
  if (isContentHash(pointer)) return readLive(objects, projectId, name, { kind: 'digest', digest: pointer });
  if (pointer === name || pointer === 'latest') return readLive(objects, projectId, name, { kind: 'latest' });
  return (
    (await readLive(objects, projectId, name, { kind: 'name', name: pointer })) ??
    (await readLive(objects, projectId, pointer, { kind: 'latest' }))
  );
}

async function customRoute(
  objects: ObjectStore,
  projectId: string,
  modelObjectId: string,
  providerHint: string | null,
): Promise<ModelRoute> {
  const fail = (why: string) => new CompletionSetupError(`Failed to fetch provider model information: ${why}`);
  const pm = await readLive(objects, projectId, modelObjectId, { kind: 'latest' });
  if (pm === null || !isClass(pm, 'ProviderModel')) throw fail(`no ProviderModel ${modelObjectId} in ${projectId}`);
  const pmVal = JSON.parse(pm.val!) as Dict;
  const pointer = typeof pmVal.provider === 'string' ? pmVal.provider : '';
  const ref = tryParseRef(pointer);
  const providerName = providerHint ?? (ref?.kind === 'object' ? ref.name : pointer);
  const provider = pointer === '' ? null : await providerOf(objects, projectId, providerName, pointer);
  if (provider === null || !isClass(provider, 'Provider'))
    throw fail(`ProviderModel ${modelObjectId} names provider ${JSON.stringify(pointer)}, which is not a Provider`);
  const p = JSON.parse(provider.val!) as Dict;
  if (typeof p.base_url !== 'string' || typeof p.api_key_name !== 'string')
    throw fail(`Provider ${provider.object_id} lacks base_url or api_key_name`);
  const upstream = typeof pmVal.name === 'string' && pmVal.name !== '' ? pmVal.name : modelObjectId;
  const headers: Record<string, string> = {};
  if (isDict(p.extra_headers)) for (const [k, v] of Object.entries(p.extra_headers)) headers[k] = String(v);
  return {
    kind: 'custom',
    provider: provider.object_id,
    baseUrl: p.base_url.replace(/\/+$/, ''),
    secretName: p.api_key_name,
    model: upstream,
    extraHeaders: headers,
    usageKey: `${provider.object_id}/${upstream}`,
  };
}

export async function resolveModel(
  objects: ObjectStore,
  projectId: string,
  model: string,
  env: NodeJS.ProcessEnv,
): Promise<ModelRoute> {
  if (model.startsWith(CUSTOM)) {
    const rest = model.slice(CUSTOM.length);
    const split = rest.indexOf('::');
    if (split < 0) return customRoute(objects, projectId, rest, null);
    const provider = rest.slice(0, split);
    return customRoute(objects, projectId, providerModelId(provider, rest.slice(split + 2)), provider);
  }
  const slash = model.indexOf('/');
  if (slash > 0) {
    const prefix = model.slice(0, slash);
    const builtin = builtinProvider(prefix);
    if (builtin !== null) return builtinRoute(builtin, model.slice(slash + 1), model, env);
    const id = providerModelId(prefix, model.slice(slash + 1));
    if ((await readLive(objects, projectId, id, { kind: 'latest' })) !== null)
      return customRoute(objects, projectId, id, prefix);
  }
  const owner = ownerOf(model);
  if (owner !== null) return builtinRoute(owner, model, model, env);
  throw new CompletionSetupError(
    `Unknown model ${JSON.stringify(model)}: name a provider, as <provider>/<model> or custom::<provider>::<model>`,
  );
}
