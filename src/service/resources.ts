// Every resource a Store holds, declared once with what the rest of Weft does with it. Keyed by
// the Store's resources (storage/store.ts ResourceStores), so a resource added there does not
// type-check until it says how `weft copy` carries it, how the retention job expires it and
// which /metrics counters count its writes, or why it has none of these. The copy, the
// retention job and test/store-resources.test.ts read this table.
import type { ResourceKey, Store } from '../storage/store.js';
import type { Micros } from '../time.js';
import type { CopyResource } from './copy/store-copy.js';

/** Not done for this resource, and why. */
export interface Skip {
  readonly skip: string;
}

export interface ResourcePolicy {
  /** The `weft copy` steps that carry it (service/copy/store-copy.ts). */
  readonly copy: readonly CopyResource[] | Skip;
  /** Hard-deletes up to `limit` rows expired at `now`; returns how many went (retention-job.ts). */
  readonly purgeExpired: ((store: Store, now: Micros, limit: number) => Promise<number>) | Skip;
  /** The /metrics counters of its writes (service/metrics/server-metrics.ts). */
  readonly metrics: readonly string[] | Skip;
  /** Stored per project: Store.projectIds() must find the projects it holds (both engines). */
  readonly perProject: boolean;
}

export const RESOURCES: { readonly [K in ResourceKey]: ResourcePolicy } = {
  calls: {
    copy: ['calls'],
    purgeExpired: (store, now, limit) => store.calls.purgeExpired(now, limit),
    metrics: ['weft_calls_written_total', 'weft_retention_deleted_calls_total', 'weft_ingest_rejected_total'],
    perProject: true,
  },
  objects: {
    copy: ['objects'],
    purgeExpired: { skip: 'versions are kept until deleted; no time-to-live applies to them' },
    metrics: ['weft_objects_written_total'],
    perProject: true,
  },
  feedback: {
    copy: ['feedback'],
    purgeExpired: { skip: "a call's feedback goes with the call (CallStore.purgeExpired)" },
    metrics: ['weft_feedback_written_total'],
    perProject: true,
  },
  tables: {
    copy: ['tables'],
    purgeExpired: { skip: 'content-addressed rows, kept as long as the objects that name them' },
    metrics: { skip: 'written with the objects that name them' },
    perProject: true,
  },
  files: {
    copy: ['files'],
    purgeExpired: { skip: 'content-addressed, kept as long as the objects that name them' },
    metrics: { skip: 'written with the objects that name them' },
    perProject: true,
  },
  costs: {
    copy: ['prices'],
    purgeExpired: { skip: 'prices are settings, not traces' },
    metrics: { skip: 'a few rows an operator writes' },
    perProject: true,
  },
  projects: {
    copy: ['settings'],
    purgeExpired: { skip: 'settings, not traces' },
    metrics: { skip: 'a few rows an operator writes' },
    perProject: true,
  },
  auth: {
    copy: { skip: 'keys are secrets shown once: create them anew on the target (weft keys create)' },
    purgeExpired: { skip: 'keys are revoked, never expired' },
    metrics: { skip: 'a few rows an operator writes' },
    perProject: false,
  },
  spans: {
    copy: ['spans'],
    purgeExpired: (store, now, limit) => store.spans.purgeExpired(now, limit),
    metrics: ['weft_spans_written_total', 'weft_retention_deleted_spans_total'],
    perProject: true,
  },
  historicalTurns: {
    // Without its record, a turn imported again on the target would be written again, not replayed.
    copy: ['historical_turns'],
    purgeExpired: { skip: "a turn's record goes with its trace's spans (SpanStore.purgeExpired)" },
    metrics: { skip: 'its spans count in weft_spans_written_total; each import answers its own status' },
    perProject: true,
  },
  scoreJobs: {
    copy: { skip: 'scoring work and its record: the target scores its own monitors anew' },
    purgeExpired: { skip: 'a record that a target was scored, kept while its monitor version is' },
    metrics: { skip: 'counted by the signals worker, not as writes' },
    perProject: true,
  },
  secrets: {
    // Sealed, with each project's entity: they open on the target under the source's key.
    copy: ['secrets'],
    purgeExpired: { skip: 'settings, not traces' },
    metrics: { skip: 'a few rows an operator writes' },
    perProject: false,
  },
};

export const isSkip = (v: unknown): v is Skip => typeof v === 'object' && v !== null && 'skip' in v;

/** The resources whose expired rows the retention job purges, with how. */
export const PURGES = Object.entries(RESOURCES).flatMap(([name, p]) =>
  isSkip(p.purgeExpired) ? [] : [{ name: name as ResourceKey, purge: p.purgeExpired }],
);
