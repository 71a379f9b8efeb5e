// Rows of a SELECT as arrays, decoded from RowBinary as they arrive (clickhouse/engine/row-binary.ts):
// the format of every statement that reads calls.
import { EXCEPTION_TAG_HEADER_NAME, extractErrorAtTheEndOfChunk, type ClickHouseClient } from '@clickhouse/client';
import { rowBinaryRows, type RowValue } from './row-binary.js';

/** Rows a chunk holds. */
export const ROWS_PER_CHUNK = 1000;

export interface RowReader {
  /** The rows of a statement, in chunks; `expect`: its column names (checked). */
  rowsOf(sql: string, params: Record<string, unknown>, expect?: readonly string[]): AsyncGenerator<RowValue[][]>;
  /** Every row of a statement (small answers: a page, one call). */
  allRows(sql: string, params: Record<string, unknown>, expect?: readonly string[]): Promise<RowValue[][]>;
}

export function rowReader(client: ClickHouseClient): RowReader {
  async function* rowsOf(
    sql: string,
    params: Record<string, unknown>,
    expect?: readonly string[],
  ): AsyncGenerator<RowValue[][]> {
    const { stream, response_headers } = await client.exec({
      query: `${sql} FORMAT RowBinaryWithNamesAndTypes`,
      query_params: params,
    });
    const tag = response_headers[EXCEPTION_TAG_HEADER_NAME];
    try {
      yield* rowBinaryRows(stream, ROWS_PER_CHUNK, {
        expect,
        exceptionTag: typeof tag === 'string' ? tag : undefined,
        errorAtEnd: extractErrorAtTheEndOfChunk,
      });
    } finally {
      stream.destroy();
    }
  }
  return {
    rowsOf,
    async allRows(sql, params, expect) {
      const rows: RowValue[][] = [];
      for await (const chunk of rowsOf(sql, params, expect)) rows.push(...chunk);
      return rows;
    },
  };
}
