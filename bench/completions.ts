// Models: what Weft adds to a streamed completion's first token, and what tracked completions
// cost ingest. A loopback OpenAI-compatible stand-in streams a completion whose first chunk
// carries text at once; the first token is timed from the request's start to the first chunk
// with text, read the same way (fetch, bytes scanned) directly from the stand-in and through
// Weft's /completions/create_stream (custom provider, tracked call). Pairs alternate; the first
// ones warm both paths. Then /call/upsert_batch ingest alone, and again while a client streams
// tracked completions back to back. Targets: < 20 ms added to the first token; ingest with the
// completions running within noise of ingest alone.
// Run alone: node --import tsx bench/completions.ts
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { isMain, runAlone } from './lib/cli.js';
import { benchOptions, dataPath, type BenchOptions } from './lib/config.js';
import { postOk } from './lib/http.js';
import type { BenchResult } from './lib/report.js';
import { startWeft, type ServerProc } from './lib/server.js';
import { fmtMs, fmtRate, fmtRatio, median, percentile } from './lib/stats.js';
import { driveIngest, prepareTraffic } from './ingest.js';

const PROJECT = 'bench-entity/bench-project';
const PAIRS = 60;
const WARMUP = 10;
const FIRST = 'Hel';

/** Streams `lo` chunks after the first: enough that the stream outlasts its first token. */
function standin(chunks: number): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume().on('end', () => {
      const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'bench-model' };
      const event = (choices: unknown[], extra: object = {}) =>
        res.write(`data: ${JSON.stringify({ ...base, choices, ...extra })}\n\n`);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      event([{ index: 0, delta: { role: 'assistant', content: FIRST }, finish_reason: null }]);
      let left = chunks;
      const more = () => {
        if (left-- > 0) {
          event([{ index: 0, delta: { content: 'lo' }, finish_reason: null }]);
          setImmediate(more);
          return;
        }
        event([{ index: 0, delta: {}, finish_reason: 'stop' }]);
        event([], { usage: { prompt_tokens: 12, completion_tokens: chunks + 1, total_tokens: chunks + 13 } });
        res.end('data: [DONE]\n\n');
      };
      setImmediate(more);
    });
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

/** ms from sending `body` to `url` until the answer holds the first token; the rest is read too. */
async function firstToken(url: string, body: unknown): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok || res.body === null) throw new Error(`${url} -> ${res.status}`);
  const decoder = new TextDecoder();
  let seen = '';
  let at = Number.NaN;
  for await (const chunk of res.body) {
    if (Number.isNaN(at)) {
      seen += decoder.decode(chunk, { stream: true });
      if (seen.includes(`"content":"${FIRST}"`)) at = performance.now() - t0;
    }
  }
  if (Number.isNaN(at)) throw new Error(`${url}: no first token in ${seen.slice(0, 300)}`);
  return at;
}

async function setUp(weft: ServerProc, providerUrl: string): Promise<void> {
  await postOk(weft.url, '/admin/secrets/set', { entity: 'bench-entity', name: 'BENCH_KEY', value: 'sk-bench' });
  for (const [object_id, cls, val] of [
    ['standin', 'Provider', { base_url: `${providerUrl}/v1`, api_key_name: 'BENCH_KEY' }],
    ['standin-bench-model', 'ProviderModel', { name: 'bench-model', provider: 'standin', max_tokens: 100 }],
  ] as const)
    await postOk(weft.url, '/obj/create', { obj: { project_id: PROJECT, object_id, val, builtin_object_class: cls } });
}

const request = { model: 'custom::standin::bench-model', messages: [{ role: 'user', content: 'Say hello' }] };

export async function run(opts: BenchOptions = benchOptions()): Promise<BenchResult> {
  const provider = await standin(40);
  const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  const dir = dataPath('tmp', 'completions');
  rmSync(dir, { recursive: true, force: true });
  const allowed = ['--outbound-allowed-hosts', new URL(providerUrl).host];
  const weft = await startWeft(opts, dir, allowed);
  const direct: number[] = [];
  const through: number[] = [];
  try {
    await setUp(weft, providerUrl);
    for (let i = 0; i < PAIRS; i++) {
      const d = await firstToken(`${providerUrl}/v1/chat/completions`, {
        ...request,
        model: 'bench-model',
        stream: true,
      });
      const w = await firstToken(`${weft.url}/completions/create_stream`, { project_id: PROJECT, inputs: request });
      if (i >= WARMUP) {
        direct.push(d);
        through.push(w);
      }
    }
  } finally {
    await weft.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const added = median(through) - median(direct);

  // Ingest alone, then with tracked completions streaming back to back, alternating.
  const traffic = prepareTraffic(opts);
  const alone: number[] = [];
  const busy: number[] = [];
  let completions = 0;
  for (let i = 0; i < opts.runs; i++) {
    for (const withCompletions of [false, true]) {
      const d = dataPath('tmp', `completions-ingest-${withCompletions}`);
      rmSync(d, { recursive: true, force: true });
      const s = await startWeft(opts, d, allowed);
      try {
        await setUp(s, providerUrl);
        let stop = false;
        const loop = (async () => {
          while (withCompletions && !stop) {
            await firstToken(`${s.url}/completions/create_stream`, { project_id: PROJECT, inputs: request });
            completions++;
          }
        })();
        const r = await driveIngest(s, traffic, opts.clients, false);
        stop = true;
        await loop;
        (withCompletions ? busy : alone).push(r.rate);
      } finally {
        await s.stop();
        rmSync(d, { recursive: true, force: true });
      }
    }
    process.stderr.write(
      `bench: completions run ${i + 1}/${opts.runs}: ingest ${fmtRate(alone[i]!, 'calls')} alone, ${fmtRate(busy[i]!, 'calls')} beside completions\n`,
    );
  }
  provider.close();
  const ratio = median(busy.map((b, i) => b / alone[i]!));
  return {
    name: 'completions',
    rows: [
      {
        figure: 'Streamed completion, first token (custom provider on loopback, tracked)',
        weft: fmtMs(median(through)),
        baseline: `${fmtMs(median(direct))} (the provider called directly)`,
        ratio: `+${fmtMs(added)}`,
        target: '< +20 ms',
        met: added < 20,
      },
      {
        figure: `Ingest /call/upsert_batch while tracked completions stream (${opts.clients} clients)`,
        weft: fmtRate(median(busy), 'calls'),
        baseline: `${fmtRate(median(alone), 'calls')} (ingest alone)`,
        ratio: fmtRatio(ratio),
        target: 'within noise',
        met: null,
      },
    ],
    notes: [
      `First token over ${PAIRS - WARMUP} pairs: direct p50 ${fmtMs(median(direct))}, p90 ${fmtMs(percentile(direct, 90))}; through Weft p50 ${fmtMs(median(through))}, p90 ${fmtMs(percentile(through, 90))}.`,
      `Ingest per run: alone ${alone.map((x) => fmtRate(x, 'calls')).join(', ')}; beside completions ${busy.map((x) => fmtRate(x, 'calls')).join(', ')} (${completions} completions streamed in all).`,
    ],
  };
}

if (isMain(import.meta.url)) await runAlone(run);
