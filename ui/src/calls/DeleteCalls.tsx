// Deleting the ticked calls, after a confirmation that says what goes with them (their
// descendants: Weave deletes whole subtrees).
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postJson } from '../api/client';
import type { CallsDeleteReq } from '../api/types';
import { ErrorBanner } from '../shell/ErrorBanner';
import shell from '../shell/Shell.module.css';

export function DeleteCalls({
  projectId,
  ids,
  onDone,
}: {
  projectId: string;
  ids: readonly string[];
  onDone: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const queryClient = useQueryClient();
  const del = useMutation({
    mutationFn: () =>
      postJson<{ num_deleted: number }>('/calls/delete', {
        project_id: projectId,
        call_ids: [...ids],
      } satisfies CallsDeleteReq),
    onSuccess: () => {
      setAsking(false);
      void queryClient.invalidateQueries({ queryKey: ['calls-count'] });
      void queryClient.invalidateQueries({ queryKey: ['calls-window'] });
      onDone();
    },
  });
  return (
    <>
      <button type="button" onClick={() => setAsking(true)} data-testid="delete-selected">
        Delete {ids.length}
      </button>
      {asking && (
        <div className={shell.overlay} onClick={() => setAsking(false)}>
          <div
            className={shell.dialog}
            role="dialog"
            aria-label="Delete calls"
            data-testid="confirm-delete"
            onClick={(e) => e.stopPropagation()}
          >
            <h2>
              Delete {ids.length} {ids.length === 1 ? 'call' : 'calls'}?
            </h2>
            <p>Their descendant calls are deleted with them. This cannot be undone from the UI.</p>
            {del.isError && <ErrorBanner error={del.error} />}
            <div className={shell.dialogButtons}>
              <button type="button" onClick={() => setAsking(false)} autoFocus>
                Cancel
              </button>
              <button
                type="button"
                onClick={() => del.mutate()}
                disabled={del.isPending}
                data-testid="confirm-delete-button"
              >
                {del.isPending ? 'Deleting…' : 'Delete'}
              </button>
            </div>
          </div>
        </div>
      )}
    </>
  );
}
