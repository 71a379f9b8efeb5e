// Request and response schemas of the objects endpoints (weave-api.md §1.11-1.13, §2, §3.3).
// Tag and alias routes follow the newest Weave server as its generated client calls them
// (wandb/weave weave/vendor/weave_server_sdk/resources/objects/{tags,aliases}.py).
import { Type, type Static } from 'typebox';
import { AnyValue, DateTime, EmptyRes, Limit, Nullable, Offset, ProjectId, SortBy, Strict } from './common.js';
import { List, MAX_DELETE_DIGESTS, MAX_FILTER_LENGTH, MAX_NAMES } from './limits.js';
import { defineRoute } from './route-spec.js';

const Strings = Type.Array(Type.String());
const Names = List(Type.String(), MAX_NAMES);
const NullableNames = Nullable(Names);
const IgnoredUserId = Nullable(Type.String({ description: 'Ignored: the server sets the user from the caller' }));

// Nested insert model: lenient (unknown keys ignored), as Weave's ObjSchemaForInsert.
export const ObjSchemaForInsert = Type.Object({
  project_id: ProjectId,
  object_id: Type.String({ description: 'Any non-empty name up to 512 characters, no control characters' }),
  val: AnyValue,
  builtin_object_class: Nullable(Type.String()),
  set_base_object_class: Nullable(
    Type.String({ deprecated: true, description: 'Deprecated alias of builtin_object_class' }),
  ),
  wb_user_id: IgnoredUserId,
  expected_digest: Nullable(
    Type.String({ description: 'When given, must equal the digest the server computes (else 409)' }),
  ),
});
export type ObjSchemaForInsert = Static<typeof ObjSchemaForInsert>;

export const ObjCreateReq = Strict({ obj: ObjSchemaForInsert });
export type ObjCreateReq = Static<typeof ObjCreateReq>;
export const ObjCreateRes = Type.Object({ digest: Type.String(), object_id: Type.String() });

const NullableString = Type.Union([Type.String(), Type.Null()]);
export const ObjSchema = Type.Object({
  project_id: Type.String(),
  object_id: Type.String(),
  created_at: DateTime,
  deleted_at: Type.Union([DateTime, Type.Null()]),
  digest: Type.String(),
  version_index: Type.Integer(),
  is_latest: Type.Integer({ minimum: 0, maximum: 1, description: 'An integer, not a boolean' }),
  kind: Type.Union([Type.Literal('op'), Type.Literal('object')]),
  base_object_class: NullableString,
  leaf_object_class: NullableString,
  val: AnyValue,
  wb_user_id: NullableString,
  size_bytes: Type.Optional(Type.Integer({ description: 'Only with include_storage_size' })),
  tags: Type.Optional(Type.Array(Type.String(), { description: 'Only with include_tags_and_aliases; sorted' })),
  aliases: Type.Optional(
    Type.Array(Type.String(), { description: 'Only with include_tags_and_aliases; "latest" first' }),
  ),
});

export const ObjReadReq = Strict({
  project_id: ProjectId,
  object_id: Type.String(),
  digest: Type.String({ description: 'A digest, "latest", "v<N>" or an alias name' }),
  metadata_only: Nullable(Type.Boolean({ default: false })),
  include_tags_and_aliases: Nullable(Type.Boolean({ default: false })),
});
export type ObjReadReq = Static<typeof ObjReadReq>;
export const ObjReadRes = Type.Object({ obj: ObjSchema });

export const ObjectVersionFilter = Strict({
  base_object_classes: NullableNames,
  exclude_base_object_classes: NullableNames,
  leaf_object_classes: NullableNames,
  object_ids: Nullable(List(Type.String(), MAX_FILTER_LENGTH)),
  is_op: Nullable(Type.Boolean()),
  latest_only: Nullable(Type.Boolean()),
  tags: NullableNames,
  aliases: NullableNames,
});
export type ObjectVersionFilter = Static<typeof ObjectVersionFilter>;

export const ObjQueryReq = Strict({
  project_id: ProjectId,
  filter: Nullable(ObjectVersionFilter),
  limit: Limit,
  offset: Offset,
  sort_by: Nullable(
    List(SortBy, MAX_NAMES, { description: 'Only object_id and created_at are honoured; other fields are ignored' }),
  ),
  metadata_only: Nullable(Type.Boolean({ default: false })),
  include_storage_size: Nullable(Type.Boolean({ default: false })),
  include_tags_and_aliases: Nullable(Type.Boolean({ default: false })),
});
export type ObjQueryReq = Static<typeof ObjQueryReq>;
export const ObjQueryRes = Type.Object({ objs: Type.Array(ObjSchema) });

