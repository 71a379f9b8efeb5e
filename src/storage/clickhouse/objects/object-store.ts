// Versioned objects on ClickHouse, append-only (clickhouse/engine/migrations.ts): a version's value
// is written once; its state (index, creation, deletion) is the newest of its state rows;
// which version is the latest is the newest pointer row of the object; tags and aliases are
// rows whose newest per label wins. A write reads the object's current state, decides as the
// SQLite engine does, then appends rows, the value before the state and the state before the
// pointer, so a reader never meets a version without its value. Without transactions two
// writers racing on one object may both take the same version index.
import type { ClickHouseClient } from '@clickhouse/client';
import { assertNever } from '../../../query/plan.js';
import type {
  DeleteOutcome,
  ObjectsQuery,
  ObjectStore,
  StoredObjectVersion,
  VersionSelector,
} from '../../objects/object-store.js';
import { selectRows } from '../engine/client.js';
import { chIdentifier } from '../engine/dialect.js';
import { seqClock } from '../engine/seq-clock.js';
import { nextVersionIndex } from '../../objects/object-versions.js';

interface StateRow {
  object_id: string;
  digest: string;
  version_index: number;
  kind: 'op' | 'object';
  base_object_class: string | null;
  leaf_object_class: string | null;
  wb_user_id: string | null;
  created_at: string;
  deleted_at: string | null;
  is_latest: number;
  size_bytes: string;
  val?: string;
}

const toStored = (projectId: string, r: StateRow, val: string | null): StoredObjectVersion => ({
  project_id: projectId,
  object_id: r.object_id,
  digest: r.digest,
  version_index: Number(r.version_index),
  is_latest: Number(r.is_latest) === 1,
  kind: r.kind,
  base_object_class: r.base_object_class,
  leaf_object_class: r.leaf_object_class,
  val,
  size_bytes: Number(r.size_bytes),
  wb_user_id: r.wb_user_id,
  created_at: Number(r.created_at),
  deleted_at: r.deleted_at === null ? null : Number(r.deleted_at),
});

const SORT = { object_id: 'object_id', created_at: 'created_at' } as const;

