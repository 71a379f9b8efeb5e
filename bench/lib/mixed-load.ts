// A mixed load on a running Weft, shared by the mixed-load test (which then checks that
// every acknowledged write is readable) and the mixed benchmark (which times ingestion and
// /health under it). Ingest clients post the batches a source hands out; alongside them,
// when `others` is set, one client per write kind (call deletes and updates, objects with
// tags and deletes, tables, files, feedback create / replace / purge, costs create / purge,
// time-to-live changes on a project whose calls expire at once) and readers of every kind.
// Contract: every request is recorded; a 5xx, a reset or an unexpected status is a failure
// and stops the load; what was acknowledged is returned for checking.
import { randomBytes } from 'node:crypto';
import { post } from './http.js';

/** One batch for /call/upsert_batch: its body, its calls, and the traces wholly inside it (root first). */
export interface IngestBatch {
  readonly body: string;
  readonly calls: readonly string[];
  readonly traces: readonly (readonly string[])[];
}

export interface MixedLoadOptions {
  readonly url: string;
  readonly project: string;
  /** A project whose calls the `others` ingest with a start long past its time-to-live. */
  readonly expiringProject: string;
  /** The next batch to ingest, or null when there is none (the ingest clients stop). */
  readonly nextBatch: () => IngestBatch | null;
  readonly ingestClients: number;
  /** Run the other writers and the readers too (until ingestion ends). */
  readonly others: boolean;
  /** Builds a batch of the expiring project's calls, started at `startedAt` (ISO). */
  readonly expiringBatch: (startedAt: string) => string;
  /** Pause of each other writer and reader between its requests (default 0: back to back). */
  readonly othersPauseMs?: number;
  /** Largest file uploaded (default 2,000,000 bytes; sizes are uniform from 10,000). */
  readonly maxFileBytes?: number;
}

export interface MixedLoadRecord {
  readonly failures: string[];
  /** requests per route (templated paths) */
  readonly counts: Map<string, number>;
  readonly ingestSeconds: number;
  readonly ingestedCalls: number;
  readonly acked: Set<string>;
  readonly deleted: Set<string>;
  readonly names: Map<string, string>;
  readonly objects: { id: string; digest: string; deleted: boolean }[];
  readonly tables: string[];
  readonly files: { digest: string; bytes: Buffer }[];
  /** feedback id -> expected payload, or undefined once purged */
  readonly feedback: Map<string, unknown>;
  /** price id -> still expected */
  readonly costs: Map<string, boolean>;
}

export interface Answer {
  readonly status: number;
  /** The answer parsed as JSON (on first use: most answers are never looked into). */
  readonly body: any;
  readonly text: string;
}

/** Random bytes to cut uploads from: generating fresh ones per upload costs the client more than the server. */
const FILE_POOL = randomBytes(4_000_000);

const TAGS_ROUTE = /^\/objs\/[^/]+\/versions\/[^/]+\/tags$/;

