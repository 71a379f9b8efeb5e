// Timestamps are kept as integer microseconds since the Unix epoch (UTC): exact for
// the Python SDK's microsecond datetimes, sortable, and within 2^53 until year 2255.
import { InvalidRequestError } from './api/errors.js';

export type Micros = number;

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** True when `s` is an ISO 8601 date-time Weft accepts (zone optional: naive means UTC). */
export function isTimestamp(s: string): boolean {
  return tryParseTimestamp(s) !== null;
}

export function tryParseTimestamp(s: string): Micros | null {
  const m = ISO.exec(s);
  if (!m) return null;
  const [, y, mo, d, h, mi, sec, frac, zone] = m;
  const base = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, sec ? +sec : 0);
  if (Number.isNaN(base)) return null;
  const check = new Date(base);
  if (check.getUTCMonth() !== +mo! - 1 || check.getUTCDate() !== +d! || +h! > 23 || +mi! > 59 || (sec ? +sec : 0) > 59) {
    return null;
  }
  let micros = base * 1000 + (frac ? Number((frac + '000000').slice(0, 6)) : 0);
  if (zone && zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offsetMin = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0');
    micros -= sign * offsetMin * 60_000_000;
  }
  return micros;
}

export function parseTimestamp(s: string, field = 'timestamp'): Micros {
  const v = tryParseTimestamp(s);
  if (v === null) throw new InvalidRequestError(`${field} is not an ISO 8601 date-time: ${JSON.stringify(s)}`);
  return v;
}

/** ISO 8601 in UTC with a `Z`; milliseconds when the value has no finer part, else microseconds. */
export function formatTimestamp(us: Micros): string {
  const ms = Math.floor(us / 1000);
  const rest = us - ms * 1000;
  const iso = new Date(ms).toISOString();
  if (rest === 0) return iso;
  return `${iso.slice(0, -1)}${String(rest).padStart(3, '0')}Z`;
}

export function nowMicros(): Micros {
  return Date.now() * 1000;
}