export function createClickHouseObjectStore(client: ClickHouseClient, database: string): ObjectStore {
  const db = chIdentifier(database);
  const nextSeq = seqClock().next;
  const insert = (table: string, values: Record<string, unknown>[]) =>
    values.length === 0
      ? Promise.resolve()
      : client.insert({ table: `${db}.${table}`, values, format: 'JSONEachRow' }).then(() => undefined);

  /**
   * The current state of the project's versions (of one object when `one`), with is_latest
   * and the value's size, and the value itself when `withVal`. Parameters: p (and o).
   */
  const stateSql = (one: boolean, withVal: boolean) => {
    const obj = one ? ' AND object_id = {o:String}' : '';
    return `SELECT v.object_id AS object_id, v.digest AS digest, v.vi AS version_index, v.k AS kind, v.boc AS base_object_class,
        v.loc AS leaf_object_class, v.uid AS wb_user_id, v.ca AS created_at, v.del AS deleted_at,
        toUInt8(coalesce(l.ld = v.digest, 0) AND v.del IS NULL) AS is_latest, x.vs AS size_bytes${withVal ? ', x.vv AS val' : ''}
      FROM (SELECT object_id, digest, argMax(version_index, seq) AS vi, any(kind) AS k, any(base_object_class) AS boc,
          any(leaf_object_class) AS loc, argMax(tuple(wb_user_id), seq).1 AS uid, argMax(created_at, seq) AS ca,
          argMax(tuple(deleted_at), seq).1 AS del
        FROM ${db}.object_versions WHERE project_id = {p:String}${obj} GROUP BY object_id, digest) AS v
      LEFT JOIN (SELECT object_id AS lo, argMax(digest, seq) AS ld FROM ${db}.object_latest WHERE project_id = {p:String}${obj} GROUP BY object_id) AS l
        ON l.lo = v.object_id
      INNER JOIN (SELECT object_id AS vo, digest AS vd, any(size_bytes) AS vs${withVal ? ', any(val) AS vv' : ''}
        FROM ${db}.object_values WHERE project_id = {p:String}${obj} GROUP BY object_id, digest) AS x
        ON x.vo = v.object_id AND x.vd = v.digest`;
  };

  const currentTags = (
    filter: string,
  ) => `SELECT object_id, digest, tag FROM ${db}.object_tags WHERE project_id = {p:String}${filter}
    GROUP BY object_id, digest, tag HAVING argMax(present, seq) = 1`;
  const currentAliases = (
    filter: string,
  ) => `SELECT object_id, alias, argMax(digest, seq) AS target FROM ${db}.object_aliases
    WHERE project_id = {p:String}${filter} GROUP BY object_id, alias HAVING target != ''`;

  interface ObjectState {
    versions: StateRow[];
    aliases: Map<string, string>;
    tags: Map<string, string[]>;
  }

  async function load(projectId: string, objectId: string): Promise<ObjectState> {
    const params = { p: projectId, o: objectId };
    const [versions, aliases, tags] = await Promise.all([
      selectRows<StateRow>(client, stateSql(true, false), params),
      selectRows<{ alias: string; target: string }>(client, currentAliases(' AND object_id = {o:String}'), params),
      selectRows<{ digest: string; tag: string }>(client, currentTags(' AND object_id = {o:String}'), params),
    ]);
    const byDigest = new Map<string, string[]>();
    for (const t of tags) byDigest.set(t.digest, [...(byDigest.get(t.digest) ?? []), t.tag]);
    return { versions, aliases: new Map(aliases.map((a) => [a.alias, a.target])), tags: byDigest };
  }

  const isLive = (r: StateRow) => r.deleted_at === null;
  const latestOf = (s: ObjectState) => s.versions.find((r) => Number(r.is_latest) === 1) ?? null;

  /** The live version a selector names. */
  function liveVersion(s: ObjectState, sel: VersionSelector): StateRow | null {
    const live = s.versions.filter(isLive);
    switch (sel.kind) {
      case 'latest':
        return latestOf(s);
      case 'index':
        return live.find((r) => Number(r.version_index) === sel.index) ?? null;
      case 'digest':
        return live.find((r) => r.digest === sel.digest) ?? null;
      case 'name': {
        const digest = s.aliases.get(sel.name) ?? sel.name;
        return live.find((r) => r.digest === digest) ?? null;
      }
      default:
        return assertNever(sel);
    }
  }

  const stateRow = (projectId: string, r: StateRow, over: Partial<Record<string, unknown>>) => ({
    project_id: projectId,
    object_id: r.object_id,
    digest: r.digest,
    version_index: Number(r.version_index),
    kind: r.kind,
    base_object_class: r.base_object_class,
    leaf_object_class: r.leaf_object_class,
    wb_user_id: r.wb_user_id,
    created_at: Number(r.created_at),
    deleted_at: r.deleted_at === null ? null : Number(r.deleted_at),
    seq: nextSeq(),
    ...over,
  });

  async function labelsOf(projectId: string, rows: StoredObjectVersion[]): Promise<void> {
    if (rows.length === 0) return;
    const params = { p: projectId, ids: [...new Set(rows.map((r) => r.object_id))] };
    const inIds = ' AND object_id IN (SELECT arrayJoin({ids:Array(String)}))';
    const [tags, aliases] = await Promise.all([
      selectRows<{ object_id: string; digest: string; tag: string }>(
        client,
        `${currentTags(inIds)} ORDER BY tag`,
        params,
      ),
      selectRows<{ object_id: string; alias: string; target: string }>(
        client,
        `${currentAliases(inIds)} ORDER BY alias`,
        params,
      ),
    ]);
    const key = (o: string, d: string) => `${o}\u0000${d}`;
    const t = new Map<string, string[]>();
    for (const r of tags) t.set(key(r.object_id, r.digest), [...(t.get(key(r.object_id, r.digest)) ?? []), r.tag]);
    const a = new Map<string, string[]>();
    for (const r of aliases) a.set(key(r.object_id, r.target), [...(a.get(key(r.object_id, r.target)) ?? []), r.alias]);
    for (const r of rows) {
      r.tags = t.get(key(r.object_id, r.digest)) ?? [];
      r.aliases = a.get(key(r.object_id, r.digest)) ?? [];
    }
  }

  return {
    async create(v) {
      const s = await load(v.project_id, v.object_id);
      const found = s.versions.find((r) => r.digest === v.digest);
      if (found && isLive(found)) {
        if (Number(found.is_latest) !== 1)
          await insert('object_latest', [
            { project_id: v.project_id, object_id: v.object_id, digest: v.digest, seq: nextSeq() },
          ]);
        return { digest: v.digest, version_index: Number(found.version_index), created: false };
      }
      const maxIndex = s.versions.length === 0 ? null : Math.max(...s.versions.map((r) => Number(r.version_index)));
      const version_index = nextVersionIndex(s.versions.length, maxIndex);
      if (!found)
        await insert('object_values', [
          { project_id: v.project_id, object_id: v.object_id, digest: v.digest, val: v.val, size_bytes: v.val.length },
        ]);
      await insert('object_versions', [
        {
          project_id: v.project_id,
          object_id: v.object_id,
          digest: v.digest,
          version_index,
          kind: v.kind,
          base_object_class: v.base_object_class,
          leaf_object_class: v.leaf_object_class,
          wb_user_id: v.wb_user_id,
          created_at: v.created_at,
          deleted_at: null,
          seq: nextSeq(),
        },
      ]);
      await insert('object_latest', [
        { project_id: v.project_id, object_id: v.object_id, digest: v.digest, seq: nextSeq() },
      ]);
      return { digest: v.digest, version_index, created: true };
    },

    async read(projectId, objectId, sel, opts) {
      const s = await load(projectId, objectId);
      let row: StateRow | null;
      if (sel.kind === 'latest') row = latestOf(s);
      else {
        const digest =
          sel.kind === 'digest' ? sel.digest : sel.kind === 'name' ? (s.aliases.get(sel.name) ?? sel.name) : null;
        const candidates = s.versions.filter((r) =>
          digest !== null ? r.digest === digest : Number(r.version_index) === (sel as { index: number }).index,
        );
        // A live version first, then the highest index (as the SQLite engine orders them).
        candidates.sort(
          (a, b) => Number(isLive(b)) - Number(isLive(a)) || Number(b.version_index) - Number(a.version_index),
        );
        row = candidates[0] ?? null;
      }
      if (row === null) return null;
      let val: string | null = null;
      if (!opts.metadataOnly) {
        const [x] = await selectRows<{ val: string }>(
          client,
          `SELECT any(val) AS val FROM ${db}.object_values WHERE project_id = {p:String} AND object_id = {o:String} AND digest = {d:String}`,
          { p: projectId, o: objectId, d: row.digest },
        );
        val = x?.val ?? null;
      }
      const out = toStored(projectId, row, val);
      if (opts.includeLabels) await labelsOf(projectId, [out]);
      return out;
    },

    async query(q: ObjectsQuery) {
      const params: Record<string, unknown> = { p: q.projectId };
      const where = ['deleted_at IS NULL'];
      const list = (name: string, values: readonly string[]) => {
        params[name] = values;
        return `(SELECT arrayJoin({${name}:Array(String)}))`;
      };
      if (q.objectIds?.length) where.push(`object_id IN ${list('ids', q.objectIds)}`);
      if (q.latestOnly) where.push('is_latest = 1');
      if (q.isOp !== null) where.push(q.isOp ? "kind = 'op'" : "kind != 'op'");
      if (q.baseObjectClasses?.length) where.push(`base_object_class IN ${list('bases', q.baseObjectClasses)}`);
      if (q.excludeBaseObjectClasses?.length)
        where.push(
          `(base_object_class IS NULL OR base_object_class NOT IN ${list('nobases', q.excludeBaseObjectClasses)})`,
        );
      if (q.leafObjectClasses?.length) where.push(`leaf_object_class IN ${list('leaves', q.leafObjectClasses)}`);
      if (q.tags?.length)
        where.push(
          `(object_id, digest) IN (SELECT object_id, digest FROM (${currentTags(` AND tag IN ${list('tags', q.tags)}`)}))`,
        );
      if (q.aliases?.length) {
        const names = q.aliases.filter((a) => a !== 'latest');
        const anyOf: string[] = [];
        if (names.length > 0)
          anyOf.push(
            `(object_id, digest) IN (SELECT object_id, target FROM (${currentAliases(` AND alias IN ${list('aliases', names)}`)}))`,
          );
        if (names.length < q.aliases.length) anyOf.push('is_latest = 1');
        where.push(`(${anyOf.join(' OR ')})`);
      }
      const order = q.sort.map((s) => `${SORT[s.field]} ${s.direction === 'desc' ? 'DESC' : 'ASC'}`);
      if (order.length === 0) order.push('created_at ASC');
      order.push('version_index ASC');
      let sql = `SELECT * FROM (${stateSql(false, !q.metadataOnly)}) WHERE ${where.join(' AND ')} ORDER BY ${order.join(', ')}`;
      if (q.limit !== null) {
        params.lim = q.limit;
        sql += ' LIMIT {lim:UInt64}';
      }
      if (q.offset !== null && q.offset > 0) {
        params.off = q.offset;
        sql += ' OFFSET {off:UInt64}';
      }
      const rows = (await selectRows<StateRow>(client, sql, params)).map((r) =>
        toStored(q.projectId, r, q.metadataOnly ? null : (r.val ?? null)),
      );
      if (q.includeLabels) await labelsOf(q.projectId, rows);
      return rows;
    },

    async delete(projectId, objectId, selectors, at): Promise<DeleteOutcome> {
      const s = await load(projectId, objectId);
      const live = s.versions.filter(isLive);
      const matched = new Set<string>();
      const unmatched: number[] = [];
      if (selectors === null) for (const r of live) matched.add(r.digest);
      selectors?.forEach((sel, i) => {
        const hit = liveVersion(s, sel);
        if (hit) matched.add(hit.digest);
        else unmatched.push(i);
      });
      const versions = [...matched].map((digest) => {
        const v = live.find((r) => r.digest === digest)!;
        return { digest, base_object_class: v.base_object_class, leaf_object_class: v.leaf_object_class };
      });
      const outcome = { matched: [...matched], versions, unmatched };
      if (unmatched.length > 0 || matched.size === 0) return outcome;
      await insert(
        'object_versions',
        live.filter((r) => matched.has(r.digest)).map((r) => stateRow(projectId, r, { deleted_at: at })),
      );
      await insert(
        'object_tags',
        [...matched].flatMap((d) =>
          (s.tags.get(d) ?? []).map((tag) => ({
            project_id: projectId,
            object_id: objectId,
            digest: d,
            tag,
            present: 0,
            seq: nextSeq(),
          })),
        ),
      );
      await insert(
        'object_aliases',
        [...s.aliases]
          .filter(([, d]) => matched.has(d))
          .map(([alias]) => ({ project_id: projectId, object_id: objectId, alias, digest: '', seq: nextSeq() })),
      );
      const latest = latestOf(s);
      if (latest !== null && matched.has(latest.digest)) {
        const survivors = live
          .filter((r) => !matched.has(r.digest))
          .sort(
            (a, b) => Number(b.created_at) - Number(a.created_at) || Number(b.version_index) - Number(a.version_index),
          );
        await insert('object_latest', [
          { project_id: projectId, object_id: objectId, digest: survivors[0]?.digest ?? '', seq: nextSeq() },
        ]);
      }
      return outcome;
    },

    async addTags(projectId, objectId, sel, tags) {
      const v = liveVersion(await load(projectId, objectId), sel);
      if (v === null) return false;
      await insert(
        'object_tags',
        tags.map((tag) => ({
          project_id: projectId,
          object_id: objectId,
          digest: v.digest,
          tag,
          present: 1,
          seq: nextSeq(),
        })),
      );
      return true;
    },

    async removeTags(projectId, objectId, sel, tags) {
      const v = liveVersion(await load(projectId, objectId), sel);
      if (v === null) return;
      await insert(
        'object_tags',
        tags.map((tag) => ({
          project_id: projectId,
          object_id: objectId,
          digest: v.digest,
          tag,
          present: 0,
          seq: nextSeq(),
        })),
      );
    },

    async setAliases(projectId, objectId, sel, aliases) {
      const v = liveVersion(await load(projectId, objectId), sel);
      if (v === null) return false;
      await insert(
        'object_aliases',
        aliases.map((alias) => ({
          project_id: projectId,
          object_id: objectId,
          alias,
          digest: v.digest,
          seq: nextSeq(),
        })),
      );
      return true;
    },

    async removeAliases(projectId, objectId, aliases) {
      await insert(
        'object_aliases',
        aliases.map((alias) => ({ project_id: projectId, object_id: objectId, alias, digest: '', seq: nextSeq() })),
      );
    },

    async totalSize(projectId) {
      const [r] = await selectRows<{ n: string }>(
        client,
        `SELECT sum(size_bytes) AS n FROM (${stateSql(false, false)}) WHERE deleted_at IS NULL`,
        { p: projectId },
      );
      return Number(r?.n ?? 0);
    },

    async versionCounts(projectId, objectIds) {
      const rows = await selectRows<{ object_id: string; n: string }>(
        client,
        `SELECT object_id, count() AS n FROM (SELECT object_id, digest, argMax(tuple(deleted_at), seq).1 AS del
          FROM ${db}.object_versions WHERE project_id = {p:String} AND object_id IN (SELECT arrayJoin({o:Array(String)}))
          GROUP BY object_id, digest) WHERE del IS NULL GROUP BY object_id`,
        { p: projectId, o: objectIds },
      );
      return new Map(rows.map((r) => [r.object_id, Number(r.n)]));
    },

    async projectsWithObjects() {
      const rows = await selectRows<{ project_id: string }>(
        client,
        `SELECT DISTINCT project_id FROM (SELECT project_id, argMax(tuple(deleted_at), seq).1 AS del
        FROM ${db}.object_versions GROUP BY project_id, object_id, digest) WHERE del IS NULL`,
      );
      return rows.map((r) => r.project_id);
    },

    async listTags(projectId) {
      return (
        await selectRows<{ tag: string }>(client, `SELECT DISTINCT tag FROM (${currentTags('')}) ORDER BY tag`, {
          p: projectId,
        })
      ).map((r) => r.tag);
    },

    async listAliases(projectId) {
      const names = (
        await selectRows<{ alias: string }>(client, `SELECT DISTINCT alias FROM (${currentAliases('')})`, {
          p: projectId,
        })
      ).map((r) => r.alias);
      const [latest] = await selectRows(
        client,
        `SELECT 1 FROM (${stateSql(false, false)}) WHERE is_latest = 1 LIMIT 1`,
        { p: projectId },
      );
      return [...new Set([...names, ...(latest ? ['latest'] : [])])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    },
  };
}
