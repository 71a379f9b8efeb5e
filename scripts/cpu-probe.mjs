// With WEFT_TEST_CPU=<file>, each process that loads this (the test processes, through the
// test driver's --import) appends one JSON line at exit: its script, and the CPU seconds it
// and its reaped children (servers, Chromium, the SDKs) used, from /proc/self/stat. Linux only;
// a measuring aid for the suite's time (scripts/run-tests.mjs), never an assertion.
import { appendFileSync, readFileSync } from 'node:fs';

const out = process.env.WEFT_TEST_CPU;
if (out && process.platform === 'linux') {
  process.on('exit', () => {
    try {
      const stat = readFileSync('/proc/self/stat', 'utf8');
      // Fields after the parenthesised command: utime is the 14th field, cstime the 17th.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const tick = 100;
      const [utime, stime, cutime, cstime] = [f[11], f[12], f[13], f[14]].map((x) => Number(x) / tick);
      const file = process.argv.find((a) => a.endsWith('.test.ts')) ?? process.argv[1];
      appendFileSync(out, `${JSON.stringify({ file, own: utime + stime, children: cutime + cstime })}\n`);
    } catch {
      // A measuring aid: a process that cannot read its stat is left out.
    }
  });
}
