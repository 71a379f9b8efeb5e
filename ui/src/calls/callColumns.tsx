// The calls table's columns: what each shows of a call, and which server field it sorts by.
// TanStack Table keeps the column model (order, sizes, resizing); rows are virtual, so each
// column renders a call through its meta.render.
import type { ReactNode } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import type { Call } from '../api/types';
import { callStatus, feedbackCounts, latencyMs, totalCost, totalTokens } from '../call/callFacts';
import { formatCost, formatDuration, formatTime, formatTokens, opShortName } from '../format';
import { cellText, inputPreview, outputPreview } from './callPreview';
import { StatusDot } from '../shell/icons';

export interface ColumnMeta {
  render: (call: Call) => ReactNode;
  /** The server field sort_by names; absent: not sortable. */
  sortField?: string;
  align?: 'right';
}

const col = createColumnHelper<Call>();
const column = (id: string, header: string, size: number, meta: ColumnMeta) => col.display({ id, header, size, meta });

export const CALL_COLUMNS = [
  column('status', '', 28, { render: (c) => <StatusDot status={callStatus(c)} /> }),
  column('op', 'Op', 200, { sortField: 'op_name', render: (c) => opShortName(c.op_name) }),
  column('name', 'Name', 140, { sortField: 'display_name', render: (c) => c.display_name ?? '' }),
  column('input', 'Input', 240, {
    render: (c) => <span title={inputPreview(c.inputs, 2000)}>{inputPreview(c.inputs)}</span>,
  }),
  column('output', 'Output', 240, {
    render: (c) => <span title={outputPreview(c.output, 2000)}>{outputPreview(c.output)}</span>,
  }),
  column('started', 'Started', 160, { sortField: 'started_at', render: (c) => formatTime(c.started_at) }),
  column('latency', 'Latency', 90, {
    sortField: 'summary.weave.latency_ms',
    align: 'right',
    render: (c) => formatDuration(latencyMs(c)),
  }),
  // Tokens and cost are ranked by the server (Weft's own sort fields; calls without usage last).
  column('tokens', 'Tokens', 80, {
    sortField: 'summary.weave.total_tokens',
    align: 'right',
    render: (c) => formatTokens(totalTokens(c)),
  }),
  column('cost', 'Cost', 96, {
    sortField: 'summary.weave.total_cost',
    align: 'right',
    render: (c) => formatCost(totalCost(c)),
  }),
  column('feedback', 'Feedback', 110, { sortField: 'feedback.[*].count', render: (c) => <FeedbackCell call={c} /> }),
];

/** Last, after any column the user adds, so an added column lands in view. */
export const ID_COLUMN = column('id', 'Call id', 130, {
  render: (c) => (
    <span className="mono" title={c.id}>
      {c.id}
    </span>
  ),
});

function FeedbackCell({ call }: { call: Call }) {
  const { reactions, other } = feedbackCounts(call);
  return (
    <span data-testid="feedback-cell">
      {reactions.map(([e, n]) => `${e}${n > 1 ? n : ''}`).join(' ')}
      {other > 0 ? ` +${other}` : ''}
    </span>
  );
}

/** The value at a dotted path of a call (`inputs.question`, `output`), or undefined. */
export function valueAt(call: Call, path: string): unknown {
  let v: unknown = call;
  for (const key of path.split('.')) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** A column of the user's choosing, at a path inside the call; sorted by the server. */
export const pathColumn = (path: string) =>
  column(`path:${path}`, path, 180, { sortField: path, render: (c) => cellText(valueAt(c, path)) });
