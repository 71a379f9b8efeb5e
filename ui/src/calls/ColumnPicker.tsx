// Picks extra columns of the calls table from the paths found in a sample of the filtered
// calls (inputs, output, attributes, to two levels), or any path typed in.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { postJsonl } from '../api/client';
import type { Call, CallsQueryReq } from '../api/types';
import { isColumnPath } from './callsSearch';
import styles from './CallsPage.module.css';

const SAMPLE = 50;

function paths(value: unknown, prefix: string, depth: number, out: Set<string>): void {
  out.add(prefix);
  if (depth === 0 || typeof value !== 'object' || value === null || Array.isArray(value)) return;
  for (const [k, v] of Object.entries(value))
    if (!k.includes('.') && k !== '_type' && k !== '_class_name' && k !== '_bases')
      paths(v, `${prefix}.${k}`, depth - 1, out);
}

export function ColumnPicker({
  request,
  cols,
  onChange,
}: {
  request: Pick<CallsQueryReq, 'project_id' | 'filter' | 'query'>;
  cols: readonly string[];
  onChange: (cols: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const sample = useQuery({
    queryKey: ['column-sample', JSON.stringify(request)],
    enabled: open,
    queryFn: ({ signal }) =>
      postJsonl<Call>(
        '/calls/stream_query',
        {
          ...request,
          limit: SAMPLE,
          columns: ['id', 'inputs', 'output', 'attributes'],
          sort_by: [{ field: 'started_at', direction: 'desc' }],
        } satisfies CallsQueryReq,
        signal,
      ),
  });
  const found = new Set<string>();
  for (const c of sample.data ?? []) {
    paths(c.inputs, 'inputs', 2, found);
    paths(c.output, 'output', 2, found);
    paths(c.attributes, 'attributes', 1, found);
  }
  for (const c of ['inputs', 'attributes']) found.delete(c);
  const options = [...new Set([...cols, ...[...found].sort()])];
  const toggle = (p: string) => onChange(cols.includes(p) ? cols.filter((c) => c !== p) : [...cols, p]);
  return (
    <span className={styles.pickerWrap}>
      <button type="button" onClick={() => setOpen(!open)} aria-expanded={open} data-testid="columns-button">
        Columns{cols.length > 0 ? ` (+${cols.length})` : ''}
      </button>
      {open && (
        <div className={styles.picker} data-testid="column-picker">
          {sample.isPending && <div className={styles.muted}>Reading {SAMPLE} calls…</div>}
          {options.map((p) => (
            <label key={p} className={styles.pickerItem}>
              <input type="checkbox" checked={cols.includes(p)} onChange={() => toggle(p)} data-path={p} />{' '}
              <code>{p}</code>
            </label>
          ))}
          <form
            className={styles.pickerForm}
            onSubmit={(e) => {
              e.preventDefault();
              if (isColumnPath(typed) && !cols.includes(typed)) onChange([...cols, typed]);
              setTyped('');
            }}
          >
            <input
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              placeholder="inputs.any.path"
              aria-label="Column path"
            />
            <button type="submit" disabled={!isColumnPath(typed)}>
              Add
            </button>
          </form>
          <button type="button" onClick={() => setOpen(false)}>
            Done
          </button>
        </div>
      )}
    </span>
  );
}
