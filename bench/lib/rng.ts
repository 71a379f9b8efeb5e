// Seeded pseudo-random numbers for the benchmark data. Contract: the same seed gives the
// same sequence on every machine and Node version (pure 32-bit integer arithmetic, no
// Math.random), so the generated calls, ids and objects are identical run to run and the
// cached database under bench/.data/ stays valid for a given generator version.

/** xmur3: hashes a seed string into 32-bit words for sfc32's state. */
function xmur3(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  return () => {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return (h ^= h >>> 16) >>> 0;
  };
}

const HEX = '0123456789abcdef';

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string) {
    const h = xmur3(seed);
    this.a = h();
    this.b = h();
    this.c = h();
    this.d = h();
    for (let i = 0; i < 12; i++) this.u32(); // mix the initial state
  }

  /** sfc32: a uniform unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error('pick from an empty list');
    return xs[Math.floor(this.float() * xs.length)]!;
  }

  /** `n` lowercase hex digits. */
  hex(n: number): string {
    let s = '';
    while (s.length < n) {
      let x = this.u32();
      for (let i = 0; i < 8 && s.length < n; i++, x >>>= 4) s += HEX[x & 15];
    }
    return s;
  }

  /** A child generator with its own stream, so adding draws to one part of the data leaves the others as they were. */
  fork(label: string): Rng {
    return new Rng(`${this.u32()}:${label}`);
  }

  /** Fisher-Yates shuffle in place. */
  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(this.float() * (i + 1));
      [xs[i], xs[j]] = [xs[j]!, xs[i]!];
    }
    return xs;
  }
}

/** A UUIDv7-shaped lowercase id: the 48-bit millisecond time, then seeded random bits (version 7, RFC variant). */
export function uuidv7At(rng: Rng, ms: number): string {
  const t = Math.floor(ms).toString(16).padStart(12, '0');
  const variant = HEX[8 + (rng.u32() & 3)]!;
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${rng.hex(3)}-${variant}${rng.hex(3)}-${rng.hex(12)}`;
}

/** A Weave-style digest: 43 URL-safe base64 characters (as SHA-256 digests look after encoding). */
export function fakeDigest(rng: Rng): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789XY';
  let s = '';
  for (let i = 0; i < 43; i++) s += alphabet[rng.u32() & 63];
  return s;
}
