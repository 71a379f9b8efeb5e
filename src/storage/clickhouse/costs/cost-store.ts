// The ClickHouse CostStore: one llm_token_prices table (clickhouse/engine/migrations.ts). Values
// reach SQL only as typed parameters; identifiers only from the cost column allow-list.
import type { ClickHouseClient } from '@clickhouse/client';
import { COST_COLUMN_TYPES, COST_COLUMNS, isCostColumn } from '../../../query/cost-fields.js';
import type { FieldRef } from '../../../query/plan.js';
import type { CostStore, PriceRow } from '../../costs/cost-store.js';
import { SINGLE_SERVER, deleteStatement, type ChDdlMode } from '../engine/ddl.js';
import { selectRows } from '../engine/client.js';
import { ChParams, chIdentifier, printChExpr, printChOrderBy, type ChField, type ChType } from '../engine/dialect.js';
import { seqClock } from '../engine/seq-clock.js';

const TYPES: Readonly<Record<(typeof COST_COLUMN_TYPES)[keyof typeof COST_COLUMN_TYPES], ChType>> = {
  string: 'String',
  datetime: 'Int64',
  int: 'Float64',
};

function printField(field: FieldRef): ChField {
  if (field.kind === 'column' && isCostColumn(field.name))
    return { sql: chIdentifier(field.name), type: TYPES[COST_COLUMN_TYPES[field.name]], notNull: true };
  throw new Error(`costs cannot print field ${JSON.stringify(field)}`);
}

type Stored = Omit<PriceRow, 'effective_date' | 'created_at'> & { effective_date: string; created_at: string };
const toRow = (r: Stored): PriceRow => ({
  ...r,
  effective_date: Number(r.effective_date),
  created_at: Number(r.created_at),
});

export function createClickHouseCostStore(
  client: ClickHouseClient,
  database: string,
  mode: ChDdlMode = SINGLE_SERVER,
): CostStore {
  const table = `${chIdentifier(database)}.llm_token_prices`;
  const columns = COST_COLUMNS.join(', ');
  // Insertion order for /cost/query without sort_by: microseconds plus a counter.
  const nextSeq = seqClock().next;

  return {
    async insert(rows) {
      if (rows.length === 0) return;
      await client.insert({ table, values: rows.map((r) => ({ ...r, seq: nextSeq() })), format: 'JSONEachRow' });
    },

    async query(q) {
      const params = new ChParams();
      let sql = `SELECT ${columns} FROM ${table}`;
      if (q.where) sql += ` WHERE ${printChExpr(q.where, printField, params)}`;
      const order = printChOrderBy(q.sort, printField, params);
      sql += order ? ` ${order}, seq` : ' ORDER BY seq';
      if (q.limit !== null) sql += ` LIMIT ${params.add(q.limit, 'Int64')}`;
      if (q.offset !== null && q.offset > 0) sql += ` OFFSET ${params.add(q.offset, 'Int64')}`;
      return (await selectRows<Stored>(client, sql, params.values)).map(toRow);
    },

    async purgeProjectPrices(projectId, ids) {
      if (ids.length === 0) return 0;
      const where = `pricing_level = 'project' AND pricing_level_id = {project:String} AND id IN (SELECT arrayJoin({ids:Array(String)}))`;
      const params = { project: projectId, ids };
      const [{ n }] = (await selectRows<{ n: string }>(
        client,
        `SELECT count() AS n FROM ${table} WHERE ${where}`,
        params,
      )) as [{ n: string }];
      if (Number(n) > 0)
        await client.command({
          query: deleteStatement(database, 'llm_token_prices', mode, where),
          query_params: params,
        });
      return Number(n);
    },

    async findProjectPrices(projectId, llmIds) {
      if (llmIds.length === 0) return [];
      const sql = `SELECT ${columns} FROM ${table} WHERE pricing_level = 'project' AND pricing_level_id = {project:String} AND llm_id IN (SELECT arrayJoin({llms:Array(String)}))`;
      return (await selectRows<Stored>(client, sql, { project: projectId, llms: llmIds })).map(toRow);
    },
  };
}
