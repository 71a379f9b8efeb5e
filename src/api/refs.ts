// Request and response schemas of the refs endpoints (weave-api.md §1.18, §3.4).
import { Type, type Static } from 'typebox';
import { AnyValue, Strict } from './common.js';
import { defineRoute } from './route-spec.js';

/** At most this many refs per request; more is a 400 "Too many refs", as in Weave (not a 422). */
export const MAX_REFS_PER_READ = 1000;

export const RefsReadBatchReq = Strict({
  refs: Type.Array(Type.String(), {
    description: `Object or op refs with an exact digest, at most ${MAX_REFS_PER_READ}; e.g. weave:///<entity>/<project>/object/<name>:<digest>/attr/rows/id/<row_digest>`,
  }),
});
export type RefsReadBatchReq = Static<typeof RefsReadBatchReq>;

export const RefsReadBatchRes = Type.Object({
  vals: Type.Array(AnyValue, { description: 'One value per ref, same order; null for a deleted object or a path that leads nowhere' }),
});

const tag = 'Refs';
export const refsRoutes = {
  refsReadBatch: defineRoute({
    access: 'read', id: 'refs_read_batch', method: 'POST', path: '/refs/read_batch', tag, summary: 'Read the values of object and op refs',
    body: RefsReadBatchReq, response: RefsReadBatchRes, errors: [400, 404],
  }),
} as const;
