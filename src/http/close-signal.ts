// An AbortSignal for work done on behalf of one request: aborted when the client goes away
// before the answer is sent (a closed tab, or the UI's fetch aborted for a newer one), so
// long reads stop instead of holding a reader thread for an answer nobody will read.
import type { ServerResponse } from 'node:http';

export function untilClosed(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
