// Group commit for ClickHouse writes: the batches that arrive while a write is under way go
// out together in the next one, so that a busy server makes one insert (and one read of what
// is stored, and one settle check) for several requests instead of one each. ClickHouse wants
// few large inserts (each one a part to merge later), and a call whose start and end come in
// batches written together needs no read of its stored start. Measured on chdb in process, 4
// clients, 250-call batches: see docs/performance.md.
//
// Each caller's promise settles with its own batch: when a write of several batches fails, each
// batch is written again alone (the writes are idempotent), so a batch fails only for itself.

interface Waiting<T> {
  readonly items: readonly T[];
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
}

/**
 * `write` wrapped so that at most `inFlight` writes run at once, and batches arriving
 * meanwhile are written together (up to `maxItems` items per write; a larger batch goes alone).
 */
export function groupWrites<T>(
  write: (items: readonly T[]) => Promise<void>,
  maxItems: number,
  inFlight = 1,
): (items: readonly T[]) => Promise<void> {
  const waiting: Waiting<T>[] = [];
  let running = 0;

  function takeGroup(): Waiting<T>[] {
    const group = [waiting.shift()!];
    let n = group[0]!.items.length;
    while (waiting.length > 0 && n + waiting[0]!.items.length <= maxItems) {
      const next = waiting.shift()!;
      group.push(next);
      n += next.items.length;
    }
    return group;
  }

  async function settle(group: readonly Waiting<T>[]): Promise<void> {
    try {
      await write(group.length === 1 ? group[0]!.items : group.flatMap((g) => g.items));
      for (const g of group) g.resolve();
    } catch (err) {
      if (group.length === 1) {
        group[0]!.reject(err);
        return;
      }
      for (const g of group) {
        try {
          await write(g.items);
          g.resolve();
        } catch (own) {
          g.reject(own);
        }
      }
    }
  }

  async function drain(): Promise<void> {
    running++;
    try {
      while (waiting.length > 0) await settle(takeGroup());
    } finally {
      running--;
    }
  }

  return (items) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ items, resolve, reject });
      if (running < inFlight) void drain();
    });
}
