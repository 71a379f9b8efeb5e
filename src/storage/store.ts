// The storage seam: one Store per engine, made of one small store per resource.
// The interfaces are async and free of SQLite assumptions: the ClickHouse engine
// (append-only parts, no transactions, network I/O) implements the same ones.
import type { CallStore } from './calls/call-store.js';
import type { FeedbackStore } from './feedback/feedback-store.js';
import type { ObjectStore } from './objects/object-store.js';
import type { TableStore } from './tables/table-store.js';
import type { FileStore } from './files/file-store.js';
import type { CostStore } from './costs/cost-store.js';
import type { ProjectSettingsStore } from './settings/project-settings-store.js';
import type { AuthStore } from './auth/auth-store.js';
import type { SpanStore } from './spans/span-store.js';
import type { HistoricalTurnStore } from './historical-turns/historical-turn-store.js';
import type { SecretStore } from './secrets/secret-store.js';
import type { ScoreJobStore } from './signals/score-job-store.js';

/**
 * What an engine reports for /metrics. Both figures come from the engine because only it
 * knows them: where its bytes live, and what one commit is (SQLite: one group transaction of
 * the writer; ClickHouse: one insert, which is acknowledged once stored).
 */
export interface StoreStats {
  /** Bytes the database takes on disk (SQLite: the file and its WAL; ClickHouse: its active parts). */
  sizeBytes(): Promise<number>;
  /** Tells `listener` the seconds each commit took, from then on; returns the function that stops it. */
  onCommit(listener: (seconds: number) => void): () => void;
}

/** Whether the store can take writes: degraded while they fail for want of space, and why. */
export type StoreHealth =
  | { readonly status: 'ok' }
  | { readonly status: 'degraded'; readonly reason: string; readonly since: string };

/**
 * The per-resource stores. A store added here must be declared in service/resources.ts (what
 * `weft copy`, retention and /metrics do with it; a type error until it is) and in
 * test/store-resources.test.ts (which checks each engine's projectIds() finds it).
 */
export interface ResourceStores {
  readonly calls: CallStore;
  readonly objects: ObjectStore;
  readonly feedback: FeedbackStore;
  readonly tables: TableStore;
  readonly files: FileStore;
  readonly costs: CostStore;
  readonly projects: ProjectSettingsStore;
  readonly auth: AuthStore;
  readonly spans: SpanStore;
  readonly historicalTurns: HistoricalTurnStore;
  readonly secrets: SecretStore;
  readonly scoreJobs: ScoreJobStore;
}

export type ResourceKey = keyof ResourceStores;

export interface Store extends ResourceStores {
  readonly stats: StoreStats;
  health(): StoreHealth;
  /** Every project anything is stored for: each resource that service/resources.ts marks per project. */
  projectIds(): Promise<string[]>;
  /**
   * The engine's own failure (a full disk, a database locked or failing) as Weft's typed error,
   * or null when `err` is no storage fault. Decided by the engine, mapped to HTTP at the edge.
   */
  storageFault(err: unknown): Error | null;
  close(): Promise<void>;
}
