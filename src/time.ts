// Timestamps are kept as integer microseconds since the Unix epoch (UTC): exact for
// the Python SDK's microsecond datetimes, sortable, and within 2^53 until year 2255.
import { InvalidRequestError } from './api/errors.js';

export type Micros = number;

/** The digits of s[i, i + n) as a number, or -1 when any is not a digit. */
function digits(s: string, i: number, n: number): number {
  let v = 0;
  for (let k = i; k < i + n; k++) {
    const c = s.charCodeAt(k) - 48;
    if (!(c >= 0 && c <= 9)) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (exact for every year, unlike Date.UTC for years < 100). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

const daysInMonth = (y: number, m: number) =>
  m === 2
    ? y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
      ? 29
      : 28
    : m === 4 || m === 6 || m === 9 || m === 11
      ? 30
      : 31;

/** True when `s` is an ISO 8601 date-time Weft accepts (zone optional: naive means UTC). */
export function isTimestamp(s: string): boolean {
  return tryParseTimestamp(s) !== null;
}

/**
 * `YYYY-MM-DD(T| )HH:MM[:SS[.f{1,9}]][Z|z|±HH[[:]MM]]` as microseconds (digits past the sixth
 * fraction digit are dropped), or null. Scanned by hand: every call start and end has two
 * timestamps, each checked by validation and parsed again by the service.
 */
export function tryParseTimestamp(s: string): Micros | null {
  const len = s.length;
  if (len < 16 || s[4] !== '-' || s[7] !== '-' || (s[10] !== 'T' && s[10] !== ' ') || s[13] !== ':') return null;
  const y = digits(s, 0, 4),
    mo = digits(s, 5, 2),
    d = digits(s, 8, 2),
    h = digits(s, 11, 2),
    mi = digits(s, 14, 2);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h < 0 || h > 23 || mi < 0 || mi > 59)
    return null;
  let i = 16;
  let sec = 0;
  let frac = 0;
  if (s[i] === ':') {
    sec = digits(s, i + 1, 2);
    if (sec < 0 || sec > 59) return null;
    i += 3;
    if (s[i] === '.') {
      let n = 0;
      for (i++; i < len; i++, n++) {
        const c = s.charCodeAt(i) - 48;
        if (!(c >= 0 && c <= 9)) break;
        if (n < 6) frac = frac * 10 + c;
      }
      if (n === 0 || n > 9) return null;
      for (; n < 6; n++) frac *= 10;
    }
  }
  let offsetMin = 0;
  if (i < len) {
    const c = s[i];
    if (c === 'Z' || c === 'z') {
      if (i !== len - 1) return null;
    } else if (c === '+' || c === '-') {
      const oh = digits(s, i + 1, 2);
      if (oh < 0) return null;
      let j = i + 3;
      let om = 0;
      if (j < len) {
        if (s[j] === ':') j++;
        om = digits(s, j, 2);
        if (om < 0) return null;
        j += 2;
      }
      if (j !== len) return null;
      offsetMin = (c === '-' ? -1 : 1) * (oh * 60 + om);
    } else {
      return null;
    }
  }
  const seconds = ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi - offsetMin) * 60 + sec;
  return seconds * 1_000_000 + frac;
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
