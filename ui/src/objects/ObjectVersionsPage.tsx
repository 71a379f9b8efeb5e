// /ui/{entity}/{project}/objects/{name}: every version of one object, newest first. Two
// ticked versions open their diff; an op links to its calls.
import { useState } from 'react';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { ErrorBanner } from '../shell/ErrorBanner';
import { formatCount, formatTime, timeAgo } from '../format';
import { classLabel, groupOf, shortDigest } from './objectKinds';
import { useObjectVersions, useVersionCounts } from './objectsApi';
import { AliasChips, TagChips } from './Chips';
import { ObjectCrumbs } from './ObjectCrumbs';
import styles from './Objects.module.css';
import own from './ObjectVersionsPage.module.css';
import { usePageTitle } from '../shell/usePageTitle';

const route = getRouteApi('/$entity/$project/objects/$name');

export function ObjectVersionsPage() {
  const { entity, project, name } = route.useParams();
  const navigate = useNavigate();
  const projectId = `${entity}/${project}`;
  usePageTitle(`${name}: versions · ${projectId}`);
  const listing = useObjectVersions(projectId, name);
  const [picked, setPicked] = useState<string[]>([]);
  const latest = listing.objs[0];
  const total = useVersionCounts(projectId, listing.complete ? [] : [name])?.[name];

  const toggle = (digest: string) =>
    setPicked((p) => (p.includes(digest) ? p.filter((d) => d !== digest) : [...p, digest].slice(-2)));
  const compare = () => {
    // Older on the left: the diff reads as "what changed since".
    const [a, b] = [...picked].sort((x, y) => indexOf(x) - indexOf(y));
    void navigate({ to: '/$entity/$project/objects/$name/diff', params: { entity, project, name }, search: { a, b } });
  };
  const indexOf = (digest: string) => listing.objs.find((o) => o.digest === digest)?.version_index ?? 0;

  return (
    <div className={styles.page} data-testid="versions-page">
      <ObjectCrumbs entity={entity} project={project} name={name} />
      <div className={styles.titleRow}>
        <h1 className={styles.title}>{name}</h1>
        {latest && (
          <span className={styles.badge} data-group={groupOf(latest)}>
            {classLabel(latest)}
          </span>
        )}
        <div className={styles.actions}>
          {latest?.kind === 'op' && (
            <Link
              className={styles.button}
              to="/$entity/$project/calls"
              params={{ entity, project }}
              search={{ op: name }}
              data-testid="op-calls"
            >
              Calls of this op →
            </Link>
          )}
          {listing.objs.length >= 2 && (
            <button
              type="button"
              className={`${styles.button} ${picked.length === 2 ? styles.primary : ''}`}
              disabled={picked.length !== 2}
              onClick={compare}
              title={picked.length === 2 ? 'Compare the two ticked versions' : 'Tick two versions to compare them'}
              data-testid="compare"
            >
              {picked.length === 2
                ? `Compare v${indexOf(picked[0]!)} and v${indexOf(picked[1]!)}`
                : `Tick two versions to compare (${picked.length}/2)`}
            </button>
          )}
        </div>
      </div>
      {latest && (
        <div className={styles.facts}>
          <span data-testid="versions-total">
            {listing.complete
              ? `${formatCount(listing.objs.length)} version${listing.objs.length === 1 ? '' : 's'}`
              : `${formatCount(listing.objs.length)} of ${total === undefined ? '…' : formatCount(total)} versions loaded`}
          </span>
          <span title={formatTime(latest.created_at)}>last updated {timeAgo(latest.created_at)}</span>
        </div>
      )}
      {listing.error !== null && <ErrorBanner error={listing.error} onRetry={listing.refetch} />}
      {listing.isPending && (
        <p className={styles.muted} data-testid="loading">
          Loading versions…
        </p>
      )}
      {listing.complete && listing.objs.length === 0 && listing.error === null && (
        <p className={styles.empty} data-testid="no-object">
          No object named <code>{name}</code> in {projectId}.{' '}
          <Link to="/$entity/$project/objects" params={{ entity, project }}>
            All objects
          </Link>
        </p>
      )}
      {listing.objs.length > 0 && (
        <table className={`${styles.table} ${own.versions}`} data-testid="versions">
          <thead>
            <tr>
              <th className={styles.first} aria-label="Compare" />
              <th>Version</th>
              <th>Digest</th>
              <th>Created</th>
              <th>Tags</th>
              <th>Aliases</th>
              <th aria-label="Changes" />
            </tr>
          </thead>
          <tbody>
            {listing.objs.map((o, i) => (
              <tr
                key={o.digest}
                className={picked.includes(o.digest) ? styles.selectedRow : ''}
                data-testid="version-row"
                data-index={i}
                data-id={o.digest}
                data-version={o.version_index}
              >
                <td className={styles.first}>
                  <input
                    disabled={listing.objs.length < 2}
                    type="checkbox"
                    checked={picked.includes(o.digest)}
                    onChange={() => toggle(o.digest)}
                    aria-label={`Compare v${o.version_index}`}
                    data-testid="version-pick"
                  />
                </td>
                <td className={styles.nowrap}>
                  <Link
                    to="/$entity/$project/objects/$name/versions/$digest"
                    params={{ entity, project, name, digest: o.digest }}
                    search={{}}
                    className={own.version}
                    data-testid="version-link"
                  >
                    v{o.version_index}
                  </Link>
                </td>
                <td className={styles.mono} title={o.digest}>
                  {shortDigest(o.digest)}
                </td>
                <td className={styles.nowrap} title={timeAgo(o.created_at)} data-testid="volatile">
                  {formatTime(o.created_at)}
                </td>
                <td>
                  <TagChips tags={o.tags ?? []} />
                </td>
                <td>
                  <AliasChips aliases={o.aliases ?? []} />
                </td>
                <td className={styles.nowrap}>
                  {listing.objs[i + 1] && (
                    <Link
                      to="/$entity/$project/objects/$name/diff"
                      params={{ entity, project, name }}
                      search={{ a: listing.objs[i + 1]!.digest, b: o.digest }}
                      className={own.changes}
                      data-testid="version-changes"
                    >
                      changes since v{listing.objs[i + 1]!.version_index}
                    </Link>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {listing.loadMore && (
        <button
          type="button"
          className={own.more}
          onClick={listing.loadMore}
          disabled={listing.loadingMore}
          data-testid="versions-more"
        >
          {listing.loadingMore ? 'Loading…' : 'Load older versions'}
        </button>
      )}
    </div>
  );
}
