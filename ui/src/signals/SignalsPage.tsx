// /ui/{entity}/{project}/agents/signals: the agent turns' signals (the verdicts of monitors that
// score turns), newest first, filtered by scorer, agent, tag, rating range and time window (all
// in the URL); above them, each scorer's trend over the window and the score volume per bucket.
// A row opens its turn in the conversation.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { queryAgents } from '../agents/agentsApi';
import { ErrorBanner } from '../shell/ErrorBanner';
import { usePageTitle } from '../shell/usePageTitle';
import { ScoreTimeline } from './ScoreTimeline';
import { ScorerTrends } from './ScorerTrends';
import { SignalFilters } from './SignalFilters';
import { SignalsEmpty } from './SignalsEmpty';
import { SignalsTable } from './SignalsTable';
import { scorerTrends } from './signalBuckets';
import { aggregateSignals, lastMessages, signalRows } from './signalsApi';
import { isFiltered, type SignalsSearch } from './signalsSearch';
import styles from './Signals.module.css';

const route = getRouteApi('/$entity/$project/agents/signals');
/** Rows shown at first, and added by each "Load more". */
const PAGE = 50;
/** New signals show without a reload. */
const REFRESH_MS = 10_000;

export function SignalsPage() {
  const { entity, project } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const projectId = `${entity}/${project}`;
  usePageTitle(`Signals · Agents · ${projectId}`);
  const set = (patch: Partial<SignalsSearch>) =>
    void navigate({ search: (s: SignalsSearch) => ({ ...s, ...patch }), replace: true });
  const [shown, setShown] = useState({ key: '', limit: PAGE });
  const key = JSON.stringify([projectId, search]);
  const limit = shown.key === key ? shown.limit : PAGE;
  const rows = useQuery({
    queryKey: ['signals', projectId, search, limit],
    queryFn: ({ signal }) => signalRows(projectId, search, limit, signal),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const traceIds = useMemo(
    () => [...new Set((rows.data?.rows ?? []).map((r) => r.span_trace_id ?? '').filter((t) => t !== ''))].sort(),
    [rows.data],
  );
  const messages = useQuery({
    queryKey: ['signal-messages', projectId, traceIds],
    queryFn: ({ signal }) => lastMessages(projectId, traceIds, signal),
    enabled: traceIds.length > 0,
    placeholderData: keepPreviousData,
  });
  const volume = useQuery({
    queryKey: ['signal-volume', projectId, search],
    queryFn: ({ signal }) => aggregateSignals(projectId, search, null, true, signal),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const windowKey = { agent: search.agent, range: search.range, from: search.from, to: search.to };
  const trends = useQuery({
    queryKey: ['signal-trends', projectId, windowKey],
    queryFn: async ({ signal }) =>
      scorerTrends(await aggregateSignals(projectId, search, ['scorer_id'], false, signal)),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const agents = useQuery({
    queryKey: ['agents-list', projectId],
    queryFn: async ({ signal }) => (await queryAgents(projectId, signal)).agents.map((a) => a.agent_name),
  });
  const scorers = (trends.data ?? []).map((t) => t.scorer);
  const tags = [...new Set((trends.data ?? []).flatMap((t) => t.tags.map(([tag]) => tag)))].sort();
  const error = rows.error ?? volume.error ?? trends.error;
  return (
    <div className={styles.page}>
      <div className={styles.head}>
        <h1>
          <Link to="/$entity/$project/agents" params={{ entity, project }}>
            Agents
          </Link>{' '}
          / Signals
        </h1>
        <span className={styles.links}>
          <Link to="/$entity/$project/agents/conversations" params={{ entity, project }}>
            Conversations
          </Link>
          <Link to="/$entity/$project/monitors" params={{ entity, project }} data-testid="to-monitors">
            Monitors →
          </Link>
        </span>
      </div>
      <SignalFilters search={search} scorers={scorers} agents={agents.data ?? []} tags={tags} onChange={set} />
      {error && (
        <ErrorBanner
          error={error}
          onRetry={() => {
            void rows.refetch();
            void volume.refetch();
            void trends.refetch();
          }}
        />
      )}
      <ScorerTrends trends={trends.data ?? []} selected={search.scorer} onSelect={(scorer) => set({ scorer })} />
      {volume.data && volume.data.buckets.length > 0 && (
        <ScoreTimeline
          data={volume.data}
          onBrush={(from, to) =>
            set({ from: new Date(from * 1000).toISOString(), to: new Date(to * 1000).toISOString(), range: undefined })
          }
        />
      )}
      {rows.isPending && <p className={styles.muted}>Loading signals…</p>}
      {rows.data?.rows.length === 0 && !rows.data.more && (
        <SignalsEmpty
          entity={entity}
          project={project}
          filtered={isFiltered(search)}
          onClear={() => set({ scorer: undefined, agent: undefined, tag: undefined, min: undefined, max: undefined })}
        />
      )}
      {rows.data && rows.data.rows.length > 0 && (
        <SignalsTable entity={entity} project={project} rows={rows.data.rows} messages={messages.data} />
      )}
      {rows.data?.more && (
        <button
          type="button"
          className={styles.more}
          disabled={rows.isFetching}
          onClick={() => setShown({ key, limit: limit + PAGE })}
          data-testid="signals-more"
        >
          {rows.isFetching ? 'Loading…' : 'Load more'}
        </button>
      )}
    </div>
  );
}
