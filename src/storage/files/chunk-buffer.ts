// Shared by the engines' file stores: re-cuts pieces of any size into chunks of exactly
// `chunkBytes` (the last one shorter) in one buffer per upload, grown by doubling up to a
// chunk and then reused for every chunk, so a large upload makes no garbage of its own.
export class ChunkBuffer {
  private buf = Buffer.alloc(0);
  private filled = 0;

  constructor(private readonly chunkBytes: number) {}

  /**
   * Appends a piece; each time a chunk is full, awaits `onFull` with it before refilling (the
   * chunk is valid only until `onFull` resolves: engines copy it when they store it).
   */
  async append(piece: Uint8Array, onFull: (chunk: Buffer) => Promise<void>): Promise<void> {
    let at = 0;
    while (at < piece.length) {
      const take = Math.min(piece.length - at, this.chunkBytes - this.filled);
      this.reserve(this.filled + take);
      this.buf.set(piece.subarray(at, at + take), this.filled);
      this.filled += take;
      at += take;
      if (this.filled === this.chunkBytes) {
        await onFull(this.buf.subarray(0, this.filled));
        this.filled = 0;
      }
    }
  }

  /** What is left after the last full chunk (valid until the next append or release). */
  tail(): Buffer {
    return this.buf.subarray(0, this.filled);
  }

  release(): void {
    this.buf = Buffer.alloc(0);
    this.filled = 0;
  }

  private reserve(bytes: number) {
    if (this.buf.length >= bytes) return;
    let size = Math.max(this.buf.length, 16 * 1024);
    while (size < bytes) size *= 2;
    const grown = Buffer.allocUnsafe(Math.min(size, this.chunkBytes));
    this.buf.copy(grown, 0, 0, this.filled);
    this.buf = grown;
  }
}
