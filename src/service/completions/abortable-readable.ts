// A Readable over an async generator whose destruction (the client gone: Fastify destroys a
// reply's stream when its socket closes) aborts the work the generator waits on. Readable.from
// cannot: its destroy calls the generator's return(), which waits behind the pending next()
// (a provider's chunk that may never come), so the abort would never be signalled.
import { Readable } from 'node:stream';

export function abortableReadable(lines: AsyncGenerator<string>, abort: AbortController): Readable {
  return new Readable({
    read() {
      lines.next().then(
        (n) => this.push(n.done ? null : n.value),
        (err: Error) => this.destroy(err),
      );
    },
    destroy(err, callback) {
      abort.abort();
      // Lets the generator's finally run (it records the call's end) before the stream closes.
      lines.return(undefined).then(
        () => callback(err),
        () => callback(err),
      );
    },
  });
}
