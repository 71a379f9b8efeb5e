// The bounds of what one request may ask, so that no request holds the event loop (or an
// engine) for long: every list a request schema takes has `maxItems` (test/request-bounds
// checks each), query expressions and GraphQL documents are bounded where they are compiled,
// and a body that stores nothing is small. docs/limits.md lists them for users.
import { Type, type TArrayOptions, type TSchema } from 'typebox';

/**
 * A body that stores nothing (a query, ids, settings) is at most this large, or the configured
 * body limit when that is smaller; one that stores data (calls, objects, rows, files,
 * feedback, prices, spans: `carriesData` routes) may be as large as WEFT_BODY_LIMIT.
 */
export const QUERY_BODY_LIMIT = 1024 * 1024;

/** Weave's MAX_FILTER_LENGTH: ids, names and refs listed in one filter or read. */
export const MAX_FILTER_LENGTH = 1000;
/** Calls deleted by one /calls/delete (Weave answers 413 past it, and so does Weft). */
export const MAX_DELETE_CALLS = 1000;
/** Versions deleted by one /obj/delete (Weave's limit). */
export const MAX_DELETE_DIGESTS = 100;
/** Sort keys, requested fields, tags, aliases and other short lists of names. */
export const MAX_NAMES = 100;
/** Columns of a calls query (the UI asks for the ones it shows). */
export const MAX_COLUMNS = 1000;
/** Row or table digests named by one table read. */
export const MAX_DIGESTS = 10_000;

/** Operands of one `$expr` (every `{$op: ...}` object, literals and fields included). */
export const MAX_QUERY_OPERANDS = 2000;
/** How deep operations nest in one `$expr` (`{$and: [{$eq: [...]}]}` is 2 deep). */
export const MAX_QUERY_DEPTH = 32;

/** GraphQL: tokens of a document (the SDKs' largest, upsertModel, has 62), refused while parsing. */
export const GRAPHQL_MAX_TOKENS = 1000;
/** GraphQL: fields one document selects, fragments expanded (each field costs 1). */
export const GRAPHQL_MAX_FIELDS = 200;

/**
 * Status of a list past its `maxItems` when the API defines one other than 400 (Weave's 413
 * for /calls/delete). Read by http/error-handler.ts from the failing schema.
 */
export const TOO_MANY_STATUS = 'x-too-many-status';

/**
 * The data a write stores, bounded by the body limit rather than a count (the Python SDK splits
 * a large dataset by bytes only). Allowed only in `carriesData` routes.
 */
export const BOUNDED_BY_BODY = 'x-bounded-by-body';

/** A list of at most `max` items. */
export const List = <T extends TSchema>(items: T, max: number, options: TArrayOptions = {}) =>
  Type.Array(items, { ...options, maxItems: max });

/** The data of a write: as many items as the body limit allows. */
export const DataList = <T extends TSchema>(items: T, options: TArrayOptions = {}) =>
  Type.Array(items, { ...options, [BOUNDED_BY_BODY]: true });
