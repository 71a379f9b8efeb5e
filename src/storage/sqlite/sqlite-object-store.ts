// Versioned objects, tags and aliases on SQLite. Every write is one IMMEDIATE transaction
// (acknowledged after commit); values only ever travel as bound parameters, lists as one
// JSON-array parameter read with json_each (no limit on list length, fixed SQL text).
import type Database from 'better-sqlite3';
import { assertNever } from '../../query/plan.js';
import type {
  CreateOutcome, DeleteOutcome, ObjectSortField, ObjectsQuery, ObjectStore, ObjectVersionInput,
  ReadOptions, StoredObjectVersion, VersionSelector,
} from '../object-store.js';
import type { SqliteDb } from './sqlite-database.js';

interface Row extends Omit<StoredObjectVersion, 'is_latest'> {
  is_latest: number;
}

const META_COLUMNS = `v.project_id, v.object_id, v.digest, v.version_index, v.is_latest, v.kind, v.base_object_class,
  v.leaf_object_class, v.size_bytes, v.wb_user_id, v.created_at, v.deleted_at`;
const columns = (metadataOnly: boolean) => `${META_COLUMNS}, ${metadataOnly ? 'NULL' : 'v.val'} AS val`;

const SORT_COLUMNS: Readonly<Record<ObjectSortField, string>> = { object_id: 'v.object_id', created_at: 'v.created_at' };
const IN_LIST = 'IN (SELECT value FROM json_each(?))';
const STATEMENT_CACHE_LIMIT = 256;

/** SQL condition selecting one version of (v.project_id, v.object_id), and its parameters. */
function selectorSql(sel: VersionSelector): [string, unknown[]] {
  switch (sel.kind) {
    case 'latest':
      return ['v.is_latest = 1', []];
    case 'index':
      return ['v.version_index = ?', [sel.index]];
    case 'digest':
      return ['v.digest = ?', [sel.digest]];
    case 'name':
      return [
        `v.digest = COALESCE((SELECT a.digest FROM object_aliases a
           WHERE a.project_id = v.project_id AND a.object_id = v.object_id AND a.alias = ?), ?)`,
        [sel.name, sel.name],
      ];
    default:
      return assertNever(sel);
  }
}

function compileQuery(q: ObjectsQuery): { sql: string; params: unknown[] } {
  const where = ['v.project_id = ?', 'v.deleted_at IS NULL'];
  const params: unknown[] = [q.projectId];
  const cond = (sql: string, list?: readonly string[]) => {
    where.push(sql);
    if (list) params.push(JSON.stringify(list));
  };
  if (q.objectIds?.length) cond(`v.object_id ${IN_LIST}`, q.objectIds);
  if (q.latestOnly) cond('v.is_latest = 1');
  if (q.isOp !== null) cond(q.isOp ? "v.kind = 'op'" : "v.kind <> 'op'");
  if (q.baseObjectClasses?.length) cond(`v.base_object_class ${IN_LIST}`, q.baseObjectClasses);
  if (q.excludeBaseObjectClasses?.length) {
    cond(`(v.base_object_class IS NULL OR v.base_object_class NOT ${IN_LIST})`, q.excludeBaseObjectClasses);
  }
  if (q.leafObjectClasses?.length) cond(`v.leaf_object_class ${IN_LIST}`, q.leafObjectClasses);
  if (q.tags?.length) {
    cond(`EXISTS (SELECT 1 FROM object_tags t WHERE t.project_id = v.project_id AND t.object_id = v.object_id
      AND t.digest = v.digest AND t.tag ${IN_LIST})`, q.tags);
  }
  if (q.aliases?.length) {
    const names = q.aliases.filter((a) => a !== 'latest');
    const anyOf: string[] = [];
    if (names.length > 0) {
      anyOf.push(`EXISTS (SELECT 1 FROM object_aliases a WHERE a.project_id = v.project_id
        AND a.object_id = v.object_id AND a.digest = v.digest AND a.alias ${IN_LIST})`);
      params.push(JSON.stringify(names));
    }
    if (names.length < q.aliases.length) anyOf.push('v.is_latest = 1');
    where.push(`(${anyOf.join(' OR ')})`);
  }
  const order = q.sort.map((s) => `${SORT_COLUMNS[s.field]} ${s.direction === 'desc' ? 'DESC' : 'ASC'}`);
  if (order.length === 0) order.push('v.created_at ASC');
  order.push('v.version_index ASC');
  params.push(q.limit ?? -1, q.offset ?? 0);
  const sql = `SELECT ${columns(q.metadataOnly)} FROM object_versions v WHERE ${where.join(' AND ')}
    ORDER BY ${order.join(', ')} LIMIT ? OFFSET ?`;
  return { sql, params };
}

