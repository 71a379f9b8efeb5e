// Export of the filtered calls, as JSON Lines (whole calls, as /calls/stream_query answers
// them) or CSV (the table's columns). Where the browser can write a file as a stream (the
// File System Access API: Chromium), rows go to disk as they arrive and memory stays flat;
// elsewhere they are gathered into a Blob and downloaded at the end.
import { streamJsonl } from '../api/client';
import type { Call, CallsQueryReq } from '../api/types';
import { valueAt } from './callColumns';
import { callStatus, latencyMs, totalCost, totalTokens } from '../call/callFacts';

export type ExportFormat = 'jsonl' | 'csv';

interface Sink {
  write(text: string): Promise<void>;
  close(): Promise<void>;
}

type SavePicker = (opts: {
  suggestedName: string;
}) => Promise<{ createWritable(): Promise<{ write(d: string): Promise<void>; close(): Promise<void> }> }>;

async function fileSink(name: string): Promise<Sink | null> {
  const picker = (window as unknown as { showSaveFilePicker?: SavePicker }).showSaveFilePicker;
  if (typeof picker !== 'function') return null;
  const handle = await picker({ suggestedName: name });
  const out = await handle.createWritable();
  return { write: (t) => out.write(t), close: () => out.close() };
}

function blobSink(name: string, type: string): Sink {
  const parts: string[] = [];
  return {
    write: async (t) => void parts.push(t),
    close: async () => {
      const url = URL.createObjectURL(new Blob(parts, { type }));
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  };
}

const csvCell = (v: unknown) => {
  const s = v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

const FIXED: [string, (c: Call) => unknown][] = [
  ['id', (c) => c.id],
  ['trace_id', (c) => c.trace_id],
  ['parent_id', (c) => c.parent_id],
  ['op_name', (c) => c.op_name],
  ['display_name', (c) => c.display_name],
  ['status', (c) => callStatus(c)],
  ['started_at', (c) => c.started_at],
  ['ended_at', (c) => c.ended_at],
  ['latency_ms', (c) => latencyMs(c)],
  ['tokens', (c) => totalTokens(c)],
  ['cost_usd', (c) => totalCost(c)],
  ['exception', (c) => c.exception],
];

/** Writes every call the request matches; `onProgress` gets the count written so far. Returns it. */
export async function exportCalls(
  request: Omit<CallsQueryReq, 'limit' | 'offset'>,
  format: ExportFormat,
  cols: readonly string[],
  onProgress: (n: number) => void,
  signal: AbortSignal,
): Promise<number> {
  const name = `${request.project_id.replace('/', '-')}-calls.${format}`;
  const sink = (await fileSink(name)) ?? blobSink(name, format === 'csv' ? 'text/csv' : 'application/jsonl');
  const columns = [...FIXED, ...cols.map((p) => [p, (c: Call) => valueAt(c, p)] as [string, (c: Call) => unknown])];
  if (format === 'csv') await sink.write(`${columns.map(([h]) => csvCell(h)).join(',')}\n`);
  let n = 0;
  const body: CallsQueryReq = { ...request, include_costs: true, ...(format === 'csv' ? {} : { columns: null }) };
  let pending = Promise.resolve();
  await streamJsonl<Call>(
    '/calls/stream_query',
    body,
    (rows) => {
      const text =
        format === 'csv'
          ? `${rows.map((c) => columns.map(([, f]) => csvCell(f(c))).join(',')).join('\n')}\n`
          : `${rows.map((c) => JSON.stringify(c)).join('\n')}\n`;
      pending = pending.then(() => sink.write(text));
      n += rows.length;
      onProgress(n);
    },
    signal,
  );
  await pending;
  await sink.close();
  return n;
}
