// /agents/search on ClickHouse (storage/spans/span-store.ts SpanSearchQuery) over the first
// occurrences of messages (engine/migrations/008-conversation-messages.ts, kept by
// span-message-writes.ts) and their bodies (005).
// A phrase's words are found through the bodies' word index (migration 9: an inverted text
// index, else a tokenbf_v1 one on older servers, else a LIKE the n-gram index prunes), then an
// RE2 pattern holds the phrase as whole words (query/search-terms.ts); the first occurrences of
// the matching digests come from the projection by digest. GLOBAL IN keeps the subqueries right
// on a sharded cluster. Values reach SQL only as bound parameters.
import type { ClickHouseClient } from '@clickhouse/client';
import { phrasePattern, type SearchTerms } from '../../../query/search-terms.js';
import type { SpanSearchHit, SpanSearchQuery } from '../../spans/span-store.js';
import { selectRows } from '../engine/client.js';
import { ChParams, chIdentifier } from '../engine/dialect.js';
import { BODY_WORDS } from '../engine/migrations/009-search-indexes.js';

type Hit = Omit<SpanSearchHit, 'content' | 'started_at'> & { started_at: string | number };
type WordIndex = 'text' | 'tokenbf_v1' | 'none';

/**
 * The bodies holding every phrase: the index's condition on each word, first (PREWHERE: the
 * text index answers it alone, and only the rows it keeps are read), then each phrase of
 * several words as whole words in order. The text index's words are those of search-terms.ts,
 * lower-cased, so a one-word phrase needs nothing more and no match is ever dropped.
 */
function matching(bodies: string, p: string, terms: SearchTerms, index: WordIndex, params: ChParams): string {
  const words = [...new Set(terms.flat())];
  const found =
    index === 'text'
      ? [`hasAllTokens(content, ${params.add(words, 'Array(String)')})`]
      : index === 'tokenbf_v1'
        ? words.map((w) => `hasToken(${BODY_WORDS}, ${params.add(w, 'String')})`)
        : words.map((w) => `lowerUTF8(content) LIKE ${params.add(`%${w}%`, 'String')}`);
  const phrases = terms
    .filter((phrase) => index !== 'text' || phrase.length > 1)
    .map((phrase) => `match(content, ${params.add(phrasePattern(phrase), 'String')})`);
  return `SELECT digest FROM ${bodies} PREWHERE project_id = ${p} AND ${found.join(' AND ')}${
    phrases.length > 0 ? ` WHERE ${phrases.join(' AND ')}` : ''
  }`;
}

