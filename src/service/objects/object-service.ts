// The objects API over an ObjectStore: request shapes in, typed store calls, errors and
// rendered answers out (weave-api.md §1.11-1.13, §2, §3.3).
import type { ObjCreateReq, ObjDeleteReq, ObjDeleteRes, ObjQueryReq, ObjReadReq } from '../../api/objects.js';
import { DigestMismatchError, InvalidRequestError, NotFoundError, ObjectDeletedError } from '../../api/errors.js';
import type { ObjectSortField, ObjectsQuery, ObjectStore } from '../../storage/objects/object-store.js';
import { canonicalJson, strDigest } from '../json/digest.js';
import { assertSafeFileKeys, objectKind, resolveObjectClasses } from './object-classes.js';
import { objJson } from './object-format.js';
import { checkMonitorQuery, isMonitorClass } from './monitor-query.js';
import { parseSelector, validateAliases, validateObjectId, validateTags } from './object-names.js';
import { formatTimestamp, nowMicros } from '../../time.js';

const SORT_FIELDS: ReadonlySet<string> = new Set<ObjectSortField>(['object_id', 'created_at']);
const nonEmpty = (xs: readonly string[] | null | undefined): readonly string[] | null =>
  xs && xs.length > 0 ? xs : null;
/** Python's repr of a list of strings (or None), for messages that mirror Weave's. */
const pyList = (xs: readonly string[] | null | undefined) => (xs ? `[${xs.map((x) => `'${x}'`).join(', ')}]` : 'None');

/** Canonical JSON of a request value; nesting deeper than the stack allows is the client's problem (400). */
function canonicalizeVal(val: unknown): string {
  try {
    return canonicalJson(val);
  } catch (e) {
    if (e instanceof RangeError) throw new InvalidRequestError('Object value is nested too deeply');
    throw e;
  }
}

/** Creates (or re-asserts) a version; the caller's identity, never the body's, is the creator. */
export async function createObject(
  store: ObjectStore,
  req: ObjCreateReq,
  userId: string,
): Promise<{ digest: string; object_id: string }> {
  const obj = req.obj;
  validateObjectId(obj.object_id);
  assertSafeFileKeys(obj.val);
  const { val: stored, ...classes } = resolveObjectClasses(
    obj.val,
    obj.builtin_object_class ?? obj.set_base_object_class ?? null,
  );
  if (isMonitorClass(classes)) checkMonitorQuery(stored);
  const val = canonicalizeVal(stored);
  const digest = strDigest(val);
  if (obj.expected_digest != null && obj.expected_digest !== digest) {
    throw new DigestMismatchError(
      `Digest mismatch for obj ${JSON.stringify(obj.object_id)}: expected ${obj.expected_digest}, computed ${digest}`,
    );
  }
  await store.create({
    project_id: obj.project_id,
    object_id: obj.object_id,
    digest,
    kind: objectKind(stored),
    ...classes,
    val,
    wb_user_id: userId,
    created_at: nowMicros(),
  });
  return { digest, object_id: obj.object_id };
}

/** `{"obj": ObjSchema}` as JSON text; 404 when missing, 404 with deleted_at when deleted. */
export async function readObject(store: ObjectStore, req: ObjReadReq): Promise<string> {
  const includeTagsAndAliases = req.include_tags_and_aliases === true;
  const v = await store.read(req.project_id, req.object_id, parseSelector(req.digest), {
    metadataOnly: req.metadata_only === true,
    includeLabels: includeTagsAndAliases,
  });
  if (v === null) throw new NotFoundError(`Obj ${req.object_id}:${req.digest} not found`);
  if (v.deleted_at !== null) {
    const at = formatTimestamp(v.deleted_at);
    throw new ObjectDeletedError(`${req.object_id}:v${v.version_index} was deleted at ${at}`, at);
  }
  return `{"obj":${objJson(v, { includeStorageSize: false, includeTagsAndAliases })}}`;
}

