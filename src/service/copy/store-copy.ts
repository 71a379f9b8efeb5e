// `weft copy`: every project's calls, objects (with tags and aliases), tables, files, feedback,
// project prices and settings, from one store to another (SQLite <-> ClickHouse), through the
// stores' own interfaces, so each engine writes its rows its own way. Every step is
// idempotent (calls upsert by id, objects and tables and files are content-addressed, feedback
// replaces by id, prices already present are skipped), so an interrupted copy is resumed by
// running it again; steps already finished (per project and resource) are skipped when the
// caller remembers them. Not copied: deleted or expired calls and deleted object versions
// (invisible in the source), and API keys and users (create them anew on the target). Secrets
// go sealed, as stored, with each project's entity: they open on the target only under the
// source's key (WEFT_SECRETS_KEY or secrets.key, docs/secrets.md).
import type { Store } from '../../storage/store.js';
import type { CallPart, StoredCall } from '../../storage/calls/call-store.js';
import type { CallsQuery } from '../../query/calls-query.js';
import type { Expr } from '../../query/plan.js';
import { FEEDBACK_COLUMNS } from '../../query/feedback-fields.js';
import type { FeedbackRow } from '../../storage/feedback/feedback-store.js';
import type { ObjectsQuery } from '../../storage/objects/object-store.js';
import { extractRefs } from '../refs/extract-refs.js';

export const COPY_RESOURCES = [
  'calls',
  'objects',
  'tables',
  'files',
  'feedback',
  'prices',
  'settings',
  'spans',
  'historical_turns',
  'secrets',
] as const;
export type CopyResource = (typeof COPY_RESOURCES)[number];

export interface CopyProgress {
  /** A step starts: `total` items (null when not known up front). */
  begin(project: string, resource: CopyResource, total: number | null): void;
  /** `n` more items of the current step are written. */
  advance(n: number): void;
}

export interface CopyOptions {
  /** Only these resources (default: all). */
  readonly only?: readonly CopyResource[];
  readonly progress: CopyProgress;
  /** Whether this (project, resource) step finished in an earlier run (then it is skipped). */
  readonly isDone: (project: string, resource: CopyResource) => boolean;
  /** Called when a step has finished. */
  readonly markDone: (project: string, resource: CopyResource) => void | Promise<void>;
}

/** Items per write: calls per batch, feedback rows per insert. */
const BATCH = 2000;

const allCalls = (projectId: string): CallsQuery => ({
  projectId,
  where: null,
  limit: null,
  offset: null,
  columns: null,
  includeStorageSize: false,
  includeTotalStorageSize: false,
  sort: [
    { field: { kind: 'column', name: 'started_at', type: 'datetime' }, direction: 'asc' },
    { field: { kind: 'column', name: 'id', type: 'string' }, direction: 'asc' },
  ],
});

/** Every live version of every object of the project. */
const allVersions = (projectId: string, opts: Pick<ObjectsQuery, 'metadataOnly' | 'includeLabels'>): ObjectsQuery => ({
  projectId,
  objectIds: null,
  latestOnly: false,
  isOp: null,
  baseObjectClasses: null,
  excludeBaseObjectClasses: null,
  leafObjectClasses: null,
  tags: null,
  aliases: null,
  sort: [],
  limit: null,
  offset: null,
  ...opts,
});

const parse = (json: string | null): unknown => (json === null ? null : JSON.parse(json));

/** The parts that recreate a stored call (its display name travels in the start). */
function partsOf(c: StoredCall): CallPart[] {
  const parts: CallPart[] = [
    {
      mode: 'start',
      start: {
        project_id: c.project_id,
        id: c.id,
        trace_id: c.trace_id,
        parent_id: c.parent_id,
        thread_id: c.thread_id,
        turn_id: c.turn_id,
        op_name: c.op_name,
        display_name: c.display_name,
        started_at: c.started_at,
        attributes: c.attributes,
        inputs: c.inputs,
        input_refs: extractRefs(parse(c.inputs)),
        wb_user_id: c.wb_user_id,
        wb_run_id: c.wb_run_id,
        wb_run_step: c.wb_run_step,
        expire_at: c.expire_at,
      },
    },
  ];
  if (c.ended_at !== null) {
    parts.push({
      mode: 'end',
      end: {
        project_id: c.project_id,
        id: c.id,
        ended_at: c.ended_at,
        exception: c.exception,
        output: c.output ?? 'null',
        summary: c.summary ?? '{}',
        output_refs: extractRefs(parse(c.output)),
        wb_run_step_end: c.wb_run_step_end,
      },
    });
  }
  return parts;
}

