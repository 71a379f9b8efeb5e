// How numbers, times and op references read in the UI.

/** `weave:///entity/project/op/name:digest` -> `name`; anything else as it is. */
export function opShortName(opName: string): string {
  const m = /^weave:\/\/\/[^/]+\/[^/]+\/op\/([^:]+)(?::.*)?$/.exec(opName);
  return m ? decodeURIComponent(m[1]!) : opName;
}

export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '';
  if (ms < 1) return '<1 ms';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m ${Math.round((ms % 60_000) / 1000)}s`;
}

/**
 * A count with thousands separators (1,234,567). Integers are grouped here: the first
 * toLocaleString of a page loads the locale data, measured at 65 ms of the 1,000-turn
 * conversation's first render.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/**
 * A number at a readable precision: floats to 6 significant digits (2 decimals from 100,000
 * up), so that `0.43554000000000004` reads `0.43554`; integers and non-finite values as they
 * are. Where it differs, the exact value goes in a title (and the raw view shows it).
 */
export function readableNumber(v: number): string {
  if (Number.isInteger(v) || !Number.isFinite(v)) return String(v);
  return String(Number(Math.abs(v) >= 1e5 ? v.toFixed(2) : v.toPrecision(6)));
}

export function formatTokens(n: number | null): string {
  if (n === null || n === 0) return '';
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

export function formatCost(usd: number | null): string {
  if (usd === null || usd === 0) return '';
  if (usd < 0.01) return `$${usd.toPrecision(2)}`;
  return `$${usd.toFixed(usd < 10 ? 3 : 2)}`;
}

/** A timestamp as local date and time to the second. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function timeAgo(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const s = Math.round((now - new Date(iso).getTime()) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}
