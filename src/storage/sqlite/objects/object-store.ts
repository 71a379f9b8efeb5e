// Versioned objects, tags and aliases on SQLite: reads here, writes through the writer
// (sqlite/objects/object-writes.ts; each acknowledged after its commit). Values only ever travel as
// bound parameters, lists as one JSON-array parameter read with json_each (no limit on list
// length, fixed SQL text).
import type Database from 'better-sqlite3';
import type {
  ObjectSortField,
  ObjectsQuery,
  ObjectStore,
  ReadOptions,
  StoredObjectVersion,
  VersionSelector,
} from '../../objects/object-store.js';
import type { SqliteDb } from '../engine/database.js';
import { IN_LIST, selectorSql } from './object-sql.js';
import type { SqliteWriter } from '../engine/writer.js';
import type { ReadThreads } from '../engine/read-threads.js';

interface Row extends Omit<StoredObjectVersion, 'is_latest'> {
  is_latest: number;
}

const META_COLUMNS = `v.project_id, v.object_id, v.digest, v.version_index, v.is_latest, v.kind, v.base_object_class,
  v.leaf_object_class, v.size_bytes, v.wb_user_id, v.created_at, v.deleted_at`;
const columns = (metadataOnly: boolean) => `${META_COLUMNS}, ${metadataOnly ? 'NULL' : 'v.val'} AS val`;

const SORT_COLUMNS: Readonly<Record<ObjectSortField, string>> = {
  object_id: 'v.object_id',
  created_at: 'v.created_at',
};
const STATEMENT_CACHE_LIMIT = 256;
const TOTAL_SIZE =
  'SELECT COALESCE(SUM(size_bytes), 0) AS bytes FROM object_versions WHERE project_id = ? AND deleted_at IS NULL';
const VERSION_COUNTS = `SELECT object_id, COUNT(*) AS n FROM object_versions
  WHERE project_id = ? AND object_id ${IN_LIST} AND deleted_at IS NULL GROUP BY object_id`;
// Every object with a live version has exactly one live latest version (create and delete keep
// it so), so the partial index object_versions_latest holds one entry per live object: the
// distinct projects come from it alone.
const PROJECTS_WITH_OBJECTS = `SELECT DISTINCT project_id FROM object_versions
  WHERE is_latest = 1 AND deleted_at IS NULL`;

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
    cond(
      `EXISTS (SELECT 1 FROM object_tags t WHERE t.project_id = v.project_id AND t.object_id = v.object_id
      AND t.digest = v.digest AND t.tag ${IN_LIST})`,
      q.tags,
    );
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

/** Reads by name or digest run here, on `db`; listings, which may be large, on the reader threads. */
export function createSqliteObjectStore(db: SqliteDb, reads: ReadThreads, writer: SqliteWriter): ObjectStore {
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
  const tagsOf = db.prepare(
    `SELECT object_id, digest, tag AS label FROM object_tags WHERE project_id = ? AND object_id ${IN_LIST} ORDER BY tag`,
  );
  const aliasesOf = db.prepare(
    `SELECT object_id, digest, alias AS label FROM object_aliases WHERE project_id = ? AND object_id ${IN_LIST} ORDER BY alias`,
  );
  const listTags = db.prepare('SELECT DISTINCT tag FROM object_tags WHERE project_id = ? ORDER BY tag').pluck();
  const listAliases = db
    .prepare(`SELECT alias FROM object_aliases WHERE project_id = ?
    UNION SELECT 'latest' FROM object_versions WHERE project_id = ? AND is_latest = 1 ORDER BY 1`)
    .pluck();

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
    create: (v) => writer.run('objects.create', [v]),
    async read(projectId: string, objectId: string, sel: VersionSelector, opts: ReadOptions) {
      const [cond, params] = selectorSql(sel);
      const sql = `SELECT ${columns(opts.metadataOnly)} FROM object_versions v WHERE v.project_id = ? AND v.object_id = ? AND ${cond}
        ORDER BY v.deleted_at IS NULL DESC, v.version_index DESC LIMIT 1`;
      const row = stmt(sql).get(projectId, objectId, ...params) as Row | undefined;
      return row ? labelled(projectId, [row], opts)[0]! : null;
    },
    async query(q) {
      const { sql, params } = compileQuery(q);
      return labelled(q.projectId, await reads.all<Row>(sql, params), q);
    },
    delete: (projectId, objectId, selectors, at) => writer.run('objects.delete', [projectId, objectId, selectors, at]),
    addTags: (projectId, objectId, sel, tags) => writer.run('objects.addTags', [projectId, objectId, sel, tags]),
    removeTags: (projectId, objectId, sel, tags) => writer.run('objects.removeTags', [projectId, objectId, sel, tags]),
    setAliases: (projectId, objectId, sel, aliases) =>
      writer.run('objects.setAliases', [projectId, objectId, sel, aliases]),
    removeAliases: (projectId, objectId, aliases) =>
      writer.run('objects.removeAliases', [projectId, objectId, aliases]),
    async totalSize(projectId) {
      const [row] = await reads.all<{ bytes: number }>(TOTAL_SIZE, [projectId]);
      return row!.bytes;
    },
    async versionCounts(projectId, objectIds) {
      const rows = await reads.all<[string, number]>(VERSION_COUNTS, [projectId, JSON.stringify(objectIds)], {
        raw: true,
      });
      return new Map(rows);
    },
    async projectsWithObjects() {
      return (await reads.all<[string]>(PROJECTS_WITH_OBJECTS, [], { raw: true })).map((r) => r[0]);
    },
    async listTags(projectId) {
      return listTags.all(projectId) as string[];
    },
    async listAliases(projectId) {
      return listAliases.all(projectId, projectId) as string[];
    },
  };
}
