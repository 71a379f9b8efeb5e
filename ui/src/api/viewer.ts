// Who the UI acts as: the caller W&B's GraphQL `viewer` names (the key's user, or the local
// user of open mode). Feedback the viewer wrote can be taken back.
import { useQuery } from '@tanstack/react-query';
import { useAuth } from './auth';
import { postJson } from './client';

export interface Viewer {
  id: string;
  username: string;
}

export function useViewer(): Viewer | null {
  const { key } = useAuth();
  const q = useQuery({
    queryKey: ['viewer', key],
    queryFn: async ({ signal }) =>
      (
        await postJson<{ data?: { viewer?: Viewer | null } }>(
          '/graphql',
          { query: '{ viewer { id username } }' },
          signal,
        )
      ).data?.viewer ?? null,
    staleTime: Infinity,
  });
  return q.data ?? null;
}
