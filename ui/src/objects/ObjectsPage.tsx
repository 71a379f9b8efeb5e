// /ui/{entity}/{project}/objects: every object of the project (its latest version), grouped
// by kind, with version count, last update, tags and aliases. ?q= filters by name, ?kind=
// shows one group.
import { useEffect, useMemo, useRef, useState } from 'react';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import type { Obj } from '../api/types';
import { ErrorBanner } from '../shell/ErrorBanner';
import { typingIn } from '../shell/Shell';
import { formatCount, formatTime, timeAgo } from '../format';
import { classLabel, GROUP_LABELS, GROUPS, groupOf, type ObjectGroup } from './objectKinds';
import { useLatestObjects, useVersionCounts } from './objectsApi';
import type { ObjectsSearch } from './objectsSearch';
import { AliasChips, TagChips } from './Chips';
import styles from './Objects.module.css';
import own from './ObjectsPage.module.css';
import { usePageTitle } from '../shell/usePageTitle';

const route = getRouteApi('/$entity/$project/objects');

export function ObjectsPage() {
  const { entity, project } = route.useParams();
  const search = route.useSearch();
  const navigate = useNavigate();
  const setSearch = (next: ObjectsSearch) =>
    void navigate({
      to: '/$entity/$project/objects',
      params: { entity, project },
      search: next as never,
      replace: true,
    });

  const projectId = `${entity}/${project}`;
  usePageTitle(`${search.kind ? GROUP_LABELS[search.kind] : 'Objects'} · ${projectId}`);
  const listing = useLatestObjects(projectId);
  const counts = useVersionCounts(
    projectId,
    listing.objs.map((o) => o.object_id),
  );
  const needle = (search.q ?? '').toLowerCase();
  const matching = useMemo(
    () => listing.objs.filter((o) => o.object_id.toLowerCase().includes(needle)),
    [listing.objs, needle],
  );
  const byGroup = useMemo(() => {
    const m = new Map<ObjectGroup, Obj[]>();
    for (const o of matching) {
      const g = groupOf(o);
      m.set(g, [...(m.get(g) ?? []), o]);
    }
    return m;
  }, [matching]);
  const shownGroups = GROUPS.filter(
    ([g]) => (search.kind === undefined || search.kind === g) && (byGroup.get(g)?.length ?? 0) > 0,
  );

  return (
    <div className={styles.page} data-testid="objects-page">
      <div className={own.head}>
        <h1 className={styles.title}>Objects</h1>
        <NameFilter value={search.q ?? ''} onChange={(q) => setSearch({ ...search, q: q === '' ? undefined : q })} />
        <span className={styles.muted} data-testid="objects-total">
          {listing.isPending ? '' : countLine(listing.objs.length, matching.length, listing.complete, needle !== '')}
        </span>
        {listing.loadMore && (
          <button type="button" onClick={listing.loadMore} disabled={listing.loadingMore} data-testid="objects-more">
            {listing.loadingMore ? 'Loading…' : 'Load more'}
          </button>
        )}
      </div>
      {!listing.isPending && listing.objs.length > 0 && (
        <nav className={own.kinds} aria-label="Kinds">
          <button
            type="button"
            aria-pressed={search.kind === undefined}
            onClick={() => setSearch({ ...search, kind: undefined })}
            data-testid="kind-all"
          >
            All <span className={own.count}>{formatCount(matching.length)}</span>
          </button>
          {GROUPS.filter(([g]) => byGroup.has(g) || search.kind === g).map(([g, label]) => (
            <button
              type="button"
              key={g}
              aria-pressed={search.kind === g}
              onClick={() => setSearch({ ...search, kind: search.kind === g ? undefined : g })}
              data-testid={`kind-${g}`}
            >
              {label} <span className={own.count}>{formatCount(byGroup.get(g)?.length ?? 0)}</span>
            </button>
          ))}
        </nav>
      )}
      {listing.error !== null && <ErrorBanner error={listing.error} onRetry={listing.refetch} />}
      {listing.isPending && (
        <p className={styles.muted} data-testid="loading">
          Loading objects…
        </p>
      )}
      {!listing.isPending && listing.error === null && listing.objs.length === 0 && (
        <div className={styles.empty} data-testid="no-objects">
          <p>No objects in {projectId} yet.</p>
          <p>
            Ops appear here when a traced function first runs; datasets, models and prompts when an SDK publishes them.
          </p>
        </div>
      )}
      {listing.objs.length > 0 && shownGroups.length === 0 && (
        <p className={styles.empty} data-testid="no-match">
          No {search.kind ? GROUP_LABELS[search.kind].toLowerCase() : 'objects'} match “{search.q}”.
        </p>
      )}
      {shownGroups.map(([g, label]) => (
        <section key={g} className={own.group} data-testid="object-group" data-group={g}>
          <h2 className={own.groupTitle}>
            {label} <span className={own.count}>{formatCount(byGroup.get(g)!.length)}</span>
          </h2>
          <ObjectTable objs={byGroup.get(g)!} entity={entity} project={project} counts={counts} />
        </section>
      ))}
    </div>
  );
}

