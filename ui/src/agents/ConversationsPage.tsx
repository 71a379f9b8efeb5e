// /ui/{entity}/{project}/agents/conversations: the project's conversations, most recent first,
// filtered by agent, version, model, status and time (all in the URL), or searched: the
// messages matching `q`, marked. A filter on the spans (agent, model, errors) picks the
// conversations; their figures are then those of all their spans.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { ErrorBanner } from '../shell/ErrorBanner';
import { usePageTitle } from '../shell/usePageTitle';
import { and, eq, inList, searchMessages, spanGroups } from './agentsApi';
import { RANGES, type ConversationsSearch, type RangeName } from './agentsSearch';
import { ConversationTable } from './ConversationTable';
import { SearchHits } from './SearchHits';
import styles from './Agents.module.css';

const route = getRouteApi('/$entity/$project/agents/conversations');
/** Conversations and message hits shown at first, and added by each "Load more". */
const PAGE = 50;
const HITS = 50;
/** How long typing must pause before the search runs (a request per keystroke otherwise). */
const SEARCH_PAUSE_MS = 150;

function after(range: RangeName | undefined): string | null {
  return range === undefined ? null : new Date(Date.now() - RANGES[range]).toISOString();
}

async function conversations(projectId: string, s: ConversationsSearch, limit: number, signal: AbortSignal) {
  const picks = [
    ...(s.agent ? [eq('owner_agent_name', s.agent)] : []),
    ...(s.version ? [eq('owner_agent_version', s.version)] : []),
    ...(s.model ? [eq('request_model', s.model)] : []),
    ...(s.status === 'error' ? [eq('status_code', 'ERROR')] : []),
  ];
  const notNull = { $not: [{ $eq: [{ $getField: 'conversation_id' }, { $literal: null }] }] };
  const started_after = after(s.range);
  let ids: string[] | null = null;
  if (picks.length > 0) {
    const picked = await spanGroups(
      {
        project_id: projectId,
        query: and(...picks, notNull),
        group_by: [{ key: 'conversation_id' }],
        started_after,
        limit,
      },
      signal,
    );
    ids = picked.map((g) => String(g.group_keys.conversation_id));
    if (ids.length === 0) return [];
  }
  const rows = await spanGroups(
    {
      project_id: projectId,
      query: and(notNull, ...(ids === null ? [] : [inList('conversation_id', ids)])),
      group_by: [{ key: 'conversation_id' }],
      include_costs: true,
      started_after: ids === null ? started_after : null,
      limit,
    },
    signal,
  );
  return s.status === 'ok' ? rows.filter((g) => g.error_count === 0) : rows;
}

