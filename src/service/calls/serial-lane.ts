// A lane that runs async tasks one at a time, in arrival order. Ingestion turns batches into
// parts in one lane, a slice per turn of the event loop: however many batches arrive at once,
// each turn does one slice of work, so other requests wait one slice, not one slice per batch.

export type SerialLane = <T>(task: () => Promise<T>) => Promise<T>;

export function createSerialLane(): SerialLane {
  let tail: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}
