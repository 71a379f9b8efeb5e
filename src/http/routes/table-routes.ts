// Binds the tables routes: thin adapters from HTTP bodies to the table service.
import type { FastifyInstance } from 'fastify';
import { tablesRoutes as r } from '../../api/tables.js';
import type { Store } from '../../storage/store.js';
import {
  createTable,
  createTableFromDigests,
  queryTableJson,
  streamTable,
  tableStats,
  tableStatsBatch,
  updateTable,
} from '../../service/tables/table-service.js';
import { bindRoute, RawJson } from '../bind-route.js';

export function registerTableRoutes(app: FastifyInstance, store: Store): void {
  const tables = store.tables;
  bindRoute(app, r.tableCreate, async (body) => createTable(tables, body));
  bindRoute(app, r.tableUpdate, async (body) => updateTable(tables, body));
  bindRoute(app, r.tableQuery, async (body) => new RawJson(await queryTableJson(tables, body)));
  bindRoute(app, r.tableQueryStream, async (body) => streamTable(tables, body));
  bindRoute(app, r.tableQueryStats, async (body) => tableStats(tables, body));
  bindRoute(app, r.tableQueryStatsBatch, async (body) => tableStatsBatch(tables, body));
  bindRoute(app, r.tableCreateFromDigests, async (body) => createTableFromDigests(tables, body));
}
