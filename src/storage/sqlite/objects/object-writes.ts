// The write procedures of versioned objects, tags and aliases (run by the writer inside its
// transaction, see sqlite/engine/writer.ts). Contracts: object-store.ts.
import type Database from 'better-sqlite3';
import { assertNever } from '../../../query/plan.js';
import type {
  CreateOutcome,
  DeletedVersion,
  DeleteOutcome,
  ObjectVersionInput,
  VersionSelector,
} from '../../objects/object-store.js';
import type { SqliteDb } from '../engine/database.js';
import { IN_LIST, OBJ, selectorSql } from './object-sql.js';
import { nextVersionIndex } from '../../objects/object-versions.js';

export function objectWrites(db: SqliteDb) {
  const findByDigest = db.prepare(`SELECT version_index, deleted_at FROM object_versions WHERE ${OBJ} AND digest = ?`);
  const makeLatest = db.prepare(
    `UPDATE object_versions SET is_latest = (digest = ?) WHERE ${OBJ} AND (is_latest = 1 OR digest = ?)`,
  );
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
  const liveVersions = db.prepare(`SELECT digest, version_index, is_latest, base_object_class, leaf_object_class
    FROM object_versions WHERE ${OBJ} AND deleted_at IS NULL`);
  const aliasTarget = db.prepare(`SELECT digest FROM object_aliases WHERE ${OBJ} AND alias = ?`).pluck();
  const softDelete = db.prepare(
    `UPDATE object_versions SET deleted_at = ?, is_latest = 0 WHERE ${OBJ} AND digest ${IN_LIST}`,
  );
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
  // One statement per selector kind (the SQL differs only by the selector's condition).
  const liveDigestBy = new Map<VersionSelector['kind'], Database.Statement>();

  /** Digest of the live version a selector names, or null. */
  const liveDigest = (projectId: string, objectId: string, sel: VersionSelector): string | null => {
    const [cond, params] = selectorSql(sel);
    let s = liveDigestBy.get(sel.kind);
    if (!s) {
      s = db
        .prepare(`SELECT v.digest FROM object_versions v
        WHERE v.project_id = ? AND v.object_id = ? AND v.deleted_at IS NULL AND ${cond} LIMIT 1`)
        .pluck();
      liveDigestBy.set(sel.kind, s);
    }
    return (s.get(projectId, objectId, ...params) as string | undefined) ?? null;
  };

  /** Resolves the live version, then applies one tag/alias statement to it; false if none. */
  const labelWrite = (
    write: Database.Statement,
    projectId: string,
    objectId: string,
    sel: VersionSelector,
    labels: readonly string[],
  ): boolean => {
    const digest = liveDigest(projectId, objectId, sel);
    if (digest === null) return false;
    write.run({
      project_id: projectId,
      object_id: objectId,
      digest,
      labels: JSON.stringify(labels),
      at: Date.now() * 1000,
    });
    return true;
  };

  /** Which live versions the selectors name (all of them for null), and which selectors name none. */
  const match = (projectId: string, objectId: string, selectors: readonly VersionSelector[] | null): DeleteOutcome => {
    const live = liveVersions.all(projectId, objectId) as (DeletedVersion & {
      version_index: number;
      is_latest: number;
    })[];
    const matched = new Set<string>();
    const unmatched: number[] = [];
    if (selectors === null) for (const r of live) matched.add(r.digest);
    selectors?.forEach((sel, i) => {
      const named =
        sel.kind === 'name'
          ? ((aliasTarget.get(projectId, objectId, sel.name) as string | undefined) ?? sel.name)
          : null;
      const hit = live.find((r) => {
        switch (sel.kind) {
          case 'latest':
            return r.is_latest === 1;
          case 'index':
            return r.version_index === sel.index;
          case 'digest':
            return r.digest === sel.digest;
          case 'name':
            return r.digest === named;
          default:
            return assertNever(sel);
        }
      });
      if (hit) matched.add(hit.digest);
      else unmatched.push(i);
    });
    const versions = [...matched].map((digest) => {
      const v = live.find((r) => r.digest === digest)!;
      return { digest, base_object_class: v.base_object_class, leaf_object_class: v.leaf_object_class };
    });
    return { matched: [...matched], versions, unmatched };
  };

  return {
    'objects.create'(v: ObjectVersionInput): CreateOutcome {
      const found = findByDigest.get(v.project_id, v.object_id, v.digest) as
        | { version_index: number; deleted_at: number | null }
        | undefined;
      if (found && found.deleted_at === null) {
        makeLatest.run(v.digest, v.project_id, v.object_id, v.digest);
        return { digest: v.digest, version_index: found.version_index, created: false };
      }
      const { n, max_index } = counts.get(v.project_id, v.object_id) as { n: number; max_index: number | null };
      // The count of versions (Python's rule), raised past any index a resurrection already took.
      const version_index = nextVersionIndex(n, max_index);
      clearLatest.run(v.project_id, v.object_id);
      // Canonical JSON is pure ASCII (ensure_ascii), so its length is its size in bytes.
      (found ? resurrect : insert).run({ ...v, version_index, size_bytes: v.val.length });
      return { digest: v.digest, version_index, created: true };
    },
    'objects.delete'(
      projectId: string,
      objectId: string,
      selectors: readonly VersionSelector[] | null,
      at: number,
    ): DeleteOutcome {
      const outcome = match(projectId, objectId, selectors);
      if (outcome.unmatched.length > 0 || outcome.matched.length === 0) return outcome;
      const digests = JSON.stringify(outcome.matched);
      softDelete.run(at, projectId, objectId, digests);
      dropTags.run(projectId, objectId, digests);
      dropAliases.run(projectId, objectId, digests);
      repairLatest.run(projectId, objectId, projectId, objectId);
      return outcome;
    },
    'objects.addTags'(projectId: string, objectId: string, sel: VersionSelector, tags: readonly string[]): boolean {
      return labelWrite(insertTags, projectId, objectId, sel, tags);
    },
    'objects.removeTags'(projectId: string, objectId: string, sel: VersionSelector, tags: readonly string[]): void {
      labelWrite(deleteTags, projectId, objectId, sel, tags);
    },
    'objects.setAliases'(
      projectId: string,
      objectId: string,
      sel: VersionSelector,
      aliases: readonly string[],
    ): boolean {
      return labelWrite(upsertAliases, projectId, objectId, sel, aliases);
    },
    'objects.removeAliases'(projectId: string, objectId: string, aliases: readonly string[]): void {
      deleteAliases.run(projectId, objectId, JSON.stringify(aliases));
    },
  };
}
