// A `weave:///` ref inside a value: a link to what it names (an object version or a call),
// and an expander that reads its value through /refs/read_batch, on demand.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { postJson } from '../api/client';
import { ErrorBanner } from '../shell/ErrorBanner';
import { Caret } from '../shell/icons';
import { ValueView } from './ValueView';
import styles from './render.module.css';

interface Parsed {
  entity: string;
  project: string;
  kind: 'object' | 'op' | 'call';
  name: string;
  digest: string;
}

/** `weave:///e/p/object/name:digest[/...]`, `.../op/name:digest`, `.../call/id`, else null. */
export function parseRef(s: string): Parsed | null {
  const m = /^weave:\/\/\/([^/]+)\/([^/]+)\/(object|op|call)\/([^/:]+)(?::([^/]+))?/.exec(s);
  if (!m) return null;
  return {
    entity: decodeURIComponent(m[1]!),
    project: decodeURIComponent(m[2]!),
    kind: m[3] as Parsed['kind'],
    name: decodeURIComponent(m[4]!),
    digest: m[5] ?? '',
  };
}

export function RefLink({ value }: { value: string }) {
  const ref = parseRef(value)!;
  const [open, setOpen] = useState(false);
  const q = useQuery({
    queryKey: ['ref', value],
    enabled: open,
    staleTime: Infinity,
    queryFn: async ({ signal }) =>
      (await postJson<{ vals: unknown[] }>('/refs/read_batch', { refs: [value] }, signal)).vals[0],
  });
  const label = `${ref.kind} ${ref.name}${ref.digest ? `:${ref.digest.slice(0, 8)}` : ''}`;
  return (
    <span className={styles.ref} data-testid="ref">
      {ref.kind !== 'call' && (
        <button
          type="button"
          className={styles.toggle}
          onClick={() => setOpen(!open)}
          aria-label={open ? 'Hide the value' : 'Show the value'}
          aria-expanded={open}
        >
          <Caret open={open} />
        </button>
      )}
      {ref.kind === 'call' ? (
        <Link
          to="/$entity/$project/calls/$callId"
          params={{ entity: ref.entity, project: ref.project, callId: ref.name }}
          title={value}
        >
          {label}
        </Link>
      ) : ref.digest ? (
        <Link
          to="/$entity/$project/objects/$name/versions/$digest"
          params={{ entity: ref.entity, project: ref.project, name: ref.name, digest: ref.digest }}
          title={value}
        >
          {label}
        </Link>
      ) : (
        <span title={value}>{label}</span>
      )}
      {open && (
        <div className={styles.nested} data-testid="ref-value">
          {q.isPending ? (
            <span className={styles.gate}>Reading…</span>
          ) : q.isError ? (
            <ErrorBanner error={q.error} />
          ) : (
            <ValueView value={q.data} />
          )}
        </div>
      )}
    </span>
  );
}
