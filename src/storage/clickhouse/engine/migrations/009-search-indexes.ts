// Migration 9: /agents/search served by indexes (clickhouse/spans/span-search.ts), not by scans
// of every body and every first occurrence (chdb, 1M spans: ~1 s a query).
// - The words of a body: an inverted `text` index (ClickHouse 26.2+; answered from the index
//   alone) over the body with anything but letters and digits turned into spaces, lower-cased:
//   the words of query/search-terms.ts exactly, so a hit is never missed. A server without text
//   indexes takes a `tokenbf_v1` bloom index over the same expression instead (the fallback,
//   prunes granules only); the search finds which one the table has at startup.
// - The first occurrences of a digest: a projection ordered by (project, digest), which the
//   search reads without FINAL (keeping each key's highest seq itself); merges and deletes rebuild it.
// MATERIALIZE builds both for the parts written before (synchronously: a search must not read
// a part without its index through a function that needs it).
import type { ChMigration } from './index.js';

/** The words of a body as search-terms.ts splits them, lower-cased, separated by spaces. */
export const BODY_WORDS = `lowerUTF8(replaceRegexpAll(content, '[^\\\\p{L}\\\\p{N}]+', ' '))`;

export const MIGRATION_9: ChMigration = {
  version: 9,
  tables: [],
  alters: [
    {
      table: 'span_message_bodies',
      clause: `ADD INDEX IF NOT EXISTS by_words content TYPE text(tokenizer = splitByNonAlpha, preprocessor = ${BODY_WORDS})`,
      fallback: `ADD INDEX IF NOT EXISTS by_words ${BODY_WORDS} TYPE tokenbf_v1(65536, 3, 0) GRANULARITY 1`,
      distributed: false,
    },
    {
      table: 'span_message_bodies',
      clause: 'MATERIALIZE INDEX by_words SETTINGS mutations_sync = 2',
      distributed: false,
    },
    {
      table: 'span_first_messages',
      clause:
        "MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild', lightweight_mutation_projection_mode = 'rebuild'",
      distributed: false,
    },
    {
      table: 'span_first_messages',
      // Small granules: a digest's rows are a few, anywhere in the table (26.x; else the table's).
      clause:
        'ADD PROJECTION IF NOT EXISTS by_digest (SELECT * ORDER BY project_id, digest) WITH SETTINGS (index_granularity = 256)',
      fallback: 'ADD PROJECTION IF NOT EXISTS by_digest (SELECT * ORDER BY project_id, digest)',
      distributed: false,
    },
    {
      table: 'span_first_messages',
      clause: 'MATERIALIZE PROJECTION by_digest SETTINGS mutations_sync = 2',
      distributed: false,
    },
  ],
};
