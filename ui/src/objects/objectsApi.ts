// The object views' requests, all through the public Weave API: /objs/query for listings,
// /obj/read for a version, the tag and alias routes, and /files/content for an op's code.
import { useInfiniteQuery, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError, postJson, postText } from '../api/client';
import type {
  FileContentReq,
  Obj,
  ObjQueryReq,
  ObjQueryRes,
  ObjReadReq,
  ObjReadRes,
  UiObjectVersionCountsReq,
  UiObjectVersionCountsRes,
} from '../api/types';

/** Listings read this many versions per request; more come with "Load more". */
export const OBJ_PAGE = 500;

export interface Listing {
  objs: Obj[];
  /** False while the server may hold more than what is loaded. */
  complete: boolean;
  isPending: boolean;
  error: unknown;
  loadMore: (() => void) | null;
  loadingMore: boolean;
  refetch(): void;
}

function useListing(key: unknown[], base: Omit<ObjQueryReq, 'limit' | 'offset'>): Listing {
  const q = useInfiniteQuery({
    queryKey: key,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      postJson<ObjQueryRes>('/objs/query', { ...base, limit: OBJ_PAGE, offset: pageParam }, signal),
    getNextPageParam: (last, pages) => (last.objs.length < OBJ_PAGE ? undefined : pages.length * OBJ_PAGE),
  });
  return {
    objs: q.data?.pages.flatMap((p) => p.objs) ?? [],
    complete: q.data !== undefined && !q.hasNextPage,
    isPending: q.isPending,
    error: q.error,
    loadMore: q.hasNextPage ? () => void q.fetchNextPage() : null,
    loadingMore: q.isFetchingNextPage,
    refetch: () => void q.refetch(),
  };
}

/** The latest version of every object of the project, newest first, without values. */
export function useLatestObjects(projectId: string): Listing {
  return useListing(['objects', projectId], {
    project_id: projectId,
    filter: { latest_only: true },
    sort_by: [{ field: 'created_at', direction: 'desc' }],
    metadata_only: true,
    include_tags_and_aliases: true,
  });
}

/** Every version of one object, newest first, without values. */
export function useObjectVersions(projectId: string, objectId: string): Listing {
  const listing = useListing(['object-versions', projectId, objectId], {
    project_id: projectId,
    filter: { object_ids: [objectId] },
    sort_by: [{ field: 'created_at', direction: 'desc' }],
    metadata_only: true,
    include_tags_and_aliases: true,
  });
  // Created times can tie (or be rewritten when a deleted version returns): the index decides.
  return { ...listing, objs: [...listing.objs].sort((a, b) => b.version_index - a.version_index) };
}

/** One version with its value; `digest` may also be "latest", "v<N>" or an alias. */
export function useObjectVersion(projectId: string, objectId: string, digest: string | undefined) {
  const req: ObjReadReq = {
    project_id: projectId,
    object_id: objectId,
    digest: digest ?? '',
    include_tags_and_aliases: true,
  };
  return useQuery({
    queryKey: ['object', projectId, objectId, digest],
    queryFn: ({ signal }) => postJson<ObjReadRes>('/obj/read', req, signal).then((r) => r.obj),
    enabled: digest !== undefined && digest !== '',
    retry: (n, e) => !(e instanceof ApiError && e.status === 404) && n < 2,
  });
}

/** The endpoint takes at most this many ids per request. */
const COUNT_CHUNK = 1000;

/**
 * Live versions per object (a version's index is no count: deleted versions leave gaps and a
 * re-published digest keeps its old index). Undefined until loaded.
 */
export function useVersionCounts(projectId: string, objectIds: readonly string[]): Record<string, number> | undefined {
  const ids = [...new Set(objectIds)].sort();
  const q = useQuery({
    queryKey: ['object-version-counts', projectId, ids],
    enabled: ids.length > 0,
    queryFn: async ({ signal }) => {
      const chunks: string[][] = [];
      for (let i = 0; i < ids.length; i += COUNT_CHUNK) chunks.push(ids.slice(i, i + COUNT_CHUNK));
      const answers = await Promise.all(
        chunks.map((object_ids) =>
          postJson<UiObjectVersionCountsRes>(
            '/ui/api/object_version_counts',
            { project_id: projectId, object_ids } satisfies UiObjectVersionCountsReq,
            signal,
          ),
        ),
      );
      return Object.assign({}, ...answers.map((a) => a.counts)) as Record<string, number>;
    },
  });
  return q.data;
}

/** Refreshes every view of an object after a write (tags and aliases show in all of them). */
export function invalidateObject(qc: QueryClient, projectId: string, objectId: string): Promise<unknown> {
  return Promise.all([
    qc.invalidateQueries({ queryKey: ['objects', projectId] }),
    qc.invalidateQueries({ queryKey: ['object-version-counts', projectId] }),
    qc.invalidateQueries({ queryKey: ['object-versions', projectId, objectId] }),
    qc.invalidateQueries({ queryKey: ['object', projectId, objectId] }),
  ]);
}

export function useInvalidateObject(projectId: string, objectId: string): () => Promise<unknown> {
  const qc = useQueryClient();
  return () => invalidateObject(qc, projectId, objectId);
}

/** A stored file's bytes as UTF-8 text (an op's source). */
export const fileText = (req: FileContentReq, signal?: AbortSignal): Promise<string> =>
  postText('/files/content', req, signal);

/** A stored file as text, cached for good: a digest names immutable content. Idle without a digest. */
export function useFileText(projectId: string, digest: string | undefined) {
  return useQuery({
    queryKey: ['file-text', projectId, digest],
    queryFn: ({ signal }) => fileText({ project_id: projectId, digest: digest ?? '' }, signal),
    enabled: digest !== undefined,
    staleTime: Infinity,
  });
}

/** The path of an object's tag and alias routes (the id is one path segment). */
export const objRoute = (objectId: string, rest: string) => `/objs/${encodeURIComponent(objectId)}${rest}`;
