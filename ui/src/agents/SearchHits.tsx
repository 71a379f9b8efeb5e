// /agents/search results: each conversation with its matching messages, the query's words
// marked where they stand as whole words (case folded, as the server matches them).
import { Link } from '@tanstack/react-router';
import type { AgentSearchRes } from '../api/types';
import { timeAgo } from '../format';
import styles from './Agents.module.css';

/** The query's words (letters and digits), lower-cased, as the server reads them. */
export function queryWords(q: string): string[] {
  return [...new Set((q.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.toLowerCase()))];
}

/** The text with each whole-word occurrence of the words wrapped in <mark>. */
export function Highlighted({ text, words }: { text: string; words: readonly string[] }) {
  if (words.length === 0) return <>{text}</>;
  const parts = text.split(/([\p{L}\p{N}]+)/u);
  return <>{parts.map((p, i) => (i % 2 === 1 && words.includes(p.toLowerCase()) ? <mark key={i}>{p}</mark> : p))}</>;
}

export function SearchHits({
  entity,
  project,
  query,
  res,
}: {
  entity: string;
  project: string;
  query: string;
  res: AgentSearchRes;
}) {
  const words = queryWords(query);
  return (
    <ul className={styles.hits} data-testid="search-hits">
      {res.results.map((r) => (
        <li key={r.conversation_id} data-id={r.conversation_id}>
          <div>
            <Link
              to="/$entity/$project/agents/conversations/$conversationId"
              params={{ entity, project, conversationId: r.conversation_id }}
            >
              {r.conversation_name || r.conversation_id}
            </Link>{' '}
            <span className={styles.muted}>
              {r.agent_name} · {timeAgo(r.last_activity)}
            </span>
          </div>
          <ul>
            {r.matched_messages.map((m) => (
              <li key={`${m.span_id}/${m.role}/${m.content_digest}`} data-testid="hit">
                <span className={styles.role}>{m.role}</span>{' '}
                <Link
                  to="/$entity/$project/agents/conversations/$conversationId"
                  params={{ entity, project, conversationId: r.conversation_id }}
                  search={{ turn: m.trace_id }}
                >
                  <Highlighted text={m.content_preview} words={words} />
                </Link>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
