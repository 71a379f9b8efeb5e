// An answer's body as a web ReadableStream for a fetch Response: read off the socket as the
// caller reads it (a server-sent event reaches the caller when it arrives, not when the answer
// ends; a slow reader holds the socket back instead of filling memory), decoded when the server
// compressed it, and cut off past the byte cap.
import type { IncomingMessage } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { OutboundTooLargeError } from './outbound-error.js';

export interface BodyOptions {
  /** Bytes the decoded body may hold: the cap bounds what the caller holds, and a zip bomb. */
  readonly maxBytes: number;
  /** `host:port`, for messages. */
  readonly where: string;
  /** Aborted when the exchange must end: the body then errors with the signal's reason. */
  readonly signal: AbortSignal;
  /** Called once, when the body ends, fails or is cancelled. */
  readonly onDone: () => void;
}

// Flushed per chunk: an event stream must not wait for a decompressor's block to fill.
const ZLIB_FLUSH = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_FLUSH = { flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH };

const codingOf = (res: IncomingMessage): string =>
  String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();

/** The body's bytes as the server meant them (gzip, deflate and br decoded, as fetch does). */
function decoded(res: IncomingMessage): Readable {
  const coding = codingOf(res);
  const decoder =
    coding === 'gzip' || coding === 'x-gzip'
      ? createGunzip(ZLIB_FLUSH)
      : coding === 'deflate'
        ? createInflate(ZLIB_FLUSH)
        : coding === 'br'
          ? createBrotliDecompress(BROTLI_FLUSH)
          : null;
  if (decoder === null) return res;
  // The pipeline hands a failure of either side to the decoder, whose errors the reader sees.
  pipeline(res, decoder, () => {});
  return decoder;
}

/** Whether the body is compressed, so that Content-Length says nothing of its decoded size. */
export const isEncoded = (res: IncomingMessage): boolean => !['', 'identity'].includes(codingOf(res));

export function responseBody(res: IncomingMessage, opts: BodyOptions): ReadableStream<Uint8Array> {
  const source = decoded(res);
  let received = 0;
  let settled = false;
  let controller: ReadableStreamDefaultController<Uint8Array>;
  const settle = () => {
    settled = true;
    opts.signal.removeEventListener('abort', onAbort);
    opts.onDone();
  };
  // Ends the exchange early: the socket is closed, not returned to the pool half read.
  const drop = () => {
    settle();
    res.destroy();
    source.destroy();
  };
  const stop = (err: unknown) => {
    if (settled) return;
    controller.error(err);
    drop();
  };
  const onAbort = () => stop(opts.signal.reason);
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        if (opts.signal.aborted) return onAbort();
        opts.signal.addEventListener('abort', onAbort, { once: true });
        source.on('data', (chunk: Buffer) => {
          // A destroyed stream may still hand over a chunk it had already read.
          if (settled) return;
          received += chunk.byteLength;
          if (received > opts.maxBytes) return stop(new OutboundTooLargeError(opts.maxBytes, opts.where));
          c.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((c.desiredSize ?? 0) <= 0) source.pause();
        });
        source.once('end', () => {
          if (settled) return;
          c.close();
          settle();
        });
        source.on('error', stop);
        // A body cut short must fail, not end: Node reports the closed socket as an error; this
        // is the backstop for a stream that closes without one.
        source.once('close', () => stop(new Error(`the answer from ${opts.where} ended before its body did`)));
      },
      pull() {
        source.resume();
      },
      cancel() {
        if (!settled) drop();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}
