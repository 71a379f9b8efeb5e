// Streams one trace's skeleton (/ui/api/trace_tree: no payloads) into a TraceIndex, publishing a new
// version at most every PUBLISH_MS so a 50,000-call trace renders its first rows at once
// and is not re-flattened for every network chunk.
import { useEffect, useState } from 'react';
import { streamJsonl } from '../api/client';
import type { UiTraceTreeReq } from '../api/types';
import { TraceIndex, type TraceRow } from './traceIndex';

const PUBLISH_MS = 120;

export interface TraceStream {
  index: TraceIndex;
  version: number;
  done: boolean;
  error: unknown;
}

export function useTraceStream(projectId: string, traceId: string | null, attempt: number): TraceStream {
  const [state, setState] = useState<TraceStream>(() => ({ index: new TraceIndex(), version: 0, done: false, error: null }));
  useEffect(() => {
    if (traceId === null) return;
    const index = new TraceIndex();
    const ctrl = new AbortController();
    let version = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const publish = () => {
      timer = null;
      setState({ index, version: ++version, done: false, error: null });
    };
    setState({ index, version: 0, done: false, error: null });
    const body: UiTraceTreeReq = { project_id: projectId, trace_id: traceId };
    streamJsonl<TraceRow>('/ui/api/trace_tree', body, (rows) => {
      const firstBatch = index.size === 0;
      index.add(rows);
      if (firstBatch) publish();
      else if (timer === null) timer = setTimeout(publish, PUBLISH_MS);
    }, ctrl.signal)
      .then(() => {
        if (timer !== null) clearTimeout(timer);
        setState({ index, version: ++version, done: true, error: null });
      })
      .catch((error: unknown) => {
        if (ctrl.signal.aborted) return;
        if (timer !== null) clearTimeout(timer);
        setState({ index, version: ++version, done: true, error });
      });
    return () => {
      ctrl.abort();
      if (timer !== null) clearTimeout(timer);
    };
  }, [projectId, traceId, attempt]);
  return state;
}
