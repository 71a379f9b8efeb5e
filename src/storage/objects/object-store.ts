// What every engine must offer for versioned objects, tags and aliases (weave-api.md §3.3).
// The contract is engine-neutral: each method is one logical write or read, and "atomic"
// below means no reader sees half of it. SQLite uses a transaction; an engine without
// transactions (ClickHouse) may use versioned rows / a single insert, as long as the
// observable results are the same.
import type { Micros } from '../../time.js';

export type ObjectKind = 'op' | 'object';

/**
 * Which version of an object a request names.
 * - latest: the version with is_latest set (only live versions can be latest);
 * - index: the version with that version_index (`v<N>`);
 * - digest: exactly that digest (the string is digest-shaped, never an alias);
 * - name: the version an alias of that name points to, else the version whose digest
 *   equals the name.
 */
export type VersionSelector =
  | { readonly kind: 'latest' }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'digest'; readonly digest: string }
  | { readonly kind: 'name'; readonly name: string };

/** A version to create, fully derived by the service (digest, kind and classes included). */
export interface ObjectVersionInput {
  readonly project_id: string;
  readonly object_id: string;
  readonly digest: string;
  readonly kind: ObjectKind;
  readonly base_object_class: string | null;
  readonly leaf_object_class: string | null;
  /** Canonical JSON text of the value (the digest's input); stored and returned verbatim. */
  readonly val: string;
  readonly wb_user_id: string | null;
  readonly created_at: Micros;
}

export interface CreateOutcome {
  readonly digest: string;
  readonly version_index: number;
  /** False when a live version with this digest already existed (nothing new was stored). */
  readonly created: boolean;
}

export interface StoredObjectVersion {
  project_id: string;
  object_id: string;
  digest: string;
  version_index: number;
  is_latest: boolean;
  kind: ObjectKind;
  base_object_class: string | null;
  leaf_object_class: string | null;
  /** JSON text of the value; null when read with metadataOnly. */
  val: string | null;
  /** Length of the stored JSON text. */
  size_bytes: number;
  wb_user_id: string | null;
  created_at: Micros;
  deleted_at: Micros | null;
  /** With includeLabels: the version's tags and user-set aliases ("latest" is not stored). */
  tags?: string[];
  aliases?: string[];
}

export interface ReadOptions {
  readonly metadataOnly: boolean;
  readonly includeLabels: boolean;
}

export type ObjectSortField = 'object_id' | 'created_at';

/** A compiled objs/query. Null (or empty) lists mean "no constraint". */
export interface ObjectsQuery {
  readonly projectId: string;
  readonly objectIds: readonly string[] | null;
  readonly latestOnly: boolean;
  /** true: only ops; false: only non-ops; null: both. */
  readonly isOp: boolean | null;
  readonly baseObjectClasses: readonly string[] | null;
  /** Versions whose base class is one of these are dropped (a null base class is kept). */
  readonly excludeBaseObjectClasses: readonly string[] | null;
  readonly leafObjectClasses: readonly string[] | null;
  /** Any-of: the version carries at least one of these tags. */
  readonly tags: readonly string[] | null;
  /** Any-of: an alias of one of these names points at the version; "latest" matches the latest version. */
  readonly aliases: readonly string[] | null;
  /** Sort terms; empty means created_at ASC. version_index ASC always breaks ties. */
  readonly sort: readonly { readonly field: ObjectSortField; readonly direction: 'asc' | 'desc' }[];
  readonly limit: number | null;
  readonly offset: number | null;
  readonly metadataOnly: boolean;
  readonly includeLabels: boolean;
}

export interface DeletedVersion {
  readonly digest: string;
  readonly base_object_class: string | null;
  readonly leaf_object_class: string | null;
}

export interface DeleteOutcome {
  /** Digests of the live versions the selectors matched (all live versions when none were given). */
  readonly matched: readonly string[];
  /** The matched versions with their classes, in the order of `matched`. */
  readonly versions: readonly DeletedVersion[];
  /** Positions of the selectors that matched no live version. */
  readonly unmatched: readonly number[];
}

export interface ObjectStore {
  /**
   * Atomically stores a version, or re-asserts an existing one:
   * - a live version with this digest exists: nothing is stored, it becomes the latest;
   * - a deleted version with this digest exists: it is resurrected (deleted_at cleared,
   *   created_at, wb_user_id and a new version_index assigned) and becomes the latest;
   * - otherwise a new version is stored as the latest.
   * A new or resurrected version gets version_index = the number of versions of the object
   * (deleted ones included), raised if needed above every index already in use.
   */
  create(v: ObjectVersionInput): Promise<CreateOutcome>;
  /** The version the selector names, deleted or not (latest only ever names a live one); null if none. */
  read(
    projectId: string,
    objectId: string,
    sel: VersionSelector,
    opts: ReadOptions,
  ): Promise<StoredObjectVersion | null>;
  /** Live versions matching the query, sorted and paged. */
  query(q: ObjectsQuery): Promise<StoredObjectVersion[]>;
  /**
   * Atomically soft-deletes live versions: those the selectors match, or every live version
   * when `selectors` is null. All or nothing: when any selector matches no live version,
   * or nothing matches, nothing is deleted. Deleted versions lose their tags and aliases;
   * when the latest version is deleted the newest survivor (created_at, then version_index)
   * becomes the latest.
   */
  delete(
    projectId: string,
    objectId: string,
    selectors: readonly VersionSelector[] | null,
    at: Micros,
  ): Promise<DeleteOutcome>;
  /** Adds tags to the live version named; false when there is no such live version. */
  addTags(projectId: string, objectId: string, sel: VersionSelector, tags: readonly string[]): Promise<boolean>;
  /** Removes tags from the live version named; a missing version or tag is not an error. */
  removeTags(projectId: string, objectId: string, sel: VersionSelector, tags: readonly string[]): Promise<void>;
  /** Points each alias at the live version named, moving it from any other version; false when none. */
  setAliases(projectId: string, objectId: string, sel: VersionSelector, aliases: readonly string[]): Promise<boolean>;
  /** Removes the object's aliases of these names; unknown names are not an error. */
  removeAliases(projectId: string, objectId: string, aliases: readonly string[]): Promise<void>;
  /** Live versions per object id, for the ids given that have any (the others are absent). */
  versionCounts(projectId: string, objectIds: readonly string[]): Promise<Map<string, number>>;
  /** Bytes of the values of the project's live object versions. */
  totalSize(projectId: string): Promise<number>;
  /** Every project having at least one live (not deleted) object version, in no particular order. */
  projectsWithObjects(): Promise<string[]>;
  /** Distinct tags in use in the project, sorted by code point. */
  listTags(projectId: string): Promise<string[]>;
  /** Distinct alias names in the project, sorted, with "latest" while any live version exists. */
  listAliases(projectId: string): Promise<string[]>;
}