export function compileObjectsQuery(req: ObjQueryReq): ObjectsQuery {
  const f = req.filter ?? {};
  return {
    projectId: req.project_id,
    objectIds: nonEmpty(f.object_ids),
    latestOnly: f.latest_only === true,
    isOp: f.is_op ?? null,
    baseObjectClasses: nonEmpty(f.base_object_classes),
    excludeBaseObjectClasses: nonEmpty(f.exclude_base_object_classes),
    leafObjectClasses: nonEmpty(f.leaf_object_classes),
    tags: nonEmpty(f.tags),
    aliases: nonEmpty(f.aliases),
    // Only object_id and created_at sort objects; other fields are ignored, as Weave does.
    sort: (req.sort_by ?? [])
      .filter((s) => SORT_FIELDS.has(s.field))
      .map((s) => ({ field: s.field as ObjectSortField, direction: s.direction })),
    limit: req.limit ?? null,
    offset: req.offset ?? null,
    metadataOnly: req.metadata_only === true,
    includeLabels: req.include_tags_and_aliases === true,
  };
}

/** The latest live version of each object of a base class (at most 1,000, by object id). */
export function latestOfClass(projectId: string, baseClass: string): ObjectsQuery {
  return {
    projectId,
    objectIds: null,
    latestOnly: true,
    isOp: false,
    baseObjectClasses: [baseClass],
    excludeBaseObjectClasses: null,
    leafObjectClasses: null,
    tags: null,
    aliases: null,
    sort: [{ field: 'object_id', direction: 'asc' }],
    limit: 1000,
    offset: null,
    metadataOnly: false,
    includeLabels: false,
  };
}

/** `{"objs": [ObjSchema...]}` as JSON text: live versions only. */
export async function queryObjects(store: ObjectStore, req: ObjQueryReq): Promise<string> {
  const q = compileObjectsQuery(req);
  const opts = { includeStorageSize: req.include_storage_size === true, includeTagsAndAliases: q.includeLabels };
  const rows = await store.query(q);
  return `{"objs":[${rows.map((v) => objJson(v, opts)).join(',')}]}`;
}

/** Soft-deletes the named versions (all live versions when none are named), all or nothing. */
export async function deleteObjects(store: ObjectStore, req: ObjDeleteReq): Promise<ObjDeleteRes> {
  const digests = nonEmpty(req.digests);
  const out = await store.delete(req.project_id, req.object_id, digests?.map(parseSelector) ?? null, nowMicros());
  if (out.matched.length === 0)
    throw new NotFoundError(`Object ${req.object_id} (${pyList(req.digests)}) not found when deleting.`);
  if (out.unmatched.length > 0) {
    const missing = out.unmatched.map((i) => digests![i]!);
    throw new NotFoundError(
      `Delete request contains ${digests!.length} digests, but found ${out.matched.length} objects to delete. Diff digests: ${pyList(missing)}`,
    );
  }
  return { num_deleted: out.matched.length, deleted_versions: [...out.versions] };
}

export async function addTags(
  store: ObjectStore,
  projectId: string,
  objectId: string,
  digest: string,
  tags: readonly string[],
): Promise<void> {
  validateTags(tags);
  if (!(await store.addTags(projectId, objectId, parseSelector(digest), tags))) {
    throw new NotFoundError(`Object version ${objectId}:${digest} not found`);
  }
}

export async function removeTags(
  store: ObjectStore,
  projectId: string,
  objectId: string,
  digest: string,
  tags: readonly string[],
): Promise<void> {
  await store.removeTags(projectId, objectId, parseSelector(digest), tags);
}

export async function setAliases(
  store: ObjectStore,
  projectId: string,
  objectId: string,
  digest: string,
  aliases: readonly string[],
): Promise<void> {
  validateAliases(aliases);
  if (!(await store.setAliases(projectId, objectId, parseSelector(digest), aliases))) {
    throw new NotFoundError(`Object version ${objectId}:${digest} not found`);
  }
}

export async function removeAliases(
  store: ObjectStore,
  projectId: string,
  objectId: string,
  aliases: readonly string[],
): Promise<void> {
  validateAliases(aliases);
  await store.removeAliases(projectId, objectId, aliases);
}
