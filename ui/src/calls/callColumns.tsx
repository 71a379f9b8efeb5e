// The calls table's columns: what each shows of a call, and which server field it sorts by.
// TanStack Table keeps the column model (order, sizes, resizing); rows are virtual, so each
// column renders a call through its meta.render.
import type { ReactNode } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import type { Call } from '../api/types';
import { callStatus, feedbackCounts, latencyMs, totalCost, totalTokens } from '../call/callFacts';
import { formatCost, formatDuration, formatTime, formatTokens, opShortName, readableNumber } from '../format';
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
    render: (c) => <span title={preview(c.inputs, 2000)}>{inputPreview(c.inputs)}</span>,
  }),
  column('output', 'Output', 240, { render: (c) => <span title={preview(c.output, 2000)}>{preview(c.output)}</span> }),
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

/** A cell shows at most this much of a value: never a whole payload. */
const CELL_CHARS = 200;

function cellText(v: unknown, chars = CELL_CHARS): string {
  if (v === undefined || v === null) return '';
  const s = typeof v === 'string' ? v : typeof v === 'number' ? readableNumber(v) : JSON.stringify(v);
  return s.length > chars ? `${s.slice(0, chars)}…` : s;
}

/** A value's start, for a cell (its title shows more). */
const preview = (v: unknown, chars = CELL_CHARS) => cellText(v, chars);

/**
 * A call's inputs, for a cell: one argument as its value alone (`What is 2 + 2?`), several as
 * `name: value` pairs; `self` (the object an op is a method of) is left out.
 */
function inputPreview(inputs: Call['inputs']): string {
  if (inputs === null || typeof inputs !== 'object') return cellText(inputs);
  const entries = Object.entries(inputs).filter(([k]) => k !== 'self');
  if (entries.length === 1) return cellText(entries[0]![1]);
  return cellText(entries.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', '));
}

/** A column of the user's choosing, at a path inside the call; sorted by the server. */
export const pathColumn = (path: string) =>
  column(`path:${path}`, path, 180, { sortField: path, render: (c) => cellText(valueAt(c, path)) });