const toStored = (r: Row): StoredObjectVersion => ({ ...r, is_latest: r.is_latest === 1 });
const labelKey = (objectId: string, digest: string) => `${objectId}\u0000${digest}`;

export function createSqliteObjectStore(db: SqliteDb): ObjectStore {
  const cache = new Map<string, Database.Statement>();
  const stmt = (sql: string): Database.Statement => {
    let s = cache.get(sql);
    if (!s) {
      if (cache.size >= STATEMENT_CACHE_LIMIT) cache.clear();
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };
  const OBJ = 'project_id = ? AND object_id = ?';

  const findByDigest = db.prepare(`SELECT version_index, deleted_at FROM object_versions WHERE ${OBJ} AND digest = ?`);
  const makeLatest = db.prepare(`UPDATE object_versions SET is_latest = (digest = ?) WHERE ${OBJ} AND (is_latest = 1 OR digest = ?)`);
  const counts = db.prepare(`SELECT COUNT(*) AS n, MAX(version_index) AS max_index FROM object_versions WHERE ${OBJ}`);
  const clearLatest = db.prepare(`UPDATE object_versions SET is_latest = 0 WHERE ${OBJ} AND is_latest = 1`);
  const insert = db.prepare(`
    INSERT INTO object_versions (project_id, object_id, digest, version_index, is_latest, kind, base_object_class,
      leaf_object_class, val, size_bytes, wb_user_id, created_at, deleted_at)
    VALUES (@project_id, @object_id, @digest, @version_index, 1, @kind, @base_object_class,
      @leaf_object_class, @val, @size_bytes, @wb_user_id, @created_at, NULL)`);
  const resurrect = db.prepare(`
    UPDATE object_versions SET version_index = @version_index, is_latest = 1, kind = @kind,
      base_object_class = @base_object_class, leaf_object_class = @leaf_object_class, val = @val,
      size_bytes = @size_bytes, wb_user_id = @wb_user_id, created_at = @created_at, deleted_at = NULL
    WHERE project_id = @project_id AND object_id = @object_id AND digest = @digest`);
  const liveVersions = db.prepare(`SELECT digest, version_index, is_latest FROM object_versions WHERE ${OBJ} AND deleted_at IS NULL`);
  const aliasTarget = db.prepare(`SELECT digest FROM object_aliases WHERE ${OBJ} AND alias = ?`).pluck();
  const softDelete = db.prepare(`UPDATE object_versions SET deleted_at = ?, is_latest = 0 WHERE ${OBJ} AND digest ${IN_LIST}`);
  const dropTags = db.prepare(`DELETE FROM object_tags WHERE ${OBJ} AND digest ${IN_LIST}`);
  const dropAliases = db.prepare(`DELETE FROM object_aliases WHERE ${OBJ} AND digest ${IN_LIST}`);
  const repairLatest = db.prepare(`
    UPDATE object_versions SET is_latest = 1 WHERE rowid = (
      SELECT rowid FROM object_versions WHERE ${OBJ} AND deleted_at IS NULL ORDER BY created_at DESC, version_index DESC LIMIT 1)
    AND NOT EXISTS (SELECT 1 FROM object_versions WHERE ${OBJ} AND is_latest = 1)`);
  // The three label writes share named parameters: @project_id, @object_id, @digest, @labels (JSON array), @at.
  const insertTags = db.prepare(`INSERT OR IGNORE INTO object_tags (project_id, object_id, digest, tag, created_at)
    SELECT @project_id, @object_id, @digest, value, @at FROM json_each(@labels)`);
  const deleteTags = db.prepare(`DELETE FROM object_tags
    WHERE project_id = @project_id AND object_id = @object_id AND digest = @digest AND tag IN (SELECT value FROM json_each(@labels))`);
  const upsertAliases = db.prepare(`INSERT INTO object_aliases (project_id, object_id, alias, digest, created_at)
    SELECT @project_id, @object_id, value, @digest, @at FROM json_each(@labels) WHERE true
    ON CONFLICT (project_id, object_id, alias) DO UPDATE SET digest = excluded.digest, created_at = excluded.created_at`);
  const deleteAliases = db.prepare(`DELETE FROM object_aliases WHERE ${OBJ} AND alias ${IN_LIST}`);
  const tagsOf = db.prepare(`SELECT object_id, digest, tag AS label FROM object_tags WHERE project_id = ? AND object_id ${IN_LIST} ORDER BY tag`);
  const aliasesOf = db.prepare(`SELECT object_id, digest, alias AS label FROM object_aliases WHERE project_id = ? AND object_id ${IN_LIST} ORDER BY alias`);
  const listTags = db.prepare('SELECT DISTINCT tag FROM object_tags WHERE project_id = ? ORDER BY tag').pluck();
  const listAliases = db.prepare(`SELECT alias FROM object_aliases WHERE project_id = ?
    UNION SELECT 'latest' FROM object_versions WHERE project_id = ? AND is_latest = 1 ORDER BY 1`).pluck();

  const create = db.transaction((v: ObjectVersionInput): CreateOutcome => {
    const found = findByDigest.get(v.project_id, v.object_id, v.digest) as { version_index: number; deleted_at: number | null } | undefined;
    if (found && found.deleted_at === null) {
      makeLatest.run(v.digest, v.project_id, v.object_id, v.digest);
      return { digest: v.digest, version_index: found.version_index, created: false };
    }
    const { n, max_index } = counts.get(v.project_id, v.object_id) as { n: number; max_index: number | null };
    // The count of versions (Python's rule), raised past any index a resurrection already took.
    const version_index = Math.max(n, (max_index ?? -1) + 1);
    clearLatest.run(v.project_id, v.object_id);
    // Canonical JSON is pure ASCII (ensure_ascii), so its length is its size in bytes.
    (found ? resurrect : insert).run({ ...v, version_index, size_bytes: v.val.length });
    return { digest: v.digest, version_index, created: true };
  });

  /** Digest of the live version a selector names, or null. */
  const liveDigest = (projectId: string, objectId: string, sel: VersionSelector): string | null => {
    const [cond, params] = selectorSql(sel);
    const sql = `SELECT v.digest FROM object_versions v WHERE v.project_id = ? AND v.object_id = ? AND v.deleted_at IS NULL AND ${cond} LIMIT 1`;
    return (stmt(sql).pluck().get(projectId, objectId, ...params) as string | undefined) ?? null;
  };

  const remove = db.transaction(
    (projectId: string, objectId: string, selectors: readonly VersionSelector[] | null, at: number): DeleteOutcome => {
      const live = liveVersions.all(projectId, objectId) as { digest: string; version_index: number; is_latest: number }[];
      const matched = new Set<string>();
      const unmatched: number[] = [];
      if (selectors === null) live.forEach((r) => matched.add(r.digest));
      selectors?.forEach((sel, i) => {
        const named = sel.kind === 'name' ? ((aliasTarget.get(projectId, objectId, sel.name) as string | undefined) ?? sel.name) : null;
        const hit = live.find((r) => {
          switch (sel.kind) {
            case 'latest': return r.is_latest === 1;
            case 'index': return r.version_index === sel.index;
            case 'digest': return r.digest === sel.digest;
            case 'name': return r.digest === named;
            default: return assertNever(sel);
          }
        });
        if (hit) matched.add(hit.digest);
        else unmatched.push(i);
      });
      if (unmatched.length > 0 || matched.size === 0) return { matched: [...matched], unmatched };
      const digests = JSON.stringify([...matched]);
      softDelete.run(at, projectId, objectId, digests);
      dropTags.run(projectId, objectId, digests);
      dropAliases.run(projectId, objectId, digests);
      repairLatest.run(projectId, objectId, projectId, objectId);
      return { matched: [...matched], unmatched };
    },
  );

  /** Resolves the live version, then applies one tag/alias statement to it; false if none. */
  const labelWrite = db.transaction(
    (write: Database.Statement, projectId: string, objectId: string, sel: VersionSelector, labels: readonly string[]): boolean => {
      const digest = liveDigest(projectId, objectId, sel);
      if (digest === null) return false;
      write.run({ project_id: projectId, object_id: objectId, digest, labels: JSON.stringify(labels), at: Date.now() * 1000 });
      return true;
    },
  );

  const attachLabels = (projectId: string, rows: StoredObjectVersion[]): void => {
    if (rows.length === 0) return;
    const ids = JSON.stringify([...new Set(rows.map((r) => r.object_id))]);
    const collect = (s: Database.Statement) => {
      const out = new Map<string, string[]>();
      for (const r of s.all(projectId, ids) as { object_id: string; digest: string; label: string }[]) {
        const k = labelKey(r.object_id, r.digest);
        (out.get(k) ?? out.set(k, []).get(k)!).push(r.label);
      }
      return out;
    };
    const tags = collect(tagsOf);
    const aliases = collect(aliasesOf);
    for (const r of rows) {
      const k = labelKey(r.object_id, r.digest);
      r.tags = tags.get(k) ?? [];
      r.aliases = aliases.get(k) ?? [];
    }
  };

  const labelled = (projectId: string, rows: Row[], opts: { includeLabels: boolean }) => {
    const out = rows.map(toStored);
    if (opts.includeLabels) attachLabels(projectId, out);
    return out;
  };

  return {
    async create(v) {
      return create.immediate(v);
    },
    async read(projectId: string, objectId: string, sel: VersionSelector, opts: ReadOptions) {
      const [cond, params] = selectorSql(sel);
      const sql = `SELECT ${columns(opts.metadataOnly)} FROM object_versions v WHERE v.project_id = ? AND v.object_id = ? AND ${cond}
        ORDER BY v.deleted_at IS NULL DESC, v.version_index DESC LIMIT 1`;
      const row = stmt(sql).get(projectId, objectId, ...params) as Row | undefined;
      return row ? labelled(projectId, [row], opts)[0]! : null;
    },
    async query(q) {
      const { sql, params } = compileQuery(q);
      return labelled(q.projectId, stmt(sql).all(...params) as Row[], q);
    },
    async delete(projectId, objectId, selectors, at) {
      return remove.immediate(projectId, objectId, selectors, at);
    },
    async addTags(projectId, objectId, sel, tags) {
      return labelWrite.immediate(insertTags, projectId, objectId, sel, tags);
    },
    async removeTags(projectId, objectId, sel, tags) {
      labelWrite.immediate(deleteTags, projectId, objectId, sel, tags);
    },
    async setAliases(projectId, objectId, sel, aliases) {
      return labelWrite.immediate(upsertAliases, projectId, objectId, sel, aliases);
    },
    async removeAliases(projectId, objectId, aliases) {
      deleteAliases.run(projectId, objectId, JSON.stringify(aliases));
    },
    async listTags(projectId) {
      return listTags.all(projectId) as string[];
    },
    async listAliases(projectId) {
      return listAliases.all(projectId, projectId) as string[];
    },
  };
}
