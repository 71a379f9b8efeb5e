// A Store that counts what it writes: the same store, with its write methods reporting to a
// WriteMeter once a write is acknowledged (durable), and a refusal of the full ingest queue
// when it happens. Counting here rather than in each service counts every path that writes
// (the SDK routes, the v2 routes, OTLP ingest) the same way; reads pass through untouched.
import { WriteQueueFullError } from '../../storage/calls/call-store.js';
import type { Store } from '../../storage/store.js';
import type { WriteMeter } from './server-metrics.js';

export function meteredStore(store: Store, meter: WriteMeter): Store {
  const { calls, objects, feedback, spans } = store;
  return {
    ...store,
    calls: {
      ...calls,
      async writeParts(parts) {
        try {
          await calls.writeParts(parts);
        } catch (err) {
          if (err instanceof WriteQueueFullError) meter.ingestRejected();
          throw err;
        }
        let starts = 0;
        for (const p of parts) if (p.mode === 'start') starts++;
        meter.callParts(starts, parts.length - starts);
      },
      async purgeExpired(now, limit) {
        const deleted = await calls.purgeExpired(now, limit);
        meter.retentionDeleted(deleted);
        return deleted;
      },
    },
    objects: {
      ...objects,
      async create(v) {
        const outcome = await objects.create(v);
        meter.objects(1);
        return outcome;
      },
    },
    feedback: {
      ...feedback,
      async insert(rows) {
        await feedback.insert(rows);
        meter.feedback(rows.length);
      },
      async replace(projectId, feedbackId, row) {
        await feedback.replace(projectId, feedbackId, row);
        meter.feedback(1);
      },
    },
    spans: {
      ...spans,
      async write(rows) {
        await spans.write(rows);
        meter.spans(rows.length);
      },
      async purgeExpired(now, limit) {
        const deleted = await spans.purgeExpired(now, limit);
        meter.retentionDeletedSpans(deleted);
        return deleted;
      },
    },
  };
}
