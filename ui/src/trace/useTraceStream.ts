// The trace view's hook onto its skeleton stream (see traceStreams.ts).
import { useSyncExternalStore } from 'react';
import type { TraceIndex } from './traceIndex';
import { traceStream } from './traceStreams';

export interface TraceStream {
  index: TraceIndex;
  version: number;
  done: boolean;
  error: unknown;
}

export function useTraceStream(projectId: string, callId: string, attempt: number): TraceStream {
  const source = traceStream(projectId, callId, attempt);
  const version = useSyncExternalStore(source.subscribe, () => source.version);
  return { index: source.index, version, done: source.done, error: source.error };
}
