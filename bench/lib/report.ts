// The result table: one row per figure (figure | Weft | baseline | ratio | target | met?),
// printed to the terminal and written as Markdown with the machine it ran on.
import { cpus, freemem, release, totalmem } from 'node:os';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { BenchOptions } from './config.js';

export interface Row {
  readonly figure: string;
  readonly weft: string;
  readonly baseline: string;
  readonly ratio: string;
  readonly target: string;
  /** null: informational, no target */
  readonly met: boolean | null;
}

/** What one benchmark returns: its rows and free-form evidence (plans, samples) for the report. */
export interface BenchResult {
  readonly name: string;
  readonly rows: Row[];
  readonly notes: string[];
}

const metText = (m: boolean | null) => (m === null ? '-' : m ? 'yes' : 'NO');

export function machineInfo(): Record<string, string> {
  const c = cpus();
  let sqlite = '?';
  try {
    const db = new Database(':memory:');
    sqlite = String(db.prepare('SELECT sqlite_version()').pluck().get());
    db.close();
  } catch {
    // informational only
  }
  let loadavg = '?';
  try {
    loadavg = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    // not Linux
  }
  return {
    cpu: c[0]?.model.trim() ?? '?',
    cores: String(c.length),
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB (${(freemem() / 2 ** 30).toFixed(1)} GiB free at start)`,
    node: process.version,
    sqlite,
    os: `${process.platform} ${release()}`,
    'load average at start': loadavg,
  };
}

export function textTable(rows: readonly Row[]): string {
  const head = ['figure', 'Weft', 'baseline', 'ratio', 'target', 'met?'];
  const cells = rows.map((r) => [r.figure, r.weft, r.baseline, r.ratio, r.target, metText(r.met)]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => x.padEnd(widths[i]!)).join(' | ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join('\n');
}

export function markdownTable(rows: readonly Row[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [
    '| figure | Weft | baseline | ratio | target | met? |',
    '|---|---:|---:|---:|---|---|',
    ...rows.map((r) => `| ${[r.figure, r.weft, r.baseline, r.ratio, r.target, metText(r.met)].map(esc).join(' | ')} |`),
  ].join('\n');
}

export function markdownReport(
  results: readonly BenchResult[],
  opts: BenchOptions,
  machine: Record<string, string>,
  startedAt: Date,
  seconds: number,
): string {
  const rows = results.flatMap((r) => r.rows);
  const out = [
    '# Weft benchmark results',
    '',
    `Run ${startedAt.toISOString()} (${seconds.toFixed(0)} s): \`BENCH_CALLS=${opts.calls} BENCH_RUNS=${opts.runs} npm run bench${results.length < 6 ? ` -- ${results.map((r) => r.name).join(' ')}` : ''}\``,
    `(ingest: ${opts.ingestCalls} calls per run, ${opts.clients} clients, ${opts.batchItems} items per batch; server: ${opts.server}).`,
    'Each figure is the median over the runs; every baseline is measured in the same run, interleaved with Weft.',
    '',
    '## Machine',
    '',
    ...Object.entries(machine).map(([k, v]) => `- ${k}: ${v}`),
    '',
    '## Results',
    '',
    markdownTable(rows),
    '',
  ];
  for (const r of results) {
    if (r.notes.length === 0) continue;
    out.push(
      `## Notes: ${r.name}`,
      '',
      ...r.notes.map((n) => (n.includes('\n') ? `\`\`\`\n${n}\n\`\`\`` : `- ${n}`)),
      '',
    );
  }
  return out.join('\n');
}
