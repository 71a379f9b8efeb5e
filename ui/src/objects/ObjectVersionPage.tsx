// /ui/{entity}/{project}/objects/{name}/versions/{digest}: one version. A dataset shows its
// rows (?row=N selects one), an op its code, anything else its value; every kind has its
// value tab, and tags and aliases are edited in place.
import { useCallback } from 'react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { ApiError } from '../api/client';
import type { Obj } from '../api/types';
import { ErrorBanner } from '../shell/ErrorBanner';
import { ValueView } from '../render/ValueView';
import { formatTime, timeAgo } from '../format';
import { classLabel, groupOf, opSourceOf, tableDigestOf, withoutClassKeys } from './objectKinds';
import { useObjectVersion } from './objectsApi';
import type { VersionTab } from './objectsSearch';
import { ObjectCrumbs } from './ObjectCrumbs';
import { DatasetRows } from './DatasetRows';
import { OpCode } from './OpCode';
import { TagEditor } from './TagEditor';
import styles from './Objects.module.css';
import own from './ObjectVersionPage.module.css';
import { usePageTitle } from '../shell/usePageTitle';

const route = getRouteApi('/$entity/$project/objects/$name/versions/$digest');
const TAB_LABELS: Record<VersionTab, string> = { rows: 'Rows', code: 'Code', value: 'Value' };

export function ObjectVersionPage() {
  const { entity, project, name, digest } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const projectId = `${entity}/${project}`;
  usePageTitle(`${name} · ${projectId}`);
  const q = useObjectVersion(projectId, name, digest);
  const obj = q.data;

  const tables = obj ? tableDigestOf(obj.val) : null;
  const source = obj?.kind === 'op' ? opSourceOf(obj.val) : null;
  const tabs: VersionTab[] = [...(tables ? (['rows'] as const) : []), ...(source ? (['code'] as const) : []), 'value'];
  const tab = search.tab !== undefined && tabs.includes(search.tab) ? search.tab : tabs[0]!;
  const selectRow = useCallback(
    (row: number | undefined) => void navigate({ search: (s) => ({ ...s, row }), replace: true }),
    [navigate],
  );

  return (
    <div className={styles.fill} data-testid="version-page">
      <header className={`${own.head} ${obj && tabs.length === 1 ? own.divided : ''}`}>
        <ObjectCrumbs entity={entity} project={project} name={name}>
          {obj ? `v${obj.version_index}` : digest.slice(0, 8)}
        </ObjectCrumbs>
        {q.isPending && (
          <p className={styles.muted} data-testid="loading">
            Loading version…
          </p>
        )}
        {q.isError &&
          (q.error instanceof ApiError && q.error.status === 404 ? (
            <p className={styles.empty} data-testid="no-version">
              No version <code>{digest}</code> of <code>{name}</code>.{' '}
              <Link to="/$entity/$project/objects/$name" params={{ entity, project, name }}>
                All versions
              </Link>
            </p>
          ) : (
            <ErrorBanner error={q.error} onRetry={() => void q.refetch()} />
          ))}
        {obj && <VersionHeader obj={obj} entity={entity} project={project} />}
        {obj && (
          <TagEditor
            projectId={projectId}
            objectId={name}
            digest={obj.digest}
            tags={obj.tags ?? []}
            aliases={obj.aliases ?? []}
          />
        )}
        {obj && tabs.length > 1 && (
          <nav className={own.tabs} role="tablist">
            {tabs.map((t) => (
              <button
                type="button"
                key={t}
                role="tab"
                aria-selected={t === tab}
                className={t === tab ? own.activeTab : ''}
                onClick={() =>
                  void navigate({ search: (s) => ({ ...s, tab: t === tabs[0] ? undefined : t }), replace: true })
                }
                data-testid={`tab-${t}`}
              >
                {TAB_LABELS[t]}
              </button>
            ))}
          </nav>
        )}
      </header>
      {obj && tab === 'rows' && tables && (
        <DatasetRows key={tables} projectId={projectId} digest={tables} selected={search.row} onSelect={selectRow} />
      )}
      {obj && tab === 'code' && source && (
        <div className={own.body}>
          <OpCode projectId={projectId} file={source} />
        </div>
      )}
      {obj && tab === 'value' && (
        <div className={own.body} data-testid="object-value">
          <ValueView value={withoutClassKeys(obj.val)} />
        </div>
      )}
    </div>
  );
}

function VersionHeader({ obj, entity, project }: { obj: Obj; entity: string; project: string }) {
  const name = obj.object_id;
  const ref = `weave:///${obj.project_id}/${obj.kind === 'op' ? 'op' : 'object'}/${name}:${obj.digest}`;
  return (
    <>
      <div className={styles.titleRow}>
        <h1 className={styles.title}>
          {name} <span className={own.version}>v{obj.version_index}</span>
        </h1>
        <span className={styles.badge} data-group={groupOf(obj)}>
          {classLabel(obj)}
        </span>
        <div className={styles.actions}>
          {obj.kind === 'op' && (
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
          {obj.version_index > 0 && (
            <Link
              className={styles.button}
              to="/$entity/$project/objects/$name/diff"
              params={{ entity, project, name }}
              search={{ a: `v${obj.version_index - 1}`, b: obj.digest }}
              data-testid="diff-previous"
            >
              Compare with v{obj.version_index - 1}
            </Link>
          )}
          <Link
            className={styles.button}
            to="/$entity/$project/objects/$name"
            params={{ entity, project, name }}
            data-testid="all-versions"
          >
            All versions
          </Link>
        </div>
      </div>
      <div className={styles.facts}>
        <span>
          digest <code data-testid="version-digest">{obj.digest}</code>
        </span>
        <span title={formatTime(obj.created_at)}>created {timeAgo(obj.created_at)}</span>
        {obj.wb_user_id && <span>by {obj.wb_user_id}</span>}
        <span className={own.ref}>
          <code title={ref}>{ref}</code>
          <button
            type="button"
            onClick={() => void navigator.clipboard?.writeText(ref).catch(() => undefined)}
            title="Copy the ref, to get this version from an SDK"
          >
            Copy ref
          </button>
        </span>
      </div>
    </>
  );
}
