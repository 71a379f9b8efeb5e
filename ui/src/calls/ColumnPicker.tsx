// The calls table's columns: each shown or hidden and pinned or not (remembered per project),
// and extra columns picked from every key path of the filtered calls (inputs and output to two
// levels, attributes to one: /ui/api/call_paths), or any path typed in.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { postJson } from '../api/client';
import type { CallsQueryReq, UiCallPathsReq, UiCallPathsRes } from '../api/types';
import { isColumnPath } from './callsSearch';
import styles from './CallsPage.module.css';
import { type ColumnLayout, toggleHidden, togglePinned } from './useColumnLayout';

export function ColumnPicker({
  request,
  columns,
  layout,
  onLayout,
  cols,
  onChange,
}: {
  request: Pick<CallsQueryReq, 'project_id' | 'filter' | 'query'>;
  /** Every column of the table, in order (the status column has no header). */
  columns: readonly { id: string; header: string }[];
  layout: ColumnLayout;
  onLayout: (next: ColumnLayout) => void;
  cols: readonly string[];
  onChange: (cols: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  // The paths are read from every matching call (about a second per 100,000 calls on SQLite):
  // pointing at the button starts the read.
  const [wanted, setWanted] = useState(false);
  const [typed, setTyped] = useState('');
  const found = useQuery({
    queryKey: ['call-paths', JSON.stringify(request)],
    enabled: open || wanted,
    queryFn: ({ signal }) =>
      postJson<UiCallPathsRes>(
        '/ui/api/call_paths',
        { project_id: request.project_id, filter: request.filter, query: request.query } satisfies UiCallPathsReq,
        signal,
      ),
  });
  const options = [...new Set([...cols, ...['output', ...(found.data?.paths ?? [])].sort()])];
  const toggle = (p: string) => onChange(cols.includes(p) ? cols.filter((c) => c !== p) : [...cols, p]);
  return (
    <span className={styles.pickerWrap}>
      <button
        type="button"
        onClick={() => setOpen(!open)}
        onPointerEnter={() => setWanted(true)}
        onFocus={() => setWanted(true)}
        aria-expanded={open}
        data-testid="columns-button"
      >
        Columns{cols.length > 0 ? ` (+${cols.length})` : ''}
      </button>
      {open && (
        <div className={styles.picker} data-testid="column-picker">
          <div className={styles.muted}>Shown, and pinned at the left</div>
          {columns
            .filter((c) => c.header !== '' && !c.id.startsWith('path:'))
            .map((c) => (
              <div key={c.id} className={styles.pickerItem} data-testid="layout-item" data-col={c.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={!layout.hidden.includes(c.id)}
                    onChange={() => onLayout(toggleHidden(layout, c.id))}
                    data-testid="column-shown"
                  />{' '}
                  {c.header}
                </label>{' '}
                <button
                  type="button"
                  className={styles.pin}
                  aria-pressed={layout.pinned.includes(c.id)}
                  onClick={() => onLayout(togglePinned(layout, c.id))}
                  title={layout.pinned.includes(c.id) ? 'Unpin' : 'Pin at the left'}
                  data-testid="column-pin"
                >
                  pin
                </button>
              </div>
            ))}
          <div className={styles.muted}>Added from the calls</div>
          {found.isPending && <div className={styles.muted}>Reading the calls' keys…</div>}
          {found.data?.complete === false && (
            <div className={styles.muted} data-testid="paths-incomplete">
              The first {found.data.paths.length.toLocaleString()} paths; type any other below.
            </div>
          )}
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
