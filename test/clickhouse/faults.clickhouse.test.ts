// ClickHouse faults through HTTP: a ClickHouse that cannot be reached (the real client's HTTP
// path against a closed port) is a 503 with Retry-After and a JSON body naming it, never a
// 500; server errors that mean "not now" are 503s, a full disk 507, and a bad statement is
// not a storage fault.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { ClickHouseError } from '@clickhouse/client';
import { startTestApp, PROJECT } from '../helpers/test-app.js';
import { connectClickHouse } from '../../src/storage/clickhouse/engine/client.js';
import { createClickHouseCostStore } from '../../src/storage/clickhouse/costs/cost-store.js';
import { clickHouseFault } from '../../src/storage/clickhouse/engine/faults.js';

const closedPort = await new Promise<number>((resolve) => {
  const srv = net.createServer().listen(0, '127.0.0.1', () => {
    const port = (srv.address() as net.AddressInfo).port;
    srv.close(() => resolve(port));
  });
});
const url = `http://127.0.0.1:${closedPort}`;
const unreachable = connectClickHouse({ url, database: 'weft' });
// The app's prices on a ClickHouse nobody listens for, with the engine's fault mapping.
const t = await startTestApp({
  wrapStore: (store) => ({
    ...store,
    costs: createClickHouseCostStore(unreachable, 'weft'),
    storageFault: (err: unknown) => clickHouseFault(err, url) ?? store.storageFault(err),
  }),
});
after(async () => {
  await unreachable.close();
  await t.close();
});

test('ClickHouse unreachable: writes and reads are 503 with Retry-After, naming it', async () => {
  for (const [path, body] of [
    ['/cost/create', { project_id: PROJECT, costs: { m: { prompt_token_cost: 1, completion_token_cost: 1 } } }],
    ['/cost/query', { project_id: PROJECT }],
  ] as const) {
    const r = await t.post(path, body);
    assert.equal(r.status, 503, `${path}: ${r.text}`);
    assert.equal(r.headers['retry-after'], '5');
    assert.match(r.body.reason, new RegExp(`ClickHouse at ${url} cannot be reached \\(ECONNREFUSED\\)`));
  }
  assert.equal((await t.get('/health')).status, 200, 'the server itself stays up');
});

test('server errors: "not now" is 503, no disk is 507, a bad statement is no storage fault', () => {
  const err = (code: string) => new ClickHouseError({ message: 'x', code, type: 'T' });
  assert.equal(clickHouseFault(err('202'), 'ch')?.constructor.name, 'ServiceUnavailableError');
  assert.equal(clickHouseFault(err('241'), 'ch')?.constructor.name, 'ServiceUnavailableError');
  assert.equal(clickHouseFault(err('243'), 'ch')?.constructor.name, 'StorageFullError');
  assert.equal(clickHouseFault(err('62'), 'ch'), null, 'SYNTAX_ERROR is a bug');
  assert.equal(clickHouseFault(new Error('boom'), 'ch'), null);
});
