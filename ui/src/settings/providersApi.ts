// The providers page's writes, through the public API: a custom Provider and its
// ProviderModels as Weave's UI creates them (/obj/create with builtin_object_class; the
// server validates them and answers a 400 naming the field), and a provider's API key as a
// secret of the entity (/admin/secrets/set, admins only). Whether the caller is an admin is
// read from /admin/secrets/list, which answers 403 to anyone else.
import { useQuery } from '@tanstack/react-query';
import { ApiError, postJson } from '../api/client';
import type { ObjCreateReq, ObjCreateRes, SecretListReq, SecretListRes, SecretSetReq } from '../api/types';

/** Weave's sanitization of the object ids it builds from names. */
export const sanitizeId = (s: string): string => s.replace(/[^a-zA-Z0-9_-]/g, '_');

/** The ProviderModel object id of a provider's model, as the server resolves custom::<provider>::<model>. */
export const providerModelId = (provider: string, model: string): string =>
  `${sanitizeId(provider)}-${sanitizeId(model)}`;

export interface NewProvider {
  name: string;
  base_url: string;
  api_key_name: string;
}

export function createProvider(projectId: string, p: NewProvider): Promise<ObjCreateRes> {
  const req: ObjCreateReq = {
    obj: {
      project_id: projectId,
      object_id: p.name,
      builtin_object_class: 'Provider',
      val: { ...p, extra_headers: {}, return_type: 'openai' },
    },
  };
  return postJson<ObjCreateRes>('/obj/create', req);
}

export function createProviderModel(
  projectId: string,
  provider: string,
  model: string,
  maxTokens: number,
): Promise<ObjCreateRes> {
  const req: ObjCreateReq = {
    obj: {
      project_id: projectId,
      object_id: providerModelId(provider, model),
      builtin_object_class: 'ProviderModel',
      val: { name: model, provider, max_tokens: maxTokens },
    },
  };
  return postJson<ObjCreateRes>('/obj/create', req);
}

/** The refusal is the caller's to explain (a 403 here means "not an admin", not "wrong key"). */
export const setSecret = (req: SecretSetReq) =>
  postJson<unknown>('/admin/secrets/set', req, undefined, { ownRefusal: true });

/** True when the caller may set the entity's secrets; false when refused; undefined until known. */
export function useIsSecretsAdmin(entity: string): boolean | undefined {
  const q = useQuery({
    queryKey: ['secrets-admin', entity],
    queryFn: async ({ signal }) => {
      try {
        await postJson<SecretListRes>('/admin/secrets/list', { entity } satisfies SecretListReq, signal, {
          ownRefusal: true,
        });
        return true;
      } catch (e) {
        if (e instanceof ApiError && (e.status === 401 || e.status === 403)) return false;
        throw e;
      }
    },
    staleTime: 60_000,
  });
  return q.data;
}