async function copyCalls(from: Store, to: Store, project: string, progress: CopyProgress) {
  progress.begin(project, 'calls', (await from.calls.count(allCalls(project))).count);
  let batch: CallPart[] = [];
  let n = 0;
  for await (const call of from.calls.query(allCalls(project))) {
    batch.push(...partsOf(call));
    if (++n === BATCH) {
      await to.calls.writeParts(batch);
      progress.advance(n);
      batch = [];
      n = 0;
    }
  }
  if (n > 0) await to.calls.writeParts(batch);
  progress.advance(n);
}

/** Live versions in creation order, then the source's latest re-asserted (it may not be the newest). */
async function copyObjects(from: Store, to: Store, project: string, progress: CopyProgress) {
  const versions = await from.objects.query(allVersions(project, { metadataOnly: false, includeLabels: true }));
  progress.begin(project, 'objects', versions.length);
  // One at a time: writing several objects at once measured slower on chdb (156 s against 135 s for 2,000 versions).
  for (const v of versions) {
    await to.objects.create({
      project_id: project,
      object_id: v.object_id,
      digest: v.digest,
      kind: v.kind,
      base_object_class: v.base_object_class,
      leaf_object_class: v.leaf_object_class,
      val: v.val!,
      wb_user_id: v.wb_user_id,
      created_at: v.created_at,
    });
    const sel = { kind: 'digest', digest: v.digest } as const;
    if (v.tags && v.tags.length > 0) await to.objects.addTags(project, v.object_id, sel, v.tags);
    if (v.aliases && v.aliases.length > 0) await to.objects.setAliases(project, v.object_id, sel, v.aliases);
    progress.advance(1);
  }
  for (const v of versions.filter((x) => x.is_latest)) {
    const latest = await to.objects.read(
      project,
      v.object_id,
      { kind: 'latest' },
      { metadataOnly: true, includeLabels: false },
    );
    if (latest?.digest !== v.digest) {
      await to.objects.create({
        project_id: project,
        object_id: v.object_id,
        digest: v.digest,
        kind: v.kind,
        base_object_class: v.base_object_class,
        leaf_object_class: v.leaf_object_class,
        val: v.val!,
        wb_user_id: v.wb_user_id,
        created_at: v.created_at,
      });
    }
  }
}

async function copyTables(from: Store, to: Store, project: string, progress: CopyProgress) {
  const digests = await from.tables.digests(project);
  progress.begin(project, 'tables', digests.length);
  for (const digest of digests) {
    const rowDigests = (await from.tables.getTableRowDigests(project, digest)) ?? [];
    const unique = [...new Set(rowDigests)];
    const rows: { digest: string; val: string }[] = [];
    for (let i = 0; i < unique.length; i += 10_000) {
      for (const [d, val] of await from.tables.getRows(project, unique.slice(i, i + 10_000)))
        rows.push({ digest: d, val });
    }
    await to.tables.putTable(project, digest, rowDigests, rows);
    progress.advance(1);
  }
}

async function copyFiles(from: Store, to: Store, project: string, progress: CopyProgress) {
  const digests = await from.files.digests(project);
  progress.begin(project, 'files', digests.length);
  for (const digest of digests) {
    const content = await from.files.open(project, digest);
    if (content !== null) {
      const upload = await to.files.beginUpload();
      try {
        for await (const chunk of content.chunks) await upload.write(chunk);
        await upload.commit(project, digest);
      } catch (err) {
        await upload.abort();
        throw err;
      }
    }
    progress.advance(1);
  }
}

async function copyFeedback(from: Store, to: Store, project: string, progress: CopyProgress) {
  progress.begin(project, 'feedback', await from.feedback.count(project, null));
  const select = FEEDBACK_COLUMNS.map((c) => ({
    key: c,
    field: { kind: 'column', name: c, type: c === 'created_at' ? 'datetime' : 'string' } as const,
  }));
  for (let offset = 0; ; offset += BATCH) {
    const rows = await from.feedback.query({ projectId: project, select, where: null, sort: [], limit: BATCH, offset });
    if (rows.length === 0) break;
    await to.feedback.insert(rows as unknown as FeedbackRow[]);
    progress.advance(rows.length);
    if (rows.length < BATCH) break;
  }
}

const projectPrices = (project: string): Expr => ({
  kind: 'and',
  items: [
    {
      kind: 'compare',
      op: 'eq',
      left: { kind: 'field', field: { kind: 'column', name: 'pricing_level', type: 'string' } },
      right: { kind: 'literal', value: 'project' },
    },
    {
      kind: 'compare',
      op: 'eq',
      left: { kind: 'field', field: { kind: 'column', name: 'pricing_level_id', type: 'string' } },
      right: { kind: 'literal', value: project },
    },
  ],
});

async function copyPrices(from: Store, to: Store, project: string, progress: CopyProgress) {
  const q = { where: projectPrices(project), sort: [], limit: null, offset: null };
  const rows = await from.costs.query(q);
  progress.begin(project, 'prices', rows.length);
  const present = new Set((await to.costs.query(q)).map((r) => r.id));
  const missing = rows.filter((r) => !present.has(r.id));
  if (missing.length > 0) await to.costs.insert(missing);
  progress.advance(rows.length);
}

