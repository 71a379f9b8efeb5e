// WEFT_LOG_FORMAT=pretty: pino's JSON lines rewritten for a terminal, one line each. A request:
//   2025-05-01T10:00:00.123Z INFO  POST /call/upsert_batch 200 3.1 ms in 1.2 KiB out 45 B project=acme/chat key=k1 [req-1]
// Any other line: time, level, message, its other fields as key=value, the request id; an
// error's stack follows on its own indented lines, as a stack is read.

/** Where log lines are written: stdout, or a test's capture. */
export interface LogDestination {
  write(line: string): unknown;
}

/** Fields every line has, shown in the head of the line (or not at all). */
const HEAD_FIELDS = new Set(['time', 'level', 'msg', 'reqId', 'pid', 'hostname', 'err']);
const REQUEST_FIELDS = new Set([
  'method',
  'route',
  'url',
  'status',
  'ms',
  'bytes_in',
  'bytes_out',
  'project',
  'key_id',
]);

function size(bytes: unknown): string {
  const n = Number(bytes);
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** `key=value`, the value bare when it is a word, else as JSON; null values are left out. */
function pairs(rec: Record<string, unknown>, skip: ReadonlySet<string>): string[] {
  return Object.entries(rec)
    .filter(([k, v]) => !skip.has(k) && v !== null && v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' && /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v)}`);
}

function requestText(r: Record<string, unknown>): string {
  const words = [
    String(r.method),
    String(r.route ?? r.url),
    String(r.status),
    `${r.ms} ms`,
    `in ${size(r.bytes_in)}`,
    `out ${size(r.bytes_out)}`,
  ];
  if (r.project !== null && r.project !== undefined) words.push(`project=${r.project}`);
  if (r.key_id !== null && r.key_id !== undefined) words.push(`key=${r.key_id}`);
  return [...words, ...pairs(r, new Set([...HEAD_FIELDS, ...REQUEST_FIELDS]))].join(' ');
}

/** One pino JSON line as its pretty text (ending in a newline); a line that is not JSON, as it came. */
export function prettyLine(json: string): string {
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const isRequest = typeof rec.method === 'string' && typeof rec.status === 'number' && 'ms' in rec;
  const text = isRequest ? requestText(rec) : [String(rec.msg ?? ''), ...pairs(rec, HEAD_FIELDS)].join(' ');
  const id = rec.reqId === undefined ? '' : ` [${String(rec.reqId)}]`;
  const err = rec.err as { stack?: unknown } | undefined;
  const stack = typeof err?.stack === 'string' ? `\n${err.stack.replace(/^/gm, '    ')}` : '';
  return `${String(rec.time ?? '')} ${String(rec.level ?? '')
    .toUpperCase()
    .padEnd(5)} ${text}${id}${stack}\n`;
}

export function prettyLog(out: LogDestination): LogDestination {
  return { write: (line: string) => out.write(prettyLine(line)) };
}
