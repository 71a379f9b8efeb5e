// Request and response schemas of the refs endpoints (weave-api.md §1.18, §3.4).
import { Type, type Static } from 'typebox';
import { AnyValue, Strict } from './common.js';
import { List, MAX_FILTER_LENGTH } from './limits.js';
import { defineRoute } from './route-spec.js';

export const RefsReadBatchReq = Strict({
  refs: List(Type.String(), MAX_FILTER_LENGTH, {
    description: `Object or op refs with an exact digest; e.g. weave:///<entity>/<project>/object/<name>:<digest>/attr/rows/id/<row_digest>`,
  }),
});
export type RefsReadBatchReq = Static<typeof RefsReadBatchReq>;

export const RefsReadBatchRes = Type.Object({
  vals: Type.Array(AnyValue, {
    description: 'One value per ref, same order; null for a deleted object or a path that leads nowhere',
  }),
});

const tag = 'Refs';
export const refsRoutes = {
  refsReadBatch: defineRoute({
    access: 'read',
    id: 'refs_read_batch',
    method: 'POST',
    path: '/refs/read_batch',
    tag,
    summary: 'Read the values of object and op refs',
    body: RefsReadBatchReq,
    projectRefs: ['refs'],
    response: RefsReadBatchRes,
    errors: [400, 404],
  }),
} as const;
