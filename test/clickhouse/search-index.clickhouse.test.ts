// /agents/search on ClickHouse through each word index migration 9 may leave
// (engine/migrations/009-search-indexes.ts): the inverted text index (ClickHouse 26.2+), the
// tokenbf_v1 fallback an older server gets, and none (LIKE); the same queries find the same
// messages through each, words split as search-terms.ts splits them (Unicode punctuation, case).
// The migration's fallback runs when the server refuses the text index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../helpers/test-app.js';
import { chdbClient, clickhouseDatabase } from '../helpers/clickhouse-engine.js';
import { hexId, type TestSpan } from '../helpers/agent-spans.js';
import { searchProject } from '../helpers/search-project.js';
import { CLICKHOUSE_MIGRATIONS, migrateClickHouse } from '../../src/storage/clickhouse/engine/migrations/index.js';
import { BODY_WORDS } from '../../src/storage/clickhouse/engine/migrations/009-search-indexes.js';
import { selectRows } from '../../src/storage/clickhouse/engine/client.js';

process.env.WEFT_TEST_ENGINE = 'clickhouse';

const T0 = Date.UTC(2026, 10, 22, 8);
const MESSAGES = [
  'Book me a flight to Lisbon, please!',
  'Café—Bar «Zanzibar» opens at 9:00',
  'ÉCOLE d’été in Zürich; naïve résumé',
  'order #123-b, then a flight back to Lisbon',
  'the Lisbon flight was late',
];
const QUERIES = [
  'lisbon',
  'LISBON flight',
  '"flight to lisbon"',
  '"lisbon flight"',
  'café bar',
  '"café bar"',
  'zanzibar',
  'zürich École',
  'été',
  'order 123 b',
  '"123 b"',
  'lisb',
  'nothing',
];

function spans(): TestSpan[] {
  return MESSAGES.map((text, i) => ({
    traceId: hexId(16),
    spanId: hexId(8),
    name: 'chat gpt-4o',
    startMs: T0 + i * 1000,
    endMs: T0 + i * 1000 + 500,
    attributes: {
      'gen_ai.conversation.id': `c-${i}`,
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', content: text }]),
    },
  }));
}

/** Each query's hits (previews) through an app whose bodies' word index `setup` leaves. */
async function answers(setup: (db: string) => Promise<void>) {
  const t = await startTestApp();
  try {
    await setup(clickhouseDatabase(t.store)!);
    const p = searchProject(t, 'index');
    await p.send(spans());
    const out: Record<string, string[]> = {};
    for (const query of QUERIES) {
      const r = (await p.search({ query })) as {
        results: { matched_messages: { content_preview: string }[] }[];
        total_conversations: number;
      };
      out[query] = r.results.flatMap((c) => c.matched_messages.map((m) => m.content_preview)).sort();
      assert.equal(r.total_conversations, r.results.length);
    }
    return out;
  } finally {
    await t.close();
  }
}

const indexType = async (db: string) =>
  (
    await selectRows<{ type: string }>(
      chdbClient(),
      "SELECT type FROM system.data_skipping_indices WHERE database = {d:String} AND table = 'span_message_bodies' AND name = 'by_words'",
      { d: db },
    )
  ).map((r) => r.type);

const replaceIndex = (clause: string | null) => async (db: string) => {
  const c = chdbClient();
  await c.command({ query: `ALTER TABLE ${db}.span_message_bodies DROP INDEX by_words` });
  if (clause !== null) await c.command({ query: `ALTER TABLE ${db}.span_message_bodies ADD INDEX by_words ${clause}` });
};

const text = await answers(async (db) => assert.deepEqual(await indexType(db), ['text']));

test('the text index finds whole words as search-terms.ts splits them, in any case', () => {
  assert.deepEqual(text.lisbon, [MESSAGES[0], MESSAGES[3], MESSAGES[4]].sort());
  assert.deepEqual(text['"flight to lisbon"'], [MESSAGES[0]]);
  assert.deepEqual(text['"lisbon flight"'], [MESSAGES[4]]);
  assert.deepEqual(text['café bar'], [MESSAGES[1]], 'an em dash separates words');
  assert.deepEqual(text['"café bar"'], [MESSAGES[1]]);
  assert.deepEqual(text.zanzibar, [MESSAGES[1]], 'so do guillemets');
  assert.deepEqual(text['zürich École'], [MESSAGES[2]]);
  assert.deepEqual(text.été, [MESSAGES[2]], 'a typographic apostrophe too');
  assert.deepEqual(text['order 123 b'], [MESSAGES[3]]);
  assert.deepEqual(text.lisb, []);
  assert.deepEqual(text.nothing, []);
});

test('the tokenbf_v1 fallback and no index at all find the same messages', async () => {
  const bloom = await answers(replaceIndex(`${BODY_WORDS} TYPE tokenbf_v1(65536, 3, 0) GRANULARITY 1`));
  assert.deepEqual(bloom, text);
  const none = await answers(replaceIndex(null));
  assert.deepEqual(none, text);
});

test('migration 9 falls back to tokenbf_v1 when the server refuses the text index', async () => {
  const c = chdbClient();
  const db = `weft_test_${process.pid}_mig9`;
  const refused = CLICKHOUSE_MIGRATIONS.map((m) =>
    m.version !== 9
      ? m
      : {
          ...m,
          alters: m.alters!.map((a, i) =>
            i === 0 ? { ...a, clause: `${a.clause.replace('TYPE text', 'TYPE no_such_index')}` } : a,
          ),
        },
  );
  try {
    await migrateClickHouse(c, db, undefined, refused);
    assert.deepEqual(await indexType(db), ['tokenbf_v1']);
    const projections = await selectRows<{ name: string }>(
      c,
      "SELECT DISTINCT name FROM system.projection_parts WHERE database = {d:String} AND table = 'span_first_messages'",
      { d: db },
    );
    assert.ok(projections.every((p) => p.name === 'by_digest'));
  } finally {
    await c.command({ query: `DROP DATABASE IF EXISTS ${db}` });
  }
});
