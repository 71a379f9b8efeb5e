// What every engine must offer for per-project settings (today: the calls' time-to-live).
import type { Micros } from '../../time.js';

export interface ProjectSettingsStore {
  /**
   * Days calls of the project are kept, or null when no time-to-live is configured.
   * `maxAgeMs`: the answer may be that old (the write path's question, asked per request);
   * a change made through this store is seen at once whatever it says. Default 0: current.
   */
  getRetentionDays(projectId: string, maxAgeMs?: number): Promise<number | null>;
  /** Sets (null: clears) the project's time-to-live; applies to calls written from now on. */
  setRetentionDays(projectId: string, days: number | null, at: Micros, userId: string | null): Promise<void>;
}
