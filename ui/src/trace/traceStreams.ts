// Trace skeleton streams (/ui/api/trace_tree by call id, no payloads), started by the trace
// route's loader as soon as the URL matches, before the trace view's code has loaded, and
// read by the view through useTraceStream. Rows accumulate in a TraceIndex outside React; a
// new version is published at most every PUBLISH_MS (the first batch at once), so a
// 50,000-call trace renders its first rows at once and is not re-flattened per network chunk.
import { streamJsonl } from '../api/client';
import type { UiTraceTreeReq } from '../api/types';
import { TraceIndex, type TraceRow } from './traceIndex';

const PUBLISH_MS = 120;
/** A stream nobody reads any more is aborted after this long (a remount keeps it). */
const LINGER_MS = 5_000;

export class TraceStreamSource {
  readonly index = new TraceIndex();
  version = 0;
  done = false;
  error: unknown = null;
  private readonly ctrl = new AbortController();
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private idle: ReturnType<typeof setTimeout> | null = null;

  constructor(
    projectId: string,
    callId: string,
    private readonly onClose: () => void,
  ) {
    const body: UiTraceTreeReq = { project_id: projectId, call_id: callId };
    streamJsonl<TraceRow>(
      '/ui/api/trace_tree',
      body,
      (rows) => {
        const first = this.index.size === 0;
        this.index.add(rows);
        if (first) this.publish();
        else if (this.timer === null) this.timer = setTimeout(() => this.publish(), PUBLISH_MS);
      },
      this.ctrl.signal,
    )
      .then(() => this.finish(null))
      .catch((error: unknown) => {
        if (!this.ctrl.signal.aborted) this.finish(error);
      });
    this.lingerThenClose();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.idle !== null) clearTimeout(this.idle);
    this.idle = null;
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.lingerThenClose();
    };
  };

  private lingerThenClose() {
    this.idle = setTimeout(() => {
      if (this.listeners.size > 0) return;
      this.ctrl.abort();
      if (this.timer !== null) clearTimeout(this.timer);
      this.onClose();
    }, LINGER_MS);
  }

  private publish() {
    this.timer = null;
    this.version++;
    for (const l of this.listeners) l();
  }

  private finish(error: unknown) {
    if (this.timer !== null) clearTimeout(this.timer);
    this.done = true;
    this.error = error;
    this.publish();
  }
}

const live = new Map<string, TraceStreamSource>();

/** The stream of the trace holding `callId`: the running one for these arguments, else a new one. */
export function traceStream(projectId: string, callId: string, attempt = 0): TraceStreamSource {
  const key = JSON.stringify([projectId, callId, attempt]);
  let s = live.get(key);
  if (!s) {
    s = new TraceStreamSource(projectId, callId, () => {
      if (live.get(key) === s) live.delete(key);
    });
    live.set(key, s);
  }
  return s;
}
