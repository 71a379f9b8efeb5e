// The /health prober of the mixed benchmark, in a process of its own so that the load
// generator's own event loop never delays a probe's answer (which would be counted against
// the server). Plain JavaScript: started with `node`, no loader.
// Usage: node bench/lib/health-prober.mjs <base-url> <interval-ms>
// Sends GET /health one at a time, every interval, until its stdin closes; then prints the
// latencies (ms, request written -> last byte) as one JSON array on stdout and exits.
import http from 'node:http';

const [base, every] = [process.argv[2], Number(process.argv[3] ?? 10)];
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const url = new URL('/health', base);
if (url.hostname !== '127.0.0.1') throw new Error(`probes only 127.0.0.1, not ${url.hostname}`);
const latencies = [];
let running = true;
process.stdin.on('end', () => (running = false)).resume();

const probe = () =>
  new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(url, { method: 'GET', agent }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`/health -> ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });

while (running) {
  latencies.push(await probe());
  await new Promise((r) => setTimeout(r, every));
}
process.stdout.write(`${JSON.stringify(latencies)}\n`);
agent.destroy();
