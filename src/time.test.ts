// Timestamps: the accepted ISO 8601 forms, their microseconds, and what is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTimestamp, tryParseTimestamp } from './time.js';

test('the forms the SDKs send parse to the instant they name', () => {
  const cases: [string, number][] = [
    ['2026-11-21T05:03:29.057Z', Date.parse('2026-11-21T05:03:29.057Z') * 1000],
    ['2026-11-21T05:03:29.057123Z', Date.parse('2026-11-21T05:03:29.057Z') * 1000 + 123],
    ['2026-11-21T05:03:29.057123+00:00', Date.parse('2026-11-21T05:03:29.057Z') * 1000 + 123],
    ['2026-11-21 05:03:29', Date.parse('2026-11-21T05:03:29Z') * 1000],
    ['2026-11-21T05:03', Date.parse('2026-11-21T05:03:00Z') * 1000],
    ['2026-11-21T05:03:29.1z', Date.parse('2026-11-21T05:03:29.100Z') * 1000],
    ['2026-11-21T05:03:29.123456789Z', Date.parse('2026-11-21T05:03:29.123Z') * 1000 + 456],
    ['2026-11-21T07:33:29+02:30', Date.parse('2026-11-21T05:03:29Z') * 1000],
    ['2026-11-21T03:03:29-0200', Date.parse('2026-11-21T05:03:29Z') * 1000],
    ['2026-11-21T07:03:29+02', Date.parse('2026-11-21T05:03:29Z') * 1000],
    ['2024-02-29T00:00:00Z', Date.parse('2024-02-29T00:00:00Z') * 1000],
    ['1969-12-31T23:59:59.999999Z', -1],
  ];
  for (const [s, us] of cases) assert.equal(tryParseTimestamp(s), us, s);
  // Year 99 is year 99, not 1999 (Date.UTC's two-digit rule does not apply).
  assert.equal(formatTimestamp(tryParseTimestamp('0099-01-01T00:00:00Z')!), '0099-01-01T00:00:00.000Z');
});

test('agrees with Date.parse on a sweep of random instants', () => {
  for (let i = 0; i < 2000; i++) {
    const ms = Math.floor(Math.random() * 4e12) - 1e12;
    const iso = new Date(ms).toISOString();
    assert.equal(tryParseTimestamp(iso), ms * 1000, iso);
  }
});

test('refuses what is not a date-time', () => {
  for (const s of [
    '',
    '2026-11-21',
    '2026-11-21T05',
    '2026-13-01T00:00Z',
    '2026-02-29T00:00Z',
    '2026-04-31T00:00Z',
    '2026-11-21T24:00Z',
    '2026-11-21T05:60Z',
    '2026-11-21T05:03:60Z',
    '2026-11-21T05:03:29.Z',
    '2026-11-21T05:03:29.1234567890Z',
    '2026-11-21T05:03:29ZZ',
    '2026-11-21T05:03:29+2',
    '2026-11-21T05:03:29+02:3',
    '2026-11-21T05:03:29 ',
    '2026/11/21T05:03:29Z',
    '２026-11-21T05:03:29Z',
    '2026-11-21T05:03:29.057Zjunk',
    'x026-11-21T05:03:29Z',
  ]) {
    assert.equal(tryParseTimestamp(s), null, JSON.stringify(s));
  }
});
