// Request latency of Weft against the bare-Fastify baseline, sampled in alternating blocks
// so that both see the same background load on a shared, noisy machine. One request in
// flight at a time (latency, not throughput).
import { post, type Reply } from './http.js';
import { median, percentile } from './stats.js';

export interface Endpoint {
  readonly url: string;
  readonly path: string;
  /** request bodies, used round-robin */
  readonly bodies: readonly string[];
}

export interface LatencyRun {
  readonly weft: number[];
  readonly base: number[];
}

async function one(e: Endpoint, i: number): Promise<Reply> {
  const r = await post(e.url, e.path, e.bodies[i % e.bodies.length]!);
  if (r.status !== 200) throw new Error(`${e.path} -> ${r.status}: ${r.body.slice(0, 300)}`);
  return r;
}

/** `n` requests to each, in blocks of `block`, after `warmup` unmeasured requests to each. */
export async function compareLatency(
  weft: Endpoint,
  base: Endpoint,
  n: number,
  block = 50,
  warmup = 0,
  offset = 0,
): Promise<LatencyRun> {
  for (let i = 0; i < warmup; i++) {
    await one(weft, i);
    await one(base, i);
  }
  const out: LatencyRun = { weft: [], base: [] };
  for (let done = 0; done < n; done += block) {
    const k = Math.min(block, n - done);
    for (let i = 0; i < k; i++) out.weft.push((await one(weft, offset + done + i)).ms);
    for (let i = 0; i < k; i++) out.base.push((await one(base, offset + done + i)).ms);
  }
  return out;
}

export interface LatencySummary {
  readonly weftP50: number;
  readonly weftP99: number;
  readonly baseP50: number;
  readonly baseP99: number;
  /** median over runs of (Weft p50 / baseline p50) in the same run */
  readonly ratioP50: number;
  readonly ratioP99: number;
}

/** Medians over runs of each run's percentiles, and of the per-run ratios. */
export function summarize(runs: readonly LatencyRun[]): LatencySummary {
  const p = (xs: number[], q: number) => percentile(xs, q);
  return {
    weftP50: median(runs.map((r) => p(r.weft, 50))),
    weftP99: median(runs.map((r) => p(r.weft, 99))),
    baseP50: median(runs.map((r) => p(r.base, 50))),
    baseP99: median(runs.map((r) => p(r.base, 99))),
    ratioP50: median(runs.map((r) => p(r.weft, 50) / p(r.base, 50))),
    ratioP99: median(runs.map((r) => p(r.weft, 99) / p(r.base, 99))),
  };
}

/** The body whose length is the median of these (the baseline answers with it). */
export function medianBody(bodies: readonly string[]): string {
  const sorted = [...bodies].sort((a, b) => a.length - b.length);
  return sorted[Math.floor(sorted.length / 2)]!;
}
