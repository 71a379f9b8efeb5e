// Renders stored object versions as ObjSchema JSON text. The value is spliced in as the
// stored canonical JSON text, unparsed: the answer keeps the exact text that was hashed
// (key order and number spelling included) and large values are not re-encoded.
import type { StoredObjectVersion } from '../../storage/objects/object-store.js';
import { compareCodePoints } from '../json/python-json.js';
import { formatTimestamp } from '../../time.js';

export interface ObjRenderOptions {
  readonly includeStorageSize: boolean;
  readonly includeTagsAndAliases: boolean;
}

/** User aliases sorted, with the derived "latest" first when the version is the latest. */
export function displayAliases(v: StoredObjectVersion): string[] {
  const own = [...(v.aliases ?? [])].filter((a) => a !== 'latest').sort(compareCodePoints);
  return v.is_latest ? ['latest', ...own] : own;
}

/** ObjSchema as JSON text: every field present; size_bytes, tags and aliases only when asked for. */
export function objJson(v: StoredObjectVersion, opts: ObjRenderOptions): string {
  const head: Record<string, unknown> = {
    project_id: v.project_id,
    object_id: v.object_id,
    created_at: formatTimestamp(v.created_at),
    deleted_at: v.deleted_at === null ? null : formatTimestamp(v.deleted_at),
    digest: v.digest,
    version_index: v.version_index,
    is_latest: v.is_latest ? 1 : 0,
    kind: v.kind,
    base_object_class: v.base_object_class,
    leaf_object_class: v.leaf_object_class,
    wb_user_id: v.wb_user_id,
  };
  if (opts.includeStorageSize) head.size_bytes = v.size_bytes;
  if (opts.includeTagsAndAliases) {
    head.tags = [...(v.tags ?? [])].sort(compareCodePoints);
    head.aliases = displayAliases(v);
  }
  // metadata_only reads carry no value: the API answers an empty object.
  return `${JSON.stringify(head).slice(0, -1)},"val":${v.val ?? '{}'}}`;
}
