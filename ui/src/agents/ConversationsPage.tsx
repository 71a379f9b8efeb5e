// /ui/{entity}/{project}/agents/conversations: the project's conversations, most recent first,
// filtered by agent, version, model, status and time (all in the URL), or searched: the
// messages matching `q`, marked. A filter on the spans (agent, model, errors) picks the
// conversations; their figures are then those of all their spans.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { ErrorBanner } from '../shell/ErrorBanner';
import { usePageTitle } from '../shell/usePageTitle';
import { and, eq, inList, searchMessages, spanGroups } from './agentsApi';
import { RANGES, type ConversationsSearch, type RangeName } from './agentsSearch';
import { ConversationTable } from './ConversationTable';
import { SearchHits } from './SearchHits';
import styles from './Agents.module.css';

const route = getRouteApi('/$entity/$project/agents/conversations');
const PAGE = 200;
const HITS = 100;

function after(range: RangeName | undefined): string | null {
  return range === undefined ? null : new Date(Date.now() - RANGES[range]).toISOString();
}

async function conversations(projectId: string, s: ConversationsSearch, signal: AbortSignal) {
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
        limit: PAGE,
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
      limit: PAGE,
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
  // The search runs once typing stops for a moment.
  useEffect(() => {
    const t = setTimeout(() => {
      if ((search.q ?? '') !== typed.trim())
        void navigate({ search: (s: ConversationsSearch) => ({ ...s, q: typed.trim() || undefined }), replace: true });
    }, 250);
    return () => clearTimeout(t);
  }, [typed, search.q, navigate]);
  const set = (patch: Partial<ConversationsSearch>) =>
    void navigate({ search: (s: ConversationsSearch) => ({ ...s, ...patch }), replace: true });
  const list = useQuery({
    queryKey: ['conversations', projectId, { ...search, q: undefined }],
    queryFn: ({ signal }) => conversations(projectId, search, signal),
    enabled: !search.q,
  });
  const hits = useQuery({
    queryKey: ['conversation-search', projectId, search],
    queryFn: ({ signal }) =>
      searchMessages(
        {
          project_id: projectId,
          query: search.q ?? '',
          agent_name: search.agent ?? null,
          request_model: search.model ?? null,
          started_after: after(search.range),
          limit: HITS,
        },
        signal,
      ),
    enabled: !!search.q,
  });
  return (
    <div className={styles.page}>
      <div className={styles.head}>
        <h1>
          <Link to="/$entity/$project/agents" params={{ entity, project }}>
            Agents
          </Link>{' '}
          / Conversations
        </h1>
      </div>
      <div className={styles.filters}>
        <input
          type="search"
          data-testid="conversation-search"
          placeholder='Search messages: words, "a phrase"'
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
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
            <ConversationTable entity={entity} project={project} rows={list.data} />
          )}
        </>
      )}
    </div>
  );
}
