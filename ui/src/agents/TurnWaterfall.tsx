// `?turn=`: one turn's spans as a waterfall: each span under its parent, a bar from its start
// to its end on the turn's time axis, with its operation, model, tokens and status.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { formatDuration, formatTokens } from '../format';
import { StatusDot } from '../shell/icons';
import { and, eq } from './agentsApi';
import { postJson } from '../api/client';
import type { AgentSpansQueryRes } from '../api/types';
import styles from './Conversation.module.css';

type Span = Record<string, unknown> & { span_id: string; parent_span_id: string | null };
/** Model calls: what the playground opens (`?span=`). */
const MODEL_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content']);
const ms = (iso: unknown) => (typeof iso === 'string' ? new Date(iso).getTime() : null);

/** Spans in tree order (children by start under their parent), with their depth. */
function treeOrder(spans: Span[]): { span: Span; depth: number }[] {
  const ids = new Set(spans.map((s) => s.span_id));
  const children = new Map<string | null, Span[]>();
  for (const s of spans) {
    const parent = s.parent_span_id !== null && ids.has(s.parent_span_id) ? s.parent_span_id : null;
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const out: { span: Span; depth: number }[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const s of (children.get(parent) ?? []).sort((a, b) => (ms(a.started_at) ?? 0) - (ms(b.started_at) ?? 0))) {
      out.push({ span: s, depth });
      if (depth < 200) walk(s.span_id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

export function TurnWaterfall({ projectId, traceId }: { projectId: string; traceId: string }) {
  const [entity, project] = projectId.split('/') as [string, string];
  const q = useQuery({
    queryKey: ['turn-spans', projectId, traceId],
    queryFn: async ({ signal }) =>
      (
        await postJson<AgentSpansQueryRes>(
          '/agents/spans/query',
          {
            project_id: projectId,
            query: and(eq('trace_id', traceId)),
            sort_by: [{ field: 'started_at', direction: 'asc' }],
            limit: 10_000,
          },
          signal,
        )
      ).spans as Span[],
  });
  if (q.isPending) return <p className={styles.facts}>Loading spans…</p>;
  if (q.isError) return <p className={styles.statusError}>{String(q.error)}</p>;
  const rows = treeOrder(q.data);
  const start = Math.min(...q.data.map((s) => ms(s.started_at) ?? Number.POSITIVE_INFINITY));
  const end = Math.max(...q.data.map((s) => ms(s.ended_at) ?? ms(s.started_at) ?? 0));
  const total = Math.max(1, end - start);
  return (
    <div className={styles.waterfall} data-testid="waterfall">
      <div className={styles.axis}>
        <span>0</span>
        <span>{formatDuration(total / 2)}</span>
        <span>{formatDuration(total)}</span>
      </div>
      {rows.map(({ span: s, depth }) => {
        const from = (ms(s.started_at) ?? start) - start;
        const to = (ms(s.ended_at) ?? ms(s.started_at) ?? start) - start;
        const tokens = ((s.input_tokens as number) ?? 0) + ((s.output_tokens as number) ?? 0);
        return (
          <div key={s.span_id} className={styles.spanRow} data-testid="span-row" data-span={s.span_id}>
            <div className={styles.spanName} style={{ paddingLeft: depth * 14 }} title={String(s.span_name)}>
              <span className={styles.spanLabel}>
                <StatusDot status={s.status_code === 'ERROR' ? 'error' : 'success'} /> {String(s.span_name)}
                <span className={styles.facts}>
                  {' '}
                  {[s.request_model, tokens > 0 ? `${formatTokens(tokens)} tok` : ''].filter(Boolean).join(' · ')}
                </span>
              </span>
              {MODEL_OPERATIONS.has(String(s.operation_name)) && (
                <Link
                  to="/$entity/$project/playground"
                  params={{ entity, project }}
                  search={{ span: `${traceId}:${s.span_id}` }}
                  className={styles.spanAction}
                  title="Open this model call in the playground"
                  data-testid="span-playground"
                >
                  playground
                </Link>
              )}
            </div>
            <div className={styles.track}>
              <div
                className={s.status_code === 'ERROR' ? `${styles.bar} ${styles.barError}` : styles.bar}
                style={{ left: `${(100 * from) / total}%`, width: `max(2px, ${(100 * (to - from)) / total}%)` }}
                title={formatDuration(to - from)}
              />
            </div>
            <div className={styles.duration}>{formatDuration(to - from)}</div>
          </div>
        );
      })}
    </div>
  );
}
