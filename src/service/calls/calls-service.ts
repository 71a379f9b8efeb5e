// Calls: the write path (start / end / batches / update / delete) and the read path
// (read, query, stream, stats), above the engine-neutral CallStore.
import { Readable } from 'node:stream';
import type {
  CallBatchItem,
  CallEndReq,
  CallReadReq,
  CallsDeleteReq,
  CallsQueryReq,
  CallsQueryStatsReq,
  CallStartReq,
  CallUpdateReq,
} from '../../api/calls.js';
import { InvalidRequestError, ServiceUnavailableError } from '../../api/errors.js';
import { compileCallsQuery } from '../../query/compile-calls-query.js';
import { WriteQueueFullError, type CallPart, type StoredCall } from '../../storage/calls/call-store.js';
import type { CallsQuery } from '../../query/calls-query.js';
import type { Store } from '../../storage/store.js';
import { foreignParts, splitCompleted, toEndPart, toStartPart, type ForeignCall, wellFormed } from './call-parts.js';
import type { CallEndV2Req, CompletedCallSchemaForInsert, ProjectPath } from '../../api/calls-v2.js';
import { renderCall } from './call-render.js';
import { createCallHydrator, type HydrationOptions } from './call-hydration.js';
import { nowMicros, parseTimestamp } from '../../time.js';
import { createRefValueReader } from '../refs/ref-values.js';
import { createSerialLane } from './serial-lane.js';
import { createCallRankings, derivedSortedCalls, derivedSortOf } from './derived-sort.js';

export interface Caller {
  readonly userId: string;
  readonly username: string;
}

const CHUNK = 100;
/** Batch items turned into parts between two turns of the event loop. */
const SLICE = 25;
/** How old a project's time-to-live may be when a write reads it (another replica's change). */
export const RETENTION_MAX_AGE_MS = 1000;

export type CallsService = ReturnType<typeof createCallsService>;

/** The v2 routes name the project in their path: every item must be of that project. */
function sameProject(path: ProjectPath, projectIds: readonly string[]): void {
  const expected = `${path.entity}/${path.project}`;
  const other = projectIds.find((p) => p !== expected);
  if (other !== undefined)
    throw new InvalidRequestError(
      `project_id ${JSON.stringify(other)} does not match the path's project ${JSON.stringify(expected)}`,
    );
}

export interface CallsServiceOptions {
  /** Told of every group of parts once written (the signals worker scores ended calls); must not throw. */
  readonly onWritten?: (parts: readonly CallPart[]) => void;
}

