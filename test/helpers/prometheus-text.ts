// A strict parser of the Prometheus text exposition format (version 0.0.4), as Prometheus
// reads /metrics: it throws on anything the format does not allow (a bad name, label or value,
// an unescaped quote, a TYPE after its samples or twice, a family split in two groups, a
// duplicate series, a histogram whose buckets are not cumulative or disagree with its count,
// no final newline), so a test that parses an exposition also checks it is well formed.

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Family {
  readonly name: string;
  type: MetricType;
  help: string | null;
  readonly samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const TYPES = new Set<MetricType>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** A value as Prometheus reads it (Go's ParseFloat: NaN and Inf in any letter case). */
function parseValue(raw: string, where: string): number {
  if (/^nan$/i.test(raw)) return NaN;
  if (/^[+-]?inf(inity)?$/i.test(raw)) return raw.startsWith('-') ? -Infinity : Infinity;
  if (!FLOAT.test(raw)) throw new Error(`${where}: bad value ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** Parses `{a="x",b="y"}` starting at text[0] === '{'; returns the labels and the rest of the line. */
function parseLabels(text: string, where: string): { labels: Record<string, string>; rest: string } {
  const labels: Record<string, string> = {};
  let i = 1;
  for (;;) {
    if (text[i] === '}') return { labels, rest: text.slice(i + 1) };
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`${where}: unterminated labels`);
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new Error(`${where}: bad label name ${JSON.stringify(name)}`);
    if (name in labels) throw new Error(`${where}: label ${name} given twice`);
    if (text[eq + 1] !== '"') throw new Error(`${where}: label ${name} value is not quoted`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] !== '\\') {
        value += text[j];
        continue;
      }
      const next = text[++j];
      if (next === '\\' || next === '"') value += next;
      else if (next === 'n') value += '\n';
      else throw new Error(`${where}: bad escape \\${next ?? ''} in label ${name}`);
    }
    if (j >= text.length) throw new Error(`${where}: unterminated value of label ${name}`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`${where}: expected , or } after label ${name}`);
  }
}

/** The family a sample belongs to: a histogram's or summary's _bucket / _sum / _count go to it. */
function familyOf(name: string, families: Map<string, Family>): string {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!name.endsWith(suffix)) continue;
    const base = families.get(name.slice(0, -suffix.length));
    if (base && (base.type === 'histogram' || (base.type === 'summary' && suffix !== '_bucket'))) return base.name;
  }
  return name;
}

const seriesKey = (name: string, labels: Record<string, string>, skip?: string) =>
  `${name}{${Object.keys(labels)
    .filter((k) => k !== skip)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`)
    .join(',')}}`;

function checkHistogram(f: Family): void {
  const series = new Map<string, { buckets: [number, number][]; count?: number; sum?: number }>();
  const of = (labels: Record<string, string>) => {
    const key = seriesKey(f.name, labels, 'le');
    let s = series.get(key);
    if (!s) series.set(key, (s = { buckets: [] }));
    return s;
  };
  for (const s of f.samples) {
    if (s.name === `${f.name}_bucket`) {
      if (s.labels.le === undefined) throw new Error(`${f.name}: bucket without le`);
      of(s.labels).buckets.push([parseValue(s.labels.le, `${f.name} le`), s.value]);
    } else if (s.name === `${f.name}_count`) of(s.labels).count = s.value;
    else if (s.name === `${f.name}_sum`) of(s.labels).sum = s.value;
    else throw new Error(`${f.name}: unexpected sample ${s.name} in a histogram`);
  }
  for (const [key, s] of series) {
    if (s.count === undefined || s.sum === undefined) throw new Error(`${key}: histogram without _count or _sum`);
    const last = s.buckets.at(-1);
    if (!last || last[0] !== Infinity) throw new Error(`${key}: histogram without a +Inf bucket last`);
    if (last[1] !== s.count) throw new Error(`${key}: +Inf bucket ${last[1]} differs from _count ${s.count}`);
    s.buckets.forEach(([le, n], i) => {
      if (i > 0 && (le <= s.buckets[i - 1]![0] || n < s.buckets[i - 1]![1]))
        throw new Error(`${key}: buckets not ascending and cumulative at le=${le}`);
    });
  }
}

export function parsePrometheusText(text: string): Map<string, Family> {
  if (text.length > 0 && !text.endsWith('\n')) throw new Error('the exposition does not end with a newline');
  const families = new Map<string, Family>();
  const typed = new Set<string>();
  const series = new Set<string>();
  let current: string | null = null;
  const family = (name: string): Family => {
    let f = families.get(name);
    if (!f) families.set(name, (f = { name, type: 'untyped', help: null, samples: [] }));
    return f;
  };
  text
    .split('\n')
    .slice(0, -1)
    .forEach((line, n) => {
      const where = `line ${n + 1}`;
      if (line === '') return;
      const meta = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(line);
      if (meta) {
        const [, kind, name, rest = ''] = meta;
        if (!METRIC_NAME.test(name!)) throw new Error(`${where}: bad metric name ${JSON.stringify(name)}`);
        const f = family(name!);
        if (kind === 'HELP') {
          if (f.help !== null) throw new Error(`${where}: second HELP for ${name}`);
          f.help = rest.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
        } else {
          if (f.samples.length > 0 || typed.has(name!))
            throw new Error(`${where}: TYPE for ${name} after its samples or twice`);
          if (!TYPES.has(rest.trim() as MetricType)) throw new Error(`${where}: unknown type ${JSON.stringify(rest)}`);
          typed.add(name!);
          f.type = rest.trim() as MetricType;
        }
        return;
      }
      if (line.startsWith('#')) return; // a comment
      const m = /^([^\s{]+)(.*)$/.exec(line)!;
      const name = m[1]!;
      if (!METRIC_NAME.test(name)) throw new Error(`${where}: bad metric name ${JSON.stringify(name)}`);
      const { labels, rest } = m[2]!.startsWith('{') ? parseLabels(m[2]!, where) : { labels: {}, rest: m[2]! };
      const fields = rest.trim().split(/\s+/);
      if (!/^\s/.test(rest) || fields.length < 1 || fields.length > 2)
        throw new Error(`${where}: expected a value (and a timestamp) after the series`);
      if (fields.length === 2 && !/^-?\d+$/.test(fields[1]!)) throw new Error(`${where}: bad timestamp ${fields[1]}`);
      const owner = familyOf(name, families);
      if (owner !== current && families.get(owner)?.samples.length)
        throw new Error(`${where}: samples of ${owner} are not one group`);
      current = owner;
      const key = seriesKey(name, labels);
      if (series.has(key)) throw new Error(`${where}: duplicate series ${key}`);
      series.add(key);
      family(owner).samples.push({ name, labels, value: parseValue(fields[0]!, where) });
    });
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return families;
}

/** The sum of the samples named `name` whose labels include `labels` (0 when none). */
export function sampleSum(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const f of families.values()) {
    for (const s of f.samples) {
      if (s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) total += s.value;
    }
  }
  return total;
}
