// The RowBinary reader against the bytes ClickHouse itself writes (chdb in process): every
// column type Weft's call reads produce, cut into chunks at every size down to one byte, reads
// as the same query read as JSON does; a stream cut inside a row, an unknown type and other
// columns than expected are errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { ClickHouseError, extractErrorAtTheEndOfChunk } from '@clickhouse/client';
import { chdbClient } from '../helpers/clickhouse-engine.js';
import { rowBinaryRows, type RowBinaryOptions, type RowValue } from '../../src/storage/clickhouse/engine/row-binary.js';

const QUERY = `SELECT
    toString(number) AS id,
    if(number % 3 = 0, NULL, concat('é', repeat('🧵', number), '"\\\\')) AS maybe,
    toInt64(number) * -1234567890123 AS i64,
    if(number % 2 = 0, NULL, toInt64(9007199254740991)) AS maybe_i64,
    toUInt64(number * 1000) AS u64,
    toUInt8(number % 2) AS u8,
    number % 2 = 1 AS flag,
    NULL AS nothing,
    if(number = 5, repeat('x', 200000), '') AS big
  FROM numbers(12)`;

async function bytesOf(sql: string): Promise<Buffer> {
  const { stream } = await chdbClient().exec({ query: `${sql} FORMAT RowBinaryWithNamesAndTypes` });
  const parts: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer>) parts.push(c);
  return Buffer.concat(parts);
}

/** The same rows read as JSON (64-bit integers as numbers, as the reader gives them). */
async function jsonRows(sql: string): Promise<RowValue[][]> {
  const r = await chdbClient().query({
    query: sql,
    format: 'JSONCompactEachRow',
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
  });
  return r.json<RowValue[]>();
}

function chunks(buf: Buffer, size: number): Readable {
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
  return Readable.from(out);
}

async function all(stream: Readable, opts: RowBinaryOptions = {}): Promise<RowValue[][]> {
  const out: RowValue[][] = [];
  for await (const rows of rowBinaryRows(stream, 5, opts)) out.push(...rows);
  return out;
}

test('rows read from RowBinary in chunks of any size are the rows JSON gives', async () => {
  const bytes = await bytesOf(QUERY);
  const want = await jsonRows(QUERY);
  assert.equal(want.length, 12);
  assert.equal(want[5]![8], 'x'.repeat(200000));
  for (const size of [1, 2, 3, 7, 64, 1000, 65536, bytes.length]) {
    assert.deepEqual(await all(chunks(bytes, size)), want, `chunks of ${size} bytes`);
  }
});

test('an empty result has no rows, with or without its header', async () => {
  assert.deepEqual(await all(chunks(await bytesOf('SELECT toString(number) AS id FROM numbers(0)'), 3)), []);
  assert.deepEqual(await all(Readable.from([])), []);
});

test('a stream cut inside a row or its header, an unknown type and other columns than expected are errors', async () => {
  const bytes = await bytesOf(QUERY);
  await assert.rejects(all(chunks(bytes.subarray(0, bytes.length - 3), 100)), /ended inside a row/);
  await assert.rejects(all(chunks(bytes.subarray(0, 5), 100)), /ended inside a row/);
  await assert.rejects(all(chunks(await bytesOf('SELECT 1.5 AS x'), 100)), /column type Float64 is not decoded/);
  await assert.rejects(
    all(chunks(await bytesOf("SELECT toLowCardinality('a') AS x"), 100)),
    /column type LowCardinality\(String\) is not decoded/,
  );
  await assert.rejects(
    all(chunks(bytes, 100), { expect: ['id', 'other'] }),
    /columns id, maybe, .* expected id, other/,
  );
});

test("a server's error after some rows (its exception marker and tag) is thrown, not read as rows", async () => {
  const bytes = await bytesOf(QUERY);
  const tag = 'k3j2h4g5f6d7s8a9';
  const message = 'Code: 241. DB::Exception: Memory limit (total) exceeded. (MEMORY_LIMIT_EXCEEDED) (version 26.7.1.1)';
  const failedAfterRows = Buffer.concat([
    bytes,
    Buffer.from(`\r\n__exception__\r\n${tag}\n${message}\n${message.length + 1} ${tag}\r\n__exception__\r\n`),
  ]);
  const opts = { exceptionTag: tag, errorAtEnd: extractErrorAtTheEndOfChunk };
  for (const size of [1, 13, 100, failedAfterRows.length]) {
    await assert.rejects(
      all(chunks(failedAfterRows, size), opts),
      (err: unknown) => err instanceof ClickHouseError && /Memory limit \(total\) exceeded/.test(err.message),
      `chunks of ${size}`,
    );
  }
  // Without the tag (a server before 25.11, or chdb) the same bytes are a broken stream, never rows.
  await assert.rejects(all(chunks(failedAfterRows, 100)), /ended inside a row/);
  // The marker with another tag is data: the rows read as without it, then the stream is broken.
  await assert.rejects(
    all(chunks(failedAfterRows, 100), { ...opts, exceptionTag: 'another-tag-0000' }),
    /ended inside a row/,
  );
  // A stream without an error reads whole with the tag given.
  assert.equal((await all(chunks(bytes, 7), opts)).length, 12);
});