function countLine(loaded: number, matching: number, complete: boolean, filtered: boolean): string {
  const of = complete
    ? `${formatCount(loaded)} object${loaded === 1 ? '' : 's'}`
    : `the ${formatCount(loaded)} most recently updated objects (more exist)`;
  return filtered ? `${formatCount(matching)} of ${of}` : of;
}

/** The name filter: typed freely, written to the URL a moment after the last key. */
function NameFilter({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  const [text, setText] = useState(value);
  const input = useRef<HTMLInputElement>(null);
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text.trim() === value) return;
    const t = setTimeout(() => latest.current(text.trim()), 200);
    return () => clearTimeout(t);
  }, [text, value]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '/' && !typingIn(e)) {
        e.preventDefault();
        input.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <input
      ref={input}
      className={own.filter}
      type="search"
      placeholder="Filter by name  /"
      aria-label="Filter objects by name"
      value={text}
      onChange={(e) => setText(e.target.value)}
      data-testid="objects-filter"
    />
  );
}

function ObjectTable({
  objs,
  entity,
  project,
  counts,
}: {
  objs: Obj[];
  entity: string;
  project: string;
  /** Live versions per object id; undefined while loading. */
  counts: Record<string, number> | undefined;
}) {
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          <th className={styles.first}>Name</th>
          <th>Class</th>
          <th className={styles.num}>Versions</th>
          <th>Last updated</th>
          <th>Tags</th>
          <th>Aliases</th>
        </tr>
      </thead>
      <tbody>
        {objs.map((o) => (
          <tr key={o.object_id} data-testid="object-row" data-id={o.object_id} data-group={groupOf(o)}>
            <td className={`${styles.first} ${styles.nameCell}`}>
              <Link
                to="/$entity/$project/objects/$name"
                params={{ entity, project, name: o.object_id }}
                data-testid="object-link"
              >
                {o.object_id}
              </Link>
            </td>
            <td>
              <span className={styles.badge} data-group={groupOf(o)}>
                {classLabel(o)}
              </span>
            </td>
            <td className={styles.num}>
              <Link
                to="/$entity/$project/objects/$name/versions/$digest"
                params={{ entity, project, name: o.object_id, digest: o.digest }}
                search={{}}
                title="Open the latest version"
                data-testid="object-versions"
              >
                {counts?.[o.object_id] === undefined ? '…' : formatCount(counts[o.object_id]!)}
              </Link>
            </td>
            <td className={styles.nowrap} title={formatTime(o.created_at)} data-testid="volatile">
              {timeAgo(o.created_at)}
            </td>
            <td>
              <TagChips tags={o.tags ?? []} />
            </td>
            {/* Every row is a latest version: only the user's own aliases say something. */}
            <td>
              <AliasChips aliases={(o.aliases ?? []).filter((a) => a !== 'latest')} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
