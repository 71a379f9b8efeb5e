// The listeners of StoreStats.onCommit, for either engine: each is told the seconds a commit
// took. Telling them is synchronous and cheap (a histogram observation), so it never delays
// the acknowledgement of the write it measured.

export interface CommitListeners {
  /** Adds a listener; returns the function that removes it. */
  add(listener: (seconds: number) => void): () => void;
  emit(seconds: number): void;
}

export function createCommitListeners(): CommitListeners {
  const listeners = new Set<(seconds: number) => void>();
  return {
    add(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    emit(seconds) {
      for (const listener of listeners) listener(seconds);
    },
  };
}