export function createClickHouseSpanSearch(client: ClickHouseClient, database: string) {
  const db = chIdentifier(database);
  const bodies = `${db}.span_message_bodies`;
  const firsts = `${db}.span_first_messages`;

  /** The index on the bodies' words (migration 9), found once: text, tokenbf_v1, or none. */
  let index: Promise<WordIndex> | null = null;
  const wordIndex = () => {
    index ??= selectRows<{ type: string }>(
      client,
      `SELECT type FROM system.data_skipping_indices WHERE database = {d:String}
         AND table IN ('span_message_bodies', 'span_message_bodies_local') AND name = 'by_words'`,
      { d: database },
    ).then(([r]) => (r?.type === 'text' || r?.type === 'tokenbf_v1' ? r.type : 'none'));
    return index;
  };

  /** The first occurrences matching the query, one row per message. */
  async function occurrences(q: SpanSearchQuery, params: ChParams): Promise<string> {
    const p = params.add(q.projectId, 'String');
    const own = [`project_id = ${p}`];
    if (q.roles !== null) own.push(`has(${params.add(q.roles, 'Array(String)')}, role)`);
    const where: string[] = [];
    if (q.traceId !== null) where.push(`trace_id = ${params.add(q.traceId, 'String')}`);
    if (q.conversationId !== null) where.push(`conversation_id = ${params.add(q.conversationId, 'String')}`);
    if (q.startedAfter !== null) where.push(`started_at >= ${params.add(q.startedAfter, 'Int64')}`);
    if (q.startedBefore !== null) where.push(`started_at < ${params.add(q.startedBefore, 'Int64')}`);
    const span: string[] = [];
    if (q.agentName !== null) {
      const a = params.add(q.agentName, 'String');
      span.push(`(owner_agent_name = ${a} OR agent_name = ${a})`);
    }
    if (q.providerName !== null) span.push(`provider_name = ${params.add(q.providerName, 'String')}`);
    if (q.requestModel !== null) span.push(`request_model = ${params.add(q.requestModel, 'String')}`);
    if (span.length > 0)
      where.push(
        `(trace_id, span_id) GLOBAL IN (SELECT trace_id, span_id FROM ${db}.spans FINAL WHERE project_id = ${p} AND ${span.join(' AND ')})`,
      );
    const columns = 'conversation_id, trace_id, span_id, started_at, role, digest, ord';
    if (q.terms === null) return `SELECT ${columns} FROM ${firsts} FINAL WHERE ${[...own, ...where].join(' AND ')}`;
    own.push(`digest GLOBAL IN (${matching(bodies, p, q.terms, await wordIndex(), params)})`);
    // The few keys of the matching digests, read through the projection by digest (no FINAL:
    // each key's highest seq is kept here, and only then are the other filters applied).
    return `SELECT ${columns} FROM (
        SELECT f.1 AS conversation_id, f.2 AS trace_id, f.3 AS span_id, f.4 AS started_at, role, digest, f.5 AS ord
        FROM (SELECT role, digest, argMax((conversation_id, trace_id, span_id, started_at, ord), seq) AS f
          FROM ${firsts} WHERE ${own.join(' AND ')} GROUP BY scope, role, digest))
      ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}`;
  }

  async function search(q: SpanSearchQuery): Promise<{ hits: SpanSearchHit[]; conversations: number }> {
    const params = new ChParams();
    const inner = await occurrences(q, params);
    const order = 'ORDER BY started_at DESC, span_id DESC, ord';
    const limit = params.add(q.limit, 'Int64');
    const offset = params.add(q.offset, 'Int64');
    // The page carries the count of conversations with a hit (a window over every occurrence), so
    // the occurrences are found once, not once more for the count (chdb, 1M spans: 1.4 -> 0.7 s).
    const page = await selectRows<Hit & { n: string | number }>(
      client,
      `SELECT conversation_id, trace_id, span_id, role, digest, started_at, n FROM (
         SELECT *, uniqExact(ifNull(conversation_id, '')) OVER () AS n FROM (${inner})
       ) ${order} LIMIT ${limit} OFFSET ${offset}`,
      params.values,
    );
    // An empty page past the first has no row to carry the count: then it is read alone.
    const [count] =
      page.length > 0 || q.offset === 0
        ? [{ n: page[0]?.n ?? 0 }]
        : await selectRows<{ n: string | number }>(
            client,
            `SELECT uniqExact(ifNull(conversation_id, '')) AS n FROM (${inner})`,
            params.values,
          );
    const contents = new Map<string, string>();
    if (page.length > 0) {
      const rows = await selectRows<{ digest: string; content: string }>(
        client,
        `SELECT digest, any(content) AS content FROM ${bodies} WHERE project_id = {p:String} AND digest IN (SELECT arrayJoin({d:Array(String)})) GROUP BY digest`,
        { p: q.projectId, d: [...new Set(page.map((h) => h.digest))] },
      );
      for (const r of rows) contents.set(r.digest, r.content);
    }
    return {
      hits: page.map(({ n: _n, ...h }) => ({
        ...h,
        started_at: Number(h.started_at),
        content: contents.get(h.digest) ?? '',
      })),
      conversations: Number(count?.n ?? 0),
    };
  }

  return search;
}
