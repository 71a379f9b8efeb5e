// Seeds the agents dataset into a ClickHouse database (chdb in this process), through the
// ClickHouse SpanStore's write (owners, rollups, messages settled as an export settles them),
// in writes of WRITE_SPANS spans. Run as a child by agent-dataset.ts, so that chdb never loads
// into the benchmark's own process:
//   node --import tsx bench/lib/seed-agents-ch.ts <chdb dir> <spans> <seed>
// With 0 spans it only migrates the database (a copy of a twin under an older schema).
// Not `weft copy`: the copy writes pages of 1,000 spans, and each ClickHouse span write
// settles its traces with FINAL reads over the table (storage/clickhouse/spans/span-store.ts),
// so the copy runs at a few hundred spans/s on these machines; larger writes make fewer reads
// and fewer parts.
import { spanRow } from '../../src/ingest/genai/span-row.js';
import type { SpanRow } from '../../src/query/span-columns.js';
import { chdbConnection } from '../../src/storage/clickhouse/engine/chdb.js';
import { createClickHouseStore } from '../../src/storage/clickhouse/store.js';
import { USER_ID } from './dataset.js';
import { AGENTS_PROJECT, generateAgentTurns } from './gen-agents.js';

const WRITE_SPANS = 20_000;
const [dir, spans, seed] = process.argv.slice(2);
if (!dir || !spans || !seed) throw new Error('usage: seed-agents-ch.ts <chdb dir> <spans> <seed>');
const url = `chdb:${dir}`;
const store = await createClickHouseStore({ url, database: 'weft', connection: chdbConnection(url)! });
let rows: SpanRow[] = [];
let written = 0;
for (const t of Number(spans) > 0 ? generateAgentTurns({ seed, spans: Number(spans) }) : []) {
  for (const s of t.spans) rows.push(spanRow(s, {}, { projectId: AGENTS_PROJECT, wbUserId: USER_ID }));
  if (rows.length >= WRITE_SPANS) {
    await store.spans.write(rows);
    written += rows.length;
    rows = [];
    process.stderr.write(`\rbench: seeding ClickHouse agent spans ${written.toLocaleString('en-US')}`);
  }
}
if (rows.length > 0) await store.spans.write(rows);
process.stderr.write('\n');
await store.close();
