// /ui/{entity}/{project}/objects/{name}/diff?a=&b=&diffOnly=1: two versions' values side by
// side, as canonical JSON (sorted keys) diffed line by line; two versions of an op compare
// their code (the source files the values name), not the file digests. Changed lines are
// marked, and the words that changed inside them; diffOnly folds the unchanged lines away.
import { useEffect, useMemo } from 'react';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { Obj } from '../api/types';
import { ErrorBanner } from '../shell/ErrorBanner';
import { formatCount, formatTime } from '../format';
import { opSourceOf, shortDigest } from './objectKinds';
import { useFileText, useObjectVersion, useObjectVersions } from './objectsApi';
import { dedentTail } from './OpCode';
import { ObjectCrumbs } from './ObjectCrumbs';
import { countChanges, sideBySide, visibleRows } from './lineDiff';
import { stableStringify } from './valueText';
import { DiffTable } from './DiffTable';
import styles from './Objects.module.css';
import own from './ObjectDiffPage.module.css';
import { usePageTitle } from '../shell/usePageTitle';

const route = getRouteApi('/$entity/$project/objects/$name/diff');

export function ObjectDiffPage() {
  const { entity, project, name } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const projectId = `${entity}/${project}`;
  usePageTitle(`${name}: compare versions · ${projectId}`);
  const versions = useObjectVersions(projectId, name);
  const a = useObjectVersion(projectId, name, search.a);
  const b = useObjectVersion(projectId, name, search.b);
  const setSearch = (patch: Partial<typeof search>) =>
    void navigate({ search: (s) => ({ ...s, ...patch }), replace: true });

  // Without a pair in the URL, compare the two newest versions; "v<N>" or an alias in the
  // URL becomes the digest it names, so the link keeps meaning the same two versions.
  // biome-ignore lint/correctness/useExhaustiveDependencies: fills in a missing pair once; setSearch is rebuilt each render
  useEffect(() => {
    if ((search.a === undefined || search.b === undefined) && versions.objs.length >= 2) {
      setSearch({ a: search.a ?? versions.objs[1]!.digest, b: search.b ?? versions.objs[0]!.digest });
    }
  }, [search.a, search.b, versions.objs]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: rewrites the URL when the resolved versions arrive, not on every URL change
  useEffect(() => {
    if (a.data && b.data && (a.data.digest !== search.a || b.data.digest !== search.b))
      setSearch({ a: a.data.digest, b: b.data.digest });
  }, [a.data, b.data]);

  const texts = useDiffTexts(projectId, a.data, b.data);
  const rows = useMemo(() => (texts?.pair ? sideBySide(texts.pair[0], texts.pair[1]) : null), [texts?.pair]);
  const counts = useMemo(() => (rows ? countChanges(rows) : null), [rows]);
  const diffOnly = search.diffOnly === 1;
  const shown = useMemo(() => (rows ? visibleRows(rows, diffOnly) : null), [rows, diffOnly]);
  const error = a.error ?? b.error ?? versions.error ?? texts?.error ?? null;
  const single = versions.complete && versions.objs.length < 2 && (!search.a || !search.b);
  const options = useMemo(() => {
    const list = [...versions.objs];
    for (const o of [a.data, b.data]) if (o && !list.some((v) => v.digest === o.digest)) list.push(o);
    return list.sort((x, y) => y.version_index - x.version_index);
  }, [versions.objs, a.data, b.data]);

  return (
    <div className={styles.fill} data-testid="diff-page">
      <header className={own.head}>
        <ObjectCrumbs entity={entity} project={project} name={name}>
          Compare versions
        </ObjectCrumbs>
        <div className={styles.titleRow}>
          <h1 className={styles.title}>{name}</h1>
          {texts?.file && (
            <span className={styles.muted} data-testid="diff-code">
              code · {texts.file}
            </span>
          )}
          {counts && (
            <span className={own.summary} data-testid="diff-summary">
              {counts.changed + counts.removed + counts.added === 0 ? (
                'No differences'
              ) : (
                <>
                  {counts.changed > 0 && <span className={own.sumChanged}>{formatCount(counts.changed)} changed</span>}
                  {counts.removed > 0 && <span className={own.sumRemoved}>−{formatCount(counts.removed)}</span>}
                  {counts.added > 0 && <span className={own.sumAdded}>+{formatCount(counts.added)}</span>}
                  <span className={styles.muted}>lines</span>
                </>
              )}
            </span>
          )}
        </div>
        {!single && (
          <div className={own.toolbar}>
            <VersionSelect
              label="From"
              value={a.data?.digest ?? search.a}
              options={options}
              onChange={(d) => setSearch({ a: d })}
              testid="diff-a"
            />
            <button
              type="button"
              onClick={() => setSearch({ a: search.b, b: search.a })}
              disabled={!search.a || !search.b}
              title="Swap the two sides"
              aria-label="Swap the two sides"
              data-testid="diff-swap"
            >
              ⇄ Swap
            </button>
            <VersionSelect
              label="To"
              value={b.data?.digest ?? search.b}
              options={options}
              onChange={(d) => setSearch({ b: d })}
              testid="diff-b"
            />
            <label className={own.toggle}>
              <input
                type="checkbox"
                checked={diffOnly}
                onChange={(e) => setSearch({ diffOnly: e.target.checked ? 1 : undefined })}
                data-testid="diff-only"
              />
              Changes only
            </label>
            {diffOnly && counts && counts.same > 0 && (
              <span className={styles.muted} data-testid="diff-hidden-total">
                {formatCount(counts.same)} unchanged line{counts.same === 1 ? '' : 's'} hidden
              </span>
            )}
          </div>
        )}
      </header>
      {error !== null && (
        <ErrorBanner
          error={error}
          onRetry={() => {
            void a.refetch();
            void b.refetch();
            versions.refetch();
          }}
        />
      )}
      {single && (
        <p className={`${styles.empty} ${own.pad}`} data-testid="diff-single">
          {versions.objs.length === 0
            ? `No object named ${name}.`
            : `${name} has a single version: there is nothing to compare yet.`}
        </p>
      )}
      {(a.isLoading || b.isLoading || (versions.isPending && (!search.a || !search.b))) && (
        <p className={`${styles.muted} ${own.pad}`} data-testid="loading">
          Loading versions…
        </p>
      )}
      {a.data && b.data && shown && (
        <DiffTable
          left={<SideHead obj={a.data} entity={entity} project={project} />}
          right={<SideHead obj={b.data} entity={entity} project={project} />}
          shown={shown}
          onUnfold={() => setSearch({ diffOnly: undefined })}
        />
      )}
    </div>
  );
}

/**
 * What the two sides show: canonical JSON of the values, or, when both are ops, their code
 * (null `pair` while a file loads).
 */
function useDiffTexts(projectId: string, a: Obj | undefined, b: Obj | undefined) {
  const files = a && b ? ([opSourceOf(a.val), opSourceOf(b.val)] as const) : null;
  const code = files?.[0] && files[1] ? files : null;
  const left = useFileText(projectId, code?.[0]?.digest);
  const right = useFileText(projectId, code?.[1]?.digest);
  const isCode = code !== null;
  const pair = useMemo(() => {
    if (!a || !b) return null;
    if (!isCode) return [stableStringify(a.val), stableStringify(b.val)] as const;
    if (left.data === undefined || right.data === undefined) return null;
    const tidy = (t: string) => dedentTail(t.replace(/\n+$/, ''));
    return [tidy(left.data), tidy(right.data)] as const;
  }, [a, b, isCode, left.data, right.data]);
  if (!a || !b) return null;
  return { pair, file: code ? code[1]!.name : null, error: left.error ?? right.error };
}

function VersionSelect({
  label,
  value,
  options,
  onChange,
  testid,
}: {
  label: string;
  value: string | undefined;
  options: Obj[];
  onChange: (d: string) => void;
  testid: string;
}) {
  return (
    <label className={own.select}>
      <span className={styles.muted}>{label}</span>
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value)} data-testid={testid}>
        {value === undefined && <option value="">…</option>}
        {options.map((o) => (
          <option key={o.digest} value={o.digest}>
            v{o.version_index} · {shortDigest(o.digest)}
            {(o.aliases ?? []).length > 0 ? ` · ${(o.aliases ?? []).join(', ')}` : ''}
          </option>
        ))}
      </select>
    </label>
  );
}

function SideHead({ obj, entity, project }: { obj: Obj; entity: string; project: string }) {
  return (
    <span className={own.sideHead} data-testid="diff-side" data-version={obj.version_index} data-id={obj.digest}>
      <Link
        to="/$entity/$project/objects/$name/versions/$digest"
        params={{ entity, project, name: obj.object_id, digest: obj.digest }}
        search={{}}
      >
        v{obj.version_index}
      </Link>
      <code title={obj.digest}>{shortDigest(obj.digest)}</code>
      <span className={styles.muted}>{formatTime(obj.created_at)}</span>
    </span>
  );
}