export const ObjDeleteReq = Strict({
  project_id: ProjectId,
  object_id: Type.String(),
  digests: Nullable(List(Type.String(), MAX_DELETE_DIGESTS, { description: 'Omitted or empty deletes every version' })),
  wb_user_id: IgnoredUserId,
});
export type ObjDeleteReq = Static<typeof ObjDeleteReq>;
const Klass = Type.Union([Type.String(), Type.Null()]);
export const ObjDeleteRes = Type.Object({
  num_deleted: Type.Integer(),
  deleted_versions: Type.Array(
    Type.Object({ digest: Type.String(), base_object_class: Klass, leaf_object_class: Klass }),
    {
      description: 'Each deleted version, with aliases resolved to content digests',
    },
  ),
});
export type ObjDeleteRes = Static<typeof ObjDeleteRes>;

// object_id and digest travel in the URL path of these routes.
export const ObjTagsBody = Strict({ project_id: ProjectId, tags: Names, wb_user_id: IgnoredUserId });
export type ObjTagsBody = Static<typeof ObjTagsBody>;
export const ObjSetAliasesBody = Strict({
  project_id: ProjectId,
  digest: Type.String(),
  aliases: Names,
  wb_user_id: IgnoredUserId,
});
export type ObjSetAliasesBody = Static<typeof ObjSetAliasesBody>;
export const ObjRemoveAliasesBody = Strict({ project_id: ProjectId, aliases: Names, wb_user_id: IgnoredUserId });
export type ObjRemoveAliasesBody = Static<typeof ObjRemoveAliasesBody>;
export const TagsListRes = Type.Object({ tags: Strings });
export const AliasesListRes = Type.Object({ aliases: Strings });

/** Path parameters of the tag and alias routes (decoded: `my%2Fop` is the id `my/op`). */
export const ObjVersionParams = Type.Object({
  object_id: Type.String({ minLength: 1 }),
  digest: Type.String({ minLength: 1 }),
});
export const ObjParams = Type.Object({ object_id: Type.String({ minLength: 1 }) });
export const ProjectQuery = Type.Object({ project_id: ProjectId });
const PUT = 'PUT';

const tag = 'Objects';
export const objectsRoutes = {
  objCreate: defineRoute({
    access: 'write',
    id: 'obj_create',
    method: 'POST',
    path: '/obj/create',
    tag,
    summary: 'Create an object version (idempotent)',
    carriesData: true,
    body: ObjCreateReq,
    response: ObjCreateRes,
    errors: [400, 409],
  }),
  objRead: defineRoute({
    access: 'read',
    id: 'obj_read',
    method: 'POST',
    path: '/obj/read',
    tag,
    summary: 'Read one object version',
    body: ObjReadReq,
    response: ObjReadRes,
    errors: [404],
  }),
  objsQuery: defineRoute({
    access: 'read',
    id: 'objs_query',
    method: 'POST',
    path: '/objs/query',
    tag,
    summary: 'List object versions',
    body: ObjQueryReq,
    response: ObjQueryRes,
  }),
  objDelete: defineRoute({
    access: 'write',
    id: 'obj_delete',
    method: 'POST',
    path: '/obj/delete',
    tag,
    summary: 'Delete object versions',
    body: ObjDeleteReq,
    response: ObjDeleteRes,
    errors: [400, 404],
  }),
  objAddTags: defineRoute({
    access: 'write',
    id: 'obj_add_tags',
    method: PUT,
    path: '/objs/:object_id/versions/:digest/tags',
    params: ObjVersionParams,
    tag,
    summary: 'Add tags to an object version',
    body: ObjTagsBody,
    response: EmptyRes,
    errors: [400, 404],
  }),
  objRemoveTags: defineRoute({
    access: 'write',
    id: 'obj_remove_tags',
    method: 'POST',
    path: '/objs/:object_id/versions/:digest/tags/remove',
    params: ObjVersionParams,
    tag,
    summary: 'Remove tags from an object version',
    body: ObjTagsBody,
    response: EmptyRes,
    errors: [400],
  }),
  objSetAliases: defineRoute({
    access: 'write',
    id: 'obj_set_aliases',
    method: PUT,
    path: '/objs/:object_id/aliases',
    params: ObjParams,
    tag,
    summary: 'Point aliases at an object version',
    body: ObjSetAliasesBody,
    response: EmptyRes,
    errors: [400, 404],
  }),
  objRemoveAliases: defineRoute({
    access: 'write',
    id: 'obj_remove_aliases',
    method: 'POST',
    path: '/objs/:object_id/aliases/remove',
    params: ObjParams,
    tag,
    summary: 'Remove aliases of an object',
    body: ObjRemoveAliasesBody,
    response: EmptyRes,
    errors: [400],
  }),
  tagsList: defineRoute({
    access: 'read',
    id: 'tags_list',
    method: 'GET',
    path: '/tags',
    querystring: ProjectQuery,
    tag,
    summary: 'Tags in use in a project',
    body: undefined,
    response: TagsListRes,
  }),
  aliasesList: defineRoute({
    access: 'read',
    id: 'aliases_list',
    method: 'GET',
    path: '/aliases',
    querystring: ProjectQuery,
    tag,
    summary: 'Alias names in a project',
    body: undefined,
    response: AliasesListRes,
  }),
} as const;
