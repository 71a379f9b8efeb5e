// The selected call's detail, loaded per selection (the tree never carries payloads):
// inputs and output rendered by shape, attributes, summary with usage and costs, raw JSON.
import { lazy, memo, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { postJson } from '../api/client';
import type { Call, CallReadReq } from '../api/types';
import { ErrorBanner } from '../shell/ErrorBanner';
import { StatusDot } from '../shell/icons';
import { formatCost, formatDuration, formatTime, opShortName } from '../format';
import { ValueView } from '../render/ValueView';
import { ChatView } from '../render/ChatView';
import { modelConversation, type ModelConversation } from '../render/modelConversation';
import { JsonTree } from '../render/JsonTree';
import { TABS, type Tab } from '../trace/traceSearch';
import { callStatus, latencyMs, totalCost } from './callFacts';
import { UsageTable } from './UsageTable';
import { CallReactions } from './CallReactions';
import { AgentSpansLink } from './AgentSpansLink';
import { PlaygroundLink } from './PlaygroundLink';
import { FeedbackPanel } from './FeedbackPanel';
import styles from './CallDetail.module.css';

// The code tab carries a syntax highlighter: loaded when first opened.
const CallCode = lazy(() => import('./CallCode').then((m) => ({ default: m.CallCode })));

const TAB_LABELS: Record<Tab, string> = {
  io: 'Inputs & output',
  feedback: 'Feedback',
  code: 'Code',
  attributes: 'Attributes',
  summary: 'Summary',
  raw: 'Raw',
};

/** Memoised: the trace view redraws as its tree streams in, the detail only when its props change. */
export const CallDetail = memo(function CallDetail({
  projectId,
  callId,
  tab,
  onTab,
}: {
  projectId: string;
  callId: string;
  tab: Tab;
  onTab: (t: Tab) => void;
}) {
  const req: CallReadReq = { project_id: projectId, id: callId, include_costs: true };
  const q = useQuery({
    queryKey: ['call', projectId, callId],
    queryFn: ({ signal }) => postJson<{ call: Call | null }>('/call/read', req, signal),
  });
  if (q.isPending)
    return (
      <p className={styles.muted} data-testid="detail-loading">
        Loading call…
      </p>
    );
  if (q.isError) return <ErrorBanner error={q.error} onRetry={() => void q.refetch()} />;
  const call = q.data.call;
  if (call === null) return <p className={styles.muted}>No call {callId}.</p>;
  return (
    <div className={styles.detail} data-testid="call-detail" data-id={call.id}>
      <header className={styles.head}>
        <StatusDot status={callStatus(call)} />
        <h2 title={call.op_name}>{call.display_name || opShortName(call.op_name)}</h2>
        <span className={styles.muted}>{formatTime(call.started_at)}</span>
        <span className={styles.muted}>{formatDuration(latencyMs(call))}</span>
        {totalCost(call) ? <span className={styles.muted}>{formatCost(totalCost(call))}</span> : null}
      </header>
      <div className={styles.ids}>
        <span>
          id <code>{call.id}</code>
        </span>
        <span>
          trace <code>{call.trace_id}</code>
        </span>
        {call.thread_id && (
          <span>
            thread <code>{call.thread_id}</code>
          </span>
        )}
      </div>
      <AgentSpansLink projectId={projectId} callId={call.id} />
      <div className={styles.actions}>
        <CallReactions projectId={projectId} callId={call.id} />
        <PlaygroundLink projectId={projectId} call={call} />
      </div>
      <nav className={styles.tabs} role="tablist">
        {TABS.map((t) => (
          <button
            type="button"
            key={t}
            role="tab"
            aria-selected={t === tab}
            className={t === tab ? styles.activeTab : ''}
            onClick={() => onTab(t)}
            data-testid={`tab-${t}`}
          >
            {TAB_LABELS[t]}
          </button>
        ))}
      </nav>
      <div className={styles.body} role="tabpanel">
        {tab === 'io' && <InputsOutput call={call} />}
        {tab === 'feedback' && <FeedbackPanel projectId={projectId} callId={call.id} />}
        {tab === 'code' && (
          <Suspense fallback={<p className={styles.muted}>Loading code…</p>}>
            <CallCode projectId={projectId} opName={call.op_name} />
          </Suspense>
        )}
        {tab === 'attributes' && <JsonTree value={call.attributes} />}
        {tab === 'summary' && (
          <>
            <UsageTable call={call} />
            <JsonTree value={call.summary ?? {}} />
          </>
        )}
        {tab === 'raw' && (
          <pre className={styles.raw} data-testid="raw">
            {JSON.stringify(call, null, 2).slice(0, 200_000)}
          </pre>
        )}
      </div>
    </div>
  );
});

function InputsOutput({ call }: { call: Call }) {
  const conversation = modelConversation(call.inputs, call.output);
  return (
    <>
      {call.exception && (
        <section data-testid="exception">
          <h3 className={styles.errorTitle}>Exception</h3>
          <pre className={styles.exception}>{call.exception}</pre>
        </section>
      )}
      {conversation ? <Conversation call={call} conversation={conversation} /> : <PlainInputsOutput call={call} />}
    </>
  );
}

/** A model call: its messages and the response as one chat; the request's other inputs below. */
function Conversation({ call, conversation }: { call: Call; conversation: ModelConversation }) {
  const { messages, responseCount, tools, rest } = conversation;
  return (
    <>
      <section data-testid="conversation">
        <h3>Conversation</h3>
        <ChatView messages={messages} responseFrom={messages.length - responseCount} />
        {responseCount === 0 && <span className={styles.muted}>{call.ended_at ? 'No response' : 'Running…'}</span>}
      </section>
      {tools.length > 0 && (
        <details className={styles.tools} data-testid="tool-definitions">
          <summary>
            {tools.length} tool definition{tools.length === 1 ? '' : 's'} offered
          </summary>
          <ValueView value={tools} />
        </details>
      )}
      {Object.keys(rest).length > 0 && (
        <section data-testid="inputs">
          <h3>Other inputs</h3>
          <ValueView value={rest} />
        </section>
      )}
    </>
  );
}

function PlainInputsOutput({ call }: { call: Call }) {
  return (
    <>
      <section data-testid="inputs">
        <h3>Inputs</h3>
        <ValueView value={call.inputs} />
      </section>
      <section data-testid="output">
        <h3>Output</h3>
        {call.output === undefined || call.output === null ? (
          <span className={styles.muted}>{call.ended_at ? 'None' : 'Running…'}</span>
        ) : (
          <ValueView value={call.output} />
        )}
      </section>
    </>
  );
}