export function ConversationsPage() {
  const { entity, project } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const projectId = `${entity}/${project}`;
  usePageTitle(`Conversations · Agents · ${projectId}`);
  const [typed, setTyped] = useState(search.q ?? '');
  const runSearch = useCallback(
    (text: string) => {
      if ((search.q ?? '') !== text.trim())
        void navigate({ search: (s: ConversationsSearch) => ({ ...s, q: text.trim() || undefined }), replace: true });
    },
    [search.q, navigate],
  );
  // The search runs once typing stops for a moment (SEARCH_PAUSE_MS), or at once on Enter.
  useEffect(() => {
    const t = setTimeout(() => runSearch(typed), SEARCH_PAUSE_MS);
    return () => clearTimeout(t);
  }, [typed, runSearch]);
  const set = (patch: Partial<ConversationsSearch>) =>
    void navigate({ search: (s: ConversationsSearch) => ({ ...s, ...patch }), replace: true });
  // How many conversations and hits to show; back to one page whenever the URL changes.
  const [shown, setShown] = useState({ key: '', conversations: PAGE, hits: HITS });
  const key = JSON.stringify([projectId, search]);
  const limits = shown.key === key ? shown : { key, conversations: PAGE, hits: HITS };
  const more = (what: 'conversations' | 'hits', by: number) => setShown({ ...limits, [what]: limits[what] + by });
  const list = useQuery({
    queryKey: ['conversations', projectId, { ...search, q: undefined }, limits.conversations],
    queryFn: ({ signal }) => conversations(projectId, search, limits.conversations, signal),
    enabled: !search.q,
    placeholderData: (previous) => previous,
  });
  const hits = useQuery({
    queryKey: ['conversation-search', projectId, search, limits.hits],
    queryFn: ({ signal }) =>
      searchMessages(
        {
          project_id: projectId,
          query: search.q ?? '',
          agent_name: search.agent ?? null,
          request_model: search.model ?? null,
          started_after: after(search.range),
          limit: limits.hits,
        },
        signal,
      ),
    enabled: !!search.q,
    placeholderData: (previous) => previous,
  });
  const hitCount = hits.data?.results.reduce((n, r) => n + r.matched_messages.length, 0) ?? 0;
  return (
    <div className={styles.page}>
      <div className={styles.head}>
        <h1>
          <Link to="/$entity/$project/agents" params={{ entity, project }}>
            Agents
          </Link>{' '}
          / Conversations
        </h1>
        <span className={styles.headLinks}>
          <Link to="/$entity/$project/agents/signals" params={{ entity, project }} data-testid="to-signals">
            Signals →
          </Link>
        </span>
      </div>
      <div className={styles.filters}>
        <input
          type="search"
          data-testid="conversation-search"
          placeholder='Search messages: words, "a phrase"'
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') runSearch(typed);
          }}
        />
        <input
          data-testid="filter-agent"
          placeholder="Agent"
          defaultValue={search.agent ?? ''}
          onBlur={(e) => set({ agent: e.target.value.trim() || undefined })}
        />
        <input
          data-testid="filter-version"
          placeholder="Version"
          defaultValue={search.version ?? ''}
          onBlur={(e) => set({ version: e.target.value.trim() || undefined })}
        />
        <input
          data-testid="filter-model"
          placeholder="Model"
          defaultValue={search.model ?? ''}
          onBlur={(e) => set({ model: e.target.value.trim() || undefined })}
        />
        <select
          data-testid="filter-status"
          value={search.status ?? ''}
          onChange={(e) => set({ status: (e.target.value || undefined) as ConversationsSearch['status'] })}
        >
          <option value="">Any status</option>
          <option value="error">With errors</option>
          <option value="ok">Without errors</option>
        </select>
        <select
          data-testid="filter-range"
          value={search.range ?? ''}
          onChange={(e) => set({ range: (e.target.value || undefined) as RangeName | undefined })}
        >
          <option value="">All time</option>
          <option value="24h">Last 24 hours</option>
          <option value="7d">Last 7 days</option>
          <option value="30d">Last 30 days</option>
        </select>
      </div>
      {search.q ? (
        <>
          {hits.isPending && <p className={styles.muted}>Searching…</p>}
          {hits.isError && <ErrorBanner error={hits.error} onRetry={() => void hits.refetch()} />}
          {hits.data && (
            <>
              <p className={styles.muted} data-testid="search-total">
                {hits.data.total_conversations === 1
                  ? '1 conversation matches'
                  : `${hits.data.total_conversations} conversations match`}
              </p>
              <SearchHits entity={entity} project={project} query={search.q} res={hits.data} />
              {hitCount >= limits.hits && (
                <LoadMore busy={hits.isFetching} onClick={() => more('hits', HITS)} testId="search-more" />
              )}
            </>
          )}
        </>
      ) : (
        <>
          {list.isPending && <p className={styles.muted}>Loading conversations…</p>}
          {list.isError && <ErrorBanner error={list.error} onRetry={() => void list.refetch()} />}
          {list.data?.length === 0 && (
            <p className={styles.muted} data-testid="no-conversations">
              No conversations match. Spans carrying <code>gen_ai.conversation.id</code> form conversations.
            </p>
          )}
          {list.data && list.data.length > 0 && (
            <>
              <ConversationTable entity={entity} project={project} rows={list.data} />
              {list.data.length >= limits.conversations && (
                <LoadMore
                  busy={list.isFetching}
                  onClick={() => more('conversations', PAGE)}
                  testId="conversations-more"
                />
              )}
            </>
          )}
        </>
      )}
    </div>
  );
}

function LoadMore({ busy, onClick, testId }: { busy: boolean; onClick: () => void; testId: string }) {
  return (
    <button type="button" className={styles.more} onClick={onClick} disabled={busy} data-testid={testId}>
      {busy ? 'Loading…' : 'Load more'}
    </button>
  );
}
