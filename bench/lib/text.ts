// Seeded filler text for inputs and outputs. A fixed pool of sentences is built once
// (from its own seed, so it never depends on what the caller drew before) and picked
// from, which keeps generating a million ~1 KB payloads cheap.
import { Rng } from './rng.js';

const WORDS = (
  'the a of to and in that is for it with as was on be by this are from at or an have not which but ' +
  'model answer question context document retrieval token prompt user system assistant tool search result ' +
  'vector index chunk summary score evaluation dataset latency trace span error request response cache ' +
  'weather invoice customer order shipping refund policy account password billing report quarterly revenue ' +
  'growth forecast market product feature release bug patch deploy server database query table column ' +
  'python typescript function class method argument value return loop branch merge commit review test ' +
  'please could you explain why how what when where which who summarize translate classify extract list ' +
  'compare rewrite draft email meeting schedule calendar note reminder travel flight hotel booking price'
).split(' ');

const POOL_SIZE = 2048;
const pool: string[] = (() => {
  const rng = new Rng('weft-bench-text-pool-v1');
  const out: string[] = [];
  for (let i = 0; i < POOL_SIZE; i++) {
    const n = rng.int(6, 22);
    const words: string[] = [];
    for (let w = 0; w < n; w++) words.push(rng.pick(WORDS));
    const s = words.join(' ');
    out.push(s[0]!.toUpperCase() + s.slice(1) + (rng.chance(0.2) ? '?' : '.'));
  }
  return out;
})();

/** About `chars` characters of sentences (never less, at most one sentence more). */
export function text(rng: Rng, chars: number): string {
  let s = pool[rng.u32() % POOL_SIZE]!;
  while (s.length < chars) s += ` ${pool[rng.u32() % POOL_SIZE]!}`;
  return s;
}

/** A short phrase of `n` words (names, queries, labels). */
export function words(rng: Rng, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[rng.u32() % WORDS.length]!);
  return out.join(' ');
}