async function copySettings(from: Store, to: Store, project: string, progress: CopyProgress) {
  progress.begin(project, 'settings', 1);
  const days = await from.projects.getRetentionDays(project);
  if (days !== (await to.projects.getRetentionDays(project)))
    await to.projects.setRetentionDays(project, days, Date.now() * 1000, null);
  progress.advance(1);
}

async function copySpans(from: Store, to: Store, project: string, progress: CopyProgress) {
  progress.begin(project, 'spans', await spanCount(from, project));
  // A span written again replaces itself, so a resumed copy rewrites at most one page twice.
  for await (const rows of from.spans.all(project)) {
    await to.spans.write(rows);
    progress.advance(rows.length);
  }
}

/** After the spans: a record says its turn's spans are committed. */
async function copyHistoricalTurns(from: Store, to: Store, project: string, progress: CopyProgress) {
  progress.begin(project, 'historical_turns', null);
  for await (const records of from.historicalTurns.all(project)) {
    await to.historicalTurns.put(records);
    progress.advance(records.length);
  }
}

/** The project's entity's secrets, sealed; a secret set again replaces itself. */
async function copySecrets(from: Store, to: Store, project: string, progress: CopyProgress) {
  const entity = entityOf(project);
  const records = await from.secrets.list(entity);
  progress.begin(project, 'secrets', records.length);
  for (const r of records) {
    const sealed = await from.secrets.get(entity, r.name);
    if (sealed !== null && sealed !== (await to.secrets.get(entity, r.name)))
      await to.secrets.set(entity, r.name, sealed, r.updatedAt, r.updatedBy);
    progress.advance(1);
  }
}

const entityOf = (project: string) => project.slice(0, project.indexOf('/'));

async function historicalTurnCount(s: Store, project: string): Promise<number> {
  let n = 0;
  for await (const records of s.historicalTurns.all(project)) n += records.length;
  return n;
}

const spanCount = async (s: Store, project: string) =>
  (
    await s.spans.query({
      projectId: project,
      where: null,
      sort: [],
      limit: 0,
      offset: 0,
      startedAfter: null,
      startedBefore: null,
      columns: [],
    })
  ).total;

const STEPS: Record<CopyResource, (from: Store, to: Store, project: string, progress: CopyProgress) => Promise<void>> =
  {
    // Tables and files before the objects that refer to them, objects before the calls and feedback that refer to those.
    tables: copyTables,
    files: copyFiles,
    objects: copyObjects,
    calls: copyCalls,
    feedback: copyFeedback,
    prices: copyPrices,
    settings: copySettings,
    spans: copySpans,
    historical_turns: copyHistoricalTurns,
    secrets: copySecrets,
  };
const ORDER: readonly CopyResource[] = [
  'tables',
  'files',
  'objects',
  'calls',
  'feedback',
  'prices',
  'settings',
  'spans',
  'historical_turns',
  'secrets',
];

/** Copies every project of `from` into `to`; returns the projects copied. */
export async function copyStore(from: Store, to: Store, opts: CopyOptions): Promise<string[]> {
  const projects = (await from.projectIds()).sort();
  for (const project of projects) {
    for (const resource of ORDER) {
      if (opts.isDone(project, resource) || (opts.only !== undefined && !opts.only.includes(resource))) continue;
      await STEPS[resource](from, to, project, opts.progress);
      await opts.markDone(project, resource);
    }
  }
  return projects;
}

export interface CopyCount {
  readonly project: string;
  readonly resource: CopyResource;
  readonly from: number;
  readonly to: number;
}

/** What each store holds of each project, resource by resource (the copy's final check). */
export async function countBoth(from: Store, to: Store, projects: readonly string[]): Promise<CopyCount[]> {
  const counts = async (s: Store, project: string): Promise<Record<CopyResource, number>> => ({
    calls: (await s.calls.count(allCalls(project))).count,
    objects: (await s.objects.query(allVersions(project, { metadataOnly: true, includeLabels: false }))).length,
    tables: (await s.tables.digests(project)).length,
    files: (await s.files.digests(project)).length,
    feedback: await s.feedback.count(project, null),
    prices: (await s.costs.query({ where: projectPrices(project), sort: [], limit: null, offset: null })).length,
    settings: (await s.projects.getRetentionDays(project)) ?? 0,
    spans: await spanCount(s, project),
    historical_turns: await historicalTurnCount(s, project),
    secrets: (await s.secrets.list(entityOf(project))).length,
  });
  const out: CopyCount[] = [];
  for (const project of projects) {
    const [a, b] = [await counts(from, project), await counts(to, project)];
    for (const resource of COPY_RESOURCES) out.push({ project, resource, from: a[resource], to: b[resource] });
  }
  return out;
}
