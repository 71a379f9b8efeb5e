// /ui/{entity}/{project}/threads: conversation threads (from /threads/stream_query), newest
// activity first; `?thread=` opens one as its turns, in order, each turn's input and output
// rendered by shape and linked to its trace. A chat turn shows the messages it adds; those
// earlier turns already showed are folded.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { postJsonl } from '../api/client';
import type { Call, CallsQueryReq, ThreadSchema, ThreadsQueryReq } from '../api/types';
import { ErrorBanner } from '../shell/ErrorBanner';
import { StatusDot } from '../shell/icons';
import { callStatus, latencyMs } from '../call/callFacts';
import { formatCount, formatDuration, formatTime, opShortName } from '../format';
import { ValueView } from '../render/ValueView';
import { ChatView } from '../render/ChatView';
import { turnMessages, type TurnMessages } from './threadHistory';
import styles from './Threads.module.css';
import { usePageTitle } from '../shell/usePageTitle';

const route = getRouteApi('/$entity/$project/threads');
const LIMIT = 1000;

export function ThreadsPage() {
  const { entity, project } = route.useParams();
  const { thread } = route.useSearch();
  const navigate = route.useNavigate();
  const projectId = `${entity}/${project}`;
  usePageTitle(`Threads · ${projectId}`);
  const threads = useQuery({
    queryKey: ['threads', projectId],
    queryFn: ({ signal }) =>
      postJsonl<ThreadSchema>(
        '/threads/stream_query',
        { project_id: projectId, limit: LIMIT } satisfies ThreadsQueryReq,
        signal,
      ),
  });
  return (
    <div className={styles.page}>
      <section className={styles.list}>
        <h1>
          Threads{' '}
          {threads.data && (
            <span className={styles.muted} data-testid="threads-total">
              {threads.data.length === LIMIT ? `newest ${formatCount(LIMIT)}` : formatCount(threads.data.length)}
            </span>
          )}
        </h1>
        {threads.isPending && <p className={styles.muted}>Loading threads…</p>}
        {threads.isError && <ErrorBanner error={threads.error} onRetry={() => void threads.refetch()} />}
        {threads.data?.length === 0 && (
          <p className={styles.muted} data-testid="no-threads">
            No threads: calls with a thread_id appear here.
          </p>
        )}
        <ul data-testid="threads">
          {threads.data?.map((t) => (
            <li
              key={t.thread_id}
              data-id={t.thread_id}
              className={t.thread_id === thread ? styles.selected : ''}
              onClick={() => void navigate({ search: { thread: t.thread_id }, replace: true })}
            >
              <div className={styles.threadId}>{t.thread_id}</div>
              <div className={styles.muted}>
                {t.turn_count} {t.turn_count === 1 ? 'turn' : 'turns'} · {formatTime(t.last_updated)}
                {t.p50_turn_duration_ms !== null ? ` · p50 ${formatDuration(t.p50_turn_duration_ms)}` : ''}
              </div>
            </li>
          ))}
        </ul>
      </section>
      <section className={styles.turns}>
        {thread ? (
          <Turns projectId={projectId} threadId={thread} entity={entity} project={project} />
        ) : (
          <p className={styles.muted}>Pick a thread.</p>
        )}
      </section>
    </div>
  );
}

function Turns({
  projectId,
  threadId,
  entity,
  project,
}: {
  projectId: string;
  threadId: string;
  entity: string;
  project: string;
}) {
  const q = useQuery({
    queryKey: ['thread-turns', projectId, threadId],
    queryFn: async ({ signal }) => {
      const req: CallsQueryReq = {
        project_id: projectId,
        filter: { thread_ids: [threadId] },
        sort_by: [{ field: 'started_at', direction: 'asc' }],
        limit: 5000,
      };
      // A turn is a call whose id is its turn_id (Weave's rule); the calls under it are its steps.
      return (await postJsonl<Call>('/calls/stream_query', req, signal)).filter((c) => c.turn_id === c.id);
    },
  });
  const chats = useMemo(() => (q.data ? turnMessages(q.data) : []), [q.data]);
  if (q.isPending) return <p className={styles.muted}>Loading turns…</p>;
  if (q.isError) return <ErrorBanner error={q.error} onRetry={() => void q.refetch()} />;
  return (
    <div data-testid="turns">
      <h2>{threadId}</h2>
      {q.data.map((c, i) => (
        <article key={c.id} className={styles.turn} data-testid="turn" data-id={c.id}>
          <header>
            <StatusDot status={callStatus(c)} /> <strong>Turn {i + 1}</strong>{' '}
            <span className={styles.muted}>
              {opShortName(c.op_name)} · {formatTime(c.started_at)} · {formatDuration(latencyMs(c))}
            </span>
            <Link to="/$entity/$project/calls/$callId" params={{ entity, project, callId: c.id }}>
              trace →
            </Link>
          </header>
          <div className={styles.io}>
            <div>
              <h3>Input</h3>
              {chats[i] ? <NewMessages chat={chats[i]} /> : <ValueView value={c.inputs} />}
            </div>
            <div>
              <h3>Output</h3>
              {c.exception ? <pre className={styles.error}>{c.exception}</pre> : <ValueView value={c.output ?? null} />}
            </div>
          </div>
        </article>
      ))}
    </div>
  );
}

/** A turn's chat: the messages it adds, after the earlier ones folded. */
function NewMessages({ chat }: { chat: TurnMessages }) {
  const { messages, seen } = chat;
  return (
    <>
      {seen > 0 && (
        <details className={styles.earlier} data-testid="earlier-messages">
          <summary>
            {seen} earlier message{seen === 1 ? '' : 's'}
          </summary>
          <ChatView messages={messages.slice(0, seen)} />
        </details>
      )}
      {seen < messages.length ? (
        <ChatView messages={messages.slice(seen)} />
      ) : (
        <span className={styles.muted}>No new messages</span>
      )}
    </>
  );
}
