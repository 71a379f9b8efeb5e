// The calls filter: quick toggles and typed clauses over any call field, written to the URL.
import { useEffect, useRef, useState } from 'react';
import { typingIn } from '../shell/Shell';
import {
  CLAUSE_OPS,
  clauseProblem,
  OP_LABELS,
  type CallsSearch,
  type ClauseOp,
  type FilterClause,
} from './callsSearch';
import styles from './CallsPage.module.css';

const FIELD_HINTS = [
  'display_name',
  'op_name',
  'inputs.',
  'output',
  'output.',
  'attributes.',
  'summary.weave.status',
  'summary.weave.latency_ms',
  'exception',
  'wb_user_id',
  'thread_id',
];

export function FilterBar({ search, onChange }: { search: CallsSearch; onChange: (next: CallsSearch) => void }) {
  const [field, setField] = useState('');
  const [op, setOp] = useState<ClauseOp>('contains');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const fieldInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '/' && !typingIn(e)) {
        e.preventDefault();
        fieldInput.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const clauses = search.f ?? [];
  const setClauses = (f: FilterClause[]) => onChange({ ...search, f: f.length > 0 ? f : undefined });

  return (
    <div className={styles.filters} data-testid="filter-bar">
      <label className={styles.toggle}>
        <input
          type="checkbox"
          checked={search.roots !== false}
          onChange={(e) => onChange({ ...search, roots: e.target.checked ? undefined : false })}
          data-testid="roots-only"
        />
        Trace roots only
      </label>
      <label className={styles.toggle}>
        <input
          type="checkbox"
          checked={search.errors === true}
          onChange={(e) => onChange({ ...search, errors: e.target.checked ? true : undefined })}
          data-testid="errors-only"
        />
        Errors only
      </label>
      <input
        className={styles.opSearch}
        placeholder="Op name contains…"
        defaultValue={search.op ?? ''}
        key={search.op ?? ''}
        aria-label="Op name contains"
        data-testid="op-search"
        onKeyDown={(e) => {
          if (e.key === 'Enter') onChange({ ...search, op: e.currentTarget.value.trim() || undefined });
        }}
      />
      {clauses.map((c, i) => (
        <span key={`${c.field}-${i}`} className={styles.chip} data-testid="filter-chip">
          <code>{c.field}</code> {OP_LABELS[c.op]} <code>{JSON.stringify(c.value)}</code>
          {clauseProblem(c) !== null && (
            <span className={styles.problem} role="alert" data-testid="chip-problem">
              {clauseProblem(c)}
            </span>
          )}
          <button
            type="button"
            aria-label="Remove filter"
            onClick={() => setClauses(clauses.filter((_, j) => j !== i))}
          >
            ×
          </button>
        </span>
      ))}
      <form
        className={styles.addClause}
        onSubmit={(e) => {
          e.preventDefault();
          if (field.trim() === '' || field.endsWith('.')) return;
          const clause = { field: field.trim(), op, value };
          const why = clauseProblem(clause);
          setProblem(why);
          if (why !== null) return;
          setClauses([...clauses, clause]);
          setField('');
          setValue('');
        }}
      >
        <input
          ref={fieldInput}
          list="weft-filter-fields"
          placeholder="field, e.g. inputs.question"
          value={field}
          onChange={(e) => setField(e.target.value)}
          aria-label="Filter field"
          data-testid="filter-field"
        />
        <datalist id="weft-filter-fields">
          {FIELD_HINTS.map((f) => (
            <option key={f} value={f} />
          ))}
        </datalist>
        <select
          value={op}
          onChange={(e) => setOp(e.target.value as ClauseOp)}
          aria-label="Filter operator"
          data-testid="filter-op"
        >
          {CLAUSE_OPS.map((o) => (
            <option key={o} value={o}>
              {OP_LABELS[o]}
            </option>
          ))}
        </select>
        <input
          placeholder="value"
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setProblem(null);
          }}
          aria-label="Filter value"
          data-testid="filter-value"
        />
        <button type="submit" data-testid="filter-add">
          Add filter
        </button>
        {problem !== null && (
          <span className={styles.problem} role="alert" data-testid="filter-problem">
            {problem}
          </span>
        )}
      </form>
    </div>
  );
}
