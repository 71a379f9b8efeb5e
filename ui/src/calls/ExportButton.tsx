// Export of the filtered calls (every one, not just those loaded), with progress and cancel.
import { useRef, useState } from 'react';
import type { CallsQueryReq } from '../api/types';
import { ErrorBanner } from '../shell/ErrorBanner';
import { formatCount } from '../format';
import { exportCalls, type ExportFormat } from './exportCalls';

export function ExportButton({
  request,
  cols,
  total,
}: {
  request: Omit<CallsQueryReq, 'limit' | 'offset'>;
  cols: readonly string[];
  total: number | null;
}) {
  const [done, setDone] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const ctrl = useRef<AbortController | null>(null);
  const start = (format: ExportFormat) => {
    ctrl.current = new AbortController();
    setError(null);
    setDone(0);
    exportCalls(request, format, cols, setDone, ctrl.current.signal)
      .catch((e: unknown) => {
        if (!(e instanceof DOMException && e.name === 'AbortError')) setError(e);
      })
      .finally(() => setDone(null));
  };
  if (done !== null) {
    return (
      <span data-testid="export-progress">
        Exporting {formatCount(done)}
        {total !== null ? ` of ${formatCount(total)}` : ''}…{' '}
        <button type="button" onClick={() => ctrl.current?.abort()}>
          Cancel
        </button>
      </span>
    );
  }
  return (
    <>
      <select
        value=""
        onChange={(e) => e.target.value && start(e.target.value as ExportFormat)}
        aria-label="Export the filtered calls"
        data-testid="export"
      >
        <option value="">Export…</option>
        <option value="jsonl">JSON Lines (whole calls)</option>
        <option value="csv">CSV (table columns)</option>
      </select>
      {error !== null && <ErrorBanner error={error} />}
    </>
  );
}
