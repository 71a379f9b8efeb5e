// Bounded memory for the engine's process-local hints (start times, open rows, window guesses,
// time-to-live answers): a Map keeps insertion order, so its first keys are the oldest.

/** Drops the oldest entries of `map` beyond `size`. */
export function trimOldest(map: Map<string, unknown>, size: number): void {
  for (const k of map.keys()) {
    if (map.size <= size) break;
    map.delete(k);
  }
}
