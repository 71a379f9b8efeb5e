// The threads view's URL state: the open thread.
export interface ThreadsSearch {
  thread?: string;
}

export function parseThreadsSearch(raw: Record<string, unknown>): ThreadsSearch {
  return typeof raw.thread === 'string' && raw.thread !== '' ? { thread: raw.thread } : {};
}