export function createCallsService(store: Store, opts: CallsServiceOptions = {}) {
  /** User names of the calls' wb_user_ids: stored users (keys' users), else the caller's own. */
  async function usernamesOf(
    calls: readonly StoredCall[],
    caller: Caller,
  ): Promise<(id: string | null) => string | null> {
    const ids = [...new Set(calls.map((c) => c.wb_user_id).filter((id): id is string => id !== null))];
    const names = await store.auth.usernames(ids);
    return (id) => (id === null ? null : (names.get(id) ?? (id === caller.userId ? caller.username : null)));
  }

  const hydrator = createCallHydrator(store, createRefValueReader(store.objects, store.tables));
  const rankings = createCallRankings();
  const lane = createSerialLane();

  /**
   * Turns batch items into parts a slice at a time in one lane (serial-lane.ts), letting other
   * requests run in between: batches never hold the event loop for long.
   */
  function partsOf<T>(items: readonly T[], toParts: (item: T, index: number) => CallPart[]): Promise<CallPart[]> {
    return lane(async () => {
      const out: CallPart[] = [];
      for (let at = 0; at < items.length; at += SLICE) {
        if (at > 0) await new Promise((r) => setImmediate(r));
        for (let i = at; i < Math.min(at + SLICE, items.length); i++) out.push(...toParts(items[i]!, i));
      }
      return out;
    });
  }

  /** Writes parts; a full write queue becomes a 503 the client retries (nothing was written). */
  async function write(parts: readonly CallPart[]): Promise<void> {
    try {
      await store.calls.writeParts(parts);
      opts.onWritten?.(parts);
    } catch (err) {
      if (err instanceof WriteQueueFullError)
        throw new ServiceUnavailableError('Too many call writes are waiting; retry shortly', 1);
      throw err;
    }
  }

  /**
   * The time-to-live of each project, once per request; an answer up to RETENTION_MAX_AGE_MS
   * old will do (a change through another replica reaches new calls within that time).
   */
  async function retentionOf(projectIds: Iterable<string>): Promise<Map<string, number | null>> {
    const days = new Map<string, number | null>();
    for (const id of projectIds)
      if (!days.has(id)) days.set(id, await store.projects.getRetentionDays(id, RETENTION_MAX_AGE_MS));
    return days;
  }

  function batchPart(
    item: CallBatchItem,
    index: number,
    caller: Caller,
    retention: Map<string, number | null>,
  ): CallPart {
    const mode = item.mode ?? (item.req.start ? 'start' : item.req.end ? 'end' : null);
    if (mode === 'start' && item.req.start) {
      return {
        mode,
        start: toStartPart(item.req.start, caller.userId, retention.get(item.req.start.project_id) ?? null),
      };
    }
    if (mode === 'end' && item.req.end) return { mode, end: toEndPart(item.req.end) };
    if (mode !== 'start' && mode !== 'end')
      throw new InvalidRequestError(`batch[${index}]: Invalid mode ${JSON.stringify(item.mode)}`);
    throw new InvalidRequestError(`batch[${index}]: mode "${mode}" needs req.${mode}`);
  }

  /** The compiled query and its calls in order: the engine's, or a derived sort's (derived-sort.ts). */
  function queried(req: CallsQueryReq): { q: CallsQuery; calls: AsyncIterable<StoredCall> } {
    const derived = derivedSortOf(req);
    if (derived === null) {
      const q = compileCallsQuery(req);
      return { q, calls: store.calls.query(q) };
    }
    const q = compileCallsQuery({ ...req, sort_by: derived.rest });
    return { q, calls: derivedSortedCalls(store, rankings, q, derived) };
  }

  /** Streams rendered calls, `CHUNK` at a time, hydrated with feedback / expanded refs as asked. */
  async function* renderedChunks(req: CallsQueryReq, caller: Caller): AsyncGenerator<string[]> {
    const { q, calls } = queried(req);
    const opts = hydrationOf(req);
    const columns = q.columns ? new Set<string>(q.columns) : null;
    let batch: StoredCall[] = [];
    const flush = async () => {
      const extras = await hydrator.hydrate(q.projectId, batch, opts);
      const username = await usernamesOf(batch, caller);
      const lines = batch.map((c, i) => renderCall(c, { columns, username }, extras[i]!.summary, extras[i]!.replaced));
      batch = [];
      return lines;
    };
    for await (const call of calls) {
      batch.push(call);
      if (batch.length >= CHUNK) yield await flush();
    }
    if (batch.length > 0) yield await flush();
  }

  function hydrationOf(
    req: Pick<CallsQueryReq, 'include_feedback' | 'include_costs' | 'expand_columns'>,
  ): HydrationOptions {
    return {
      feedback: req.include_feedback === true,
      costs: req.include_costs === true,
      expandColumns: req.expand_columns ?? [],
    };
  }

  return {
    async start(req: CallStartReq, caller: Caller) {
      const start = toStartPart(
        req.start,
        caller.userId,
        await store.projects.getRetentionDays(req.start.project_id, RETENTION_MAX_AGE_MS),
      );
      await write([{ mode: 'start', start }]);
      return { id: start.id, trace_id: start.trace_id };
    },

    async end(req: CallEndReq) {
      await write([{ mode: 'end', end: toEndPart(req.end) }]);
      return {};
    },

    /** Every item is validated before anything is written; the whole batch commits at once. */
    async upsertBatch(batch: readonly CallBatchItem[], caller: Caller) {
      const retention = await retentionOf(batch.flatMap((item) => (item.req.start ? [item.req.start.project_id] : [])));
      const parts = await partsOf(batch, (item, i) => [batchPart(item, i, caller, retention)]);
      await write(parts);
      return { res: parts.map((p) => (p.mode === 'start' ? { id: p.start.id, trace_id: p.start.trace_id } : {})) };
    },

    /** v2: finished calls, each a start and an end; validated whole, committed at once (as upsertBatch). */
    async complete(path: ProjectPath, batch: readonly CompletedCallSchemaForInsert[], caller: Caller) {
      sameProject(
        path,
        batch.map((c) => c.project_id),
      );
      const retention = await retentionOf(batch.map((c) => c.project_id));
      const parts = await partsOf(batch, (c) => {
        const { start, end } = splitCompleted(c);
        return [
          { mode: 'start', start: toStartPart(start, caller.userId, retention.get(c.project_id) ?? null) },
          { mode: 'end', end: toEndPart(end) },
        ];
      });
      await write(parts);
      return {};
    },

    /**
     * Finished calls from another protocol (OTLP spans): each converted on its own, so that one
     * that cannot be stored is reported by its index while the others are written, at once.
     */
    async writeFinished(calls: readonly ForeignCall[], caller: Caller) {
      const retention = await retentionOf(calls.map((c) => c.project_id));
      const rejected: { index: number; reason: string }[] = [];
      const parts = await partsOf(calls, (c, index): CallPart[] => {
        try {
          const { start, end } = foreignParts(c, caller.userId, retention.get(c.project_id) ?? null);
          return [
            { mode: 'start', start },
            { mode: 'end', end },
          ];
        } catch (err) {
          if (!(err instanceof InvalidRequestError)) throw err;
          rejected.push({ index, reason: err.message });
          return [];
        }
      });
      if (parts.length > 0) await write(parts);
      return { rejected };
    },

    async startV2(path: ProjectPath, req: CallStartReq, caller: Caller) {
      sameProject(path, [req.start.project_id]);
      return this.start(req, caller);
    },

    /** v2: an eager end; its started_at is checked like every timestamp, the start part keeps the call's own. */
    async endV2(path: ProjectPath, req: CallEndV2Req) {
      sameProject(path, [req.end.project_id]);
      const { started_at, ...end } = req.end;
      if (started_at != null) parseTimestamp(started_at, 'started_at');
      return this.end({ end });
    },

    async update(req: CallUpdateReq) {
      if (req.display_name == null) throw new InvalidRequestError('One of [display_name] is required for call update');
      await store.calls.updateDisplayName(req.project_id, req.call_id, wellFormed(req.display_name));
      return {};
    },

    /** One call as JSON text, or null when missing or deleted. */
    async read(req: CallReadReq, caller: Caller): Promise<string | null> {
      const call = await store.calls.get(req.project_id, req.id, {
        storageSize: req.include_storage_size === true,
        totalStorageSize: req.include_total_storage_size === true,
      });
      if (call === null) return null;
      const [extras] = await hydrator.hydrate(req.project_id, [call], {
        feedback: false,
        costs: req.include_costs === true,
        expandColumns: [],
      });
      return renderCall(
        call,
        { columns: null, username: await usernamesOf([call], caller) },
        extras!.summary,
        extras!.replaced,
      );
    },

    /**
     * JSON Lines, one call per line. The first chunk is read before the stream is
     * returned, so a bad query still becomes an ordinary JSON error response.
     */
    async streamQuery(req: CallsQueryReq, caller: Caller): Promise<Readable> {
      const chunks = renderedChunks(req, caller);
      const first = await chunks.next();
      async function* lines() {
        try {
          if (!first.done) yield first.value.map((l) => `${l}\n`).join('');
          for await (const chunk of chunks) yield chunk.map((l) => `${l}\n`).join('');
        } finally {
          await chunks.return(undefined);
        }
      }
      return Readable.from(lines(), { objectMode: false });
    },

    /** The JSON twin of streamQuery: `{"calls": [...]}`. */
    async queryJson(req: CallsQueryReq, caller: Caller): Promise<string> {
      const parts: string[] = [];
      for await (const chunk of renderedChunks(req, caller)) parts.push(...chunk);
      return `{"calls":[${parts.join(',')}]}`;
    },

    async stats(req: CallsQueryStatsReq) {
      if (req.limit != null && req.limit < 1) throw new InvalidRequestError('limit must be at least 1');
      const q = compileCallsQuery({
        ...req,
        sort_by: [],
        include_total_storage_size: req.include_total_storage_size === true,
      });
      return store.calls.count(q);
    },

    async delete(req: CallsDeleteReq) {
      const num_deleted = await store.calls.delete(req.project_id, req.call_ids, nowMicros());
      return { num_deleted };
    },
  };
}
