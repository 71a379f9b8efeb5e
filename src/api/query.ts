// The `$expr` query language as a request shape. Its operations nest arbitrarily, so
// the schema checks the envelope and the query compiler (src/query) checks the
// structure, reporting a precise location on error.
import { Type, type Static } from 'typebox';
import { Strict } from './common.js';

export const Query = Strict(
  {
    $expr: Type.Record(Type.String(), Type.Unknown(), {
      description: 'One operation: $and, $or, $not, $eq, $gt, $gte, $lt, $lte, $in, $contains',
    }),
  },
  'Filter expression of the Weave query language',
);
export type Query = Static<typeof Query>;