export async function runMixedLoad(o: MixedLoadOptions): Promise<MixedLoadRecord> {
  const rec: MixedLoadRecord = {
    failures: [],
    counts: new Map(),
    ingestSeconds: 0,
    ingestedCalls: 0,
    acked: new Set(),
    deleted: new Set(),
    names: new Map(),
    objects: [],
    tables: [],
    files: [],
    feedback: new Map(),
    costs: new Map(),
  };
  const P = o.project;
  const send = async (method: string, path: string, body?: string | FormData): Promise<Answer> => {
    const route = path.replace(TAGS_ROUTE, '/objs/{object_id}/versions/{digest}/tags');
    rec.counts.set(route, (rec.counts.get(route) ?? 0) + 1);
    try {
      // JSON bodies over node:http (lighter on the client, which shares the machine); forms with fetch.
      let status: number;
      let text: string;
      if (method === 'POST' && typeof body === 'string') {
        ({ status, body: text } = await post(o.url, path, body));
      } else {
        const res = await fetch(o.url + path, {
          method,
          ...(body === undefined
            ? {}
            : { body, headers: typeof body === 'string' ? { 'content-type': 'application/json' } : {} }),
        });
        [status, text] = [res.status, await res.text()];
      }
      if (status !== 200) rec.failures.push(`${method} ${path} -> ${status} ${text.slice(0, 200)}`);
      return {
        status,
        text,
        get body() {
          try {
            return JSON.parse(text);
          } catch {
            return undefined;
          }
        },
      };
    } catch (err) {
      rec.failures.push(`${method} ${path} -> ${String(err)}`);
      return { status: 0, body: undefined, text: '' };
    }
  };
  const ok = (path: string, body: unknown, method = 'POST') =>
    send(method, path, body === undefined ? undefined : JSON.stringify(body));
  let ingesting = true;
  const othersPause = o.othersPauseMs ?? 0;
  // Each other writer and reader checks this before its next step (pacing it when asked).
  const running = async () => {
    if (othersPause > 0) await new Promise((r) => setTimeout(r, othersPause));
    return ingesting && rec.failures.length === 0;
  };
  const recent = (n: number) => [...rec.acked].slice(-n);
  const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(Math.random() * xs.length)];
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const roots: (readonly string[])[] = [];

  const ingest = async () => {
    for (let b = o.nextBatch(); b !== null && rec.failures.length === 0; b = o.nextBatch()) {
      if ((await send('POST', '/call/upsert_batch', b.body)).status !== 200) return;
      for (const id of b.calls) rec.acked.add(id);
      roots.push(...b.traces);
      (rec as { ingestedCalls: number }).ingestedCalls += b.calls.length;
    }
  };
  const deleter = async () => {
    while (await running()) {
      const trace = roots.shift();
      if (!trace) {
        await pause(5);
        continue;
      }
      const r = await ok('/calls/delete', { project_id: P, call_ids: [trace[0]] });
      if (r.status !== 200) return;
      if (r.body.num_deleted !== trace.length)
        rec.failures.push(`delete of a ${trace.length}-call trace deleted ${r.body.num_deleted}`);
      for (const id of trace) rec.deleted.add(id);
    }
  };
  const updater = async () => {
    for (let i = 0; await running(); i++) {
      const id = pick(recent(500));
      if (!id || rec.deleted.has(id)) {
        await pause(5);
        continue;
      }
      if ((await ok('/call/update', { project_id: P, call_id: id, display_name: `name ${i}` })).status === 200)
        rec.names.set(id, `name ${i}`);
    }
  };
  const objectWriter = async () => {
    for (let i = 0; await running(); i++) {
      const id = `obj-${i % 25}`;
      const r = await ok('/obj/create', { obj: { project_id: P, object_id: id, val: { i, text: 'y'.repeat(200) } } });
      if (r.status !== 200) return;
      const obj = { id, digest: r.body.digest as string, deleted: false };
      rec.objects.push(obj);
      if (i % 3 === 0)
        await ok(`/objs/${id}/versions/${obj.digest}/tags`, { project_id: P, tags: [`t${i % 4}`] }, 'PUT');
      if (
        i % 7 === 6 &&
        (await ok('/obj/delete', { project_id: P, object_id: id, digests: [obj.digest] })).status === 200
      )
        obj.deleted = true;
    }
  };
  const tableWriter = async () => {
    for (let i = 0; await running(); i++) {
      const rows = Array.from({ length: 20 }, (_, j) => ({ i, j, q: `question ${i}.${j}` }));
      const r = await ok('/table/create', { table: { project_id: P, rows } });
      if (r.status === 200) rec.tables.push(r.body.digest);
    }
  };
  const fileWriter = async () => {
    while (await running()) {
      // A random slice of the pool with 8 fresh bytes at its head: every upload is new content.
      const size = 10_000 + Math.floor(Math.random() * ((o.maxFileBytes ?? 2_000_000) - 10_000));
      const at = Math.floor(Math.random() * (FILE_POOL.length - size));
      const bytes = Buffer.concat([randomBytes(8), FILE_POOL.subarray(at, at + size - 8)]);
      const fd = new FormData();
      fd.append('project_id', P);
      fd.append('file', new Blob([new Uint8Array(bytes)]), 'blob');
      const r = await send('POST', '/file/create', fd);
      if (r.status === 200) rec.files.push({ digest: r.body.digest, bytes });
    }
  };
  const feedbackWriter = async () => {
    for (let i = 0; await running(); i++) {
      const call = pick(recent(200));
      if (!call) {
        await pause(5);
        continue;
      }
      const ref = `weave:///${P}/call/${call}`;
      const r = await ok('/feedback/create', {
        project_id: P,
        weave_ref: ref,
        feedback_type: 'custom',
        payload: { i },
      });
      if (r.status !== 200) return;
      let id = r.body.id as string;
      rec.feedback.set(id, { i });
      if (i % 3 === 1) {
        const rep = await ok('/feedback/replace', {
          project_id: P,
          feedback_id: id,
          weave_ref: ref,
          feedback_type: 'custom',
          payload: { i, replaced: true },
        });
        if (rep.status !== 200) return;
        rec.feedback.delete(id);
        id = rep.body.id;
        rec.feedback.set(id, { i, replaced: true });
      }
      if (
        i % 5 === 4 &&
        (
          await ok('/feedback/purge', {
            project_id: P,
            query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: id }] } },
          })
        ).status === 200
      ) {
        rec.feedback.set(id, undefined);
      }
    }
  };
  const costWriter = async () => {
    for (let i = 0; await running(); i++) {
      const r = await ok('/cost/create', {
        project_id: P,
        costs: { [`model-${i}`]: { prompt_token_cost: 0.01, completion_token_cost: 0.02 } },
      });
      if (r.status !== 200) return;
      const [id] = r.body.ids[0] as [string, string];
      rec.costs.set(id, true);
      if (
        i % 4 === 3 &&
        (await ok('/cost/purge', { project_id: P, query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: id }] } } }))
          .status === 200
      ) {
        rec.costs.set(id, false);
      }
    }
  };
  const expiring = async () => {
    // Calls that expired days ago: invisible at once, purged by the retention job meanwhile.
    for (let i = 0; await running(); i++) {
      await ok('/project/ttl_settings/update', { project_id: o.expiringProject, retention_days: 1 + (i % 3) });
      await send('POST', '/call/upsert_batch', o.expiringBatch(new Date(Date.now() - 5 * 86_400_000).toISOString()));
    }
  };
  const reader = async () => {
    while (await running()) {
      const id = pick(recent(100));
      await ok('/calls/stream_query', {
        project_id: P,
        limit: 50,
        sort_by: [{ field: 'started_at', direction: 'desc' }],
      });
      if (id) await ok('/call/read', { project_id: P, id, include_costs: true });
      await ok('/calls/query_stats', { project_id: P, filter: { trace_roots_only: true } });
      await ok('/objs/query', { project_id: P, filter: { latest_only: true } });
      await ok('/feedback/query', { project_id: P, limit: 20 });
      const table = pick(rec.tables);
      if (table) await ok('/table/query', { project_id: P, digest: table, limit: 5 });
    }
  };

  const t0 = performance.now();
  const ingestion = Promise.all(Array.from({ length: o.ingestClients }, ingest)).then(() => {
    (rec as { ingestSeconds: number }).ingestSeconds = (performance.now() - t0) / 1000;
    ingesting = false;
  });
  const others = o.others
    ? [
        deleter(),
        updater(),
        objectWriter(),
        tableWriter(),
        fileWriter(),
        feedbackWriter(),
        costWriter(),
        expiring(),
        reader(),
        reader(),
      ]
    : [];
  await Promise.all([ingestion, ...others]);
  return rec;
}
