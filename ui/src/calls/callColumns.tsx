// The calls table's columns: what each shows of a call, and which server field it sorts by.
// TanStack Table keeps the column model (order, sizes, resizing); rows are virtual, so each
// column renders a call through its meta.render.
import type { ReactNode } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import type { Call } from '../api/types';
import { callStatus, latencyMs, totalCost, totalTokens } from '../call/callFacts';
import { formatCost, formatDuration, formatTime, formatTokens, opShortName } from '../format';
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
  column('op', 'Op', 220, { sortField: 'op_name', render: (c) => opShortName(c.op_name) }),
  column('name', 'Name', 200, { sortField: 'display_name', render: (c) => c.display_name ?? '' }),
  column('started', 'Started', 160, { sortField: 'started_at', render: (c) => formatTime(c.started_at) }),
  column('latency', 'Latency', 90, { sortField: 'summary.weave.latency_ms', align: 'right', render: (c) => formatDuration(latencyMs(c)) }),
  column('tokens', 'Tokens', 80, { align: 'right', render: (c) => formatTokens(totalTokens(c)) }),
  column('cost', 'Cost', 80, { align: 'right', render: (c) => formatCost(totalCost(c)) }),
  column('id', 'Call id', 300, { render: (c) => <span className="mono">{c.id}</span> }),
];
