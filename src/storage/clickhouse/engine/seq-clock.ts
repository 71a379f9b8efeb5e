// The version clock of ReplacingMergeTree rows: microseconds since the epoch, strictly
// increasing within this process (two writes in one microsecond still order), so the newest
// row written wins the merge. Across servers the clocks order writes to within their skew;
// `passed` moves this one past a version another server wrote (calls do, before rewriting).
export interface SeqClock {
  /** The next version: above every one given or passed before. */
  readonly next: () => number;
  /** From now on, versions are above `seq`. */
  passed(seq: number): void;
}

export function seqClock(): SeqClock {
  let last = 0;
  return {
    next: () => (last = Math.max(last + 1, Date.now() * 1000)),
    passed(seq) {
      if (seq > last) last = seq;
    },
  };
}
