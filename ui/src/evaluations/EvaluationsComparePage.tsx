// /ui/{entity}/{project}/evaluations/compare?ids=[...]&baseline=: two or more evaluation
// runs: a scorecard against the baseline and a chart per metric, each metric's direction
// (?lower= / ?higher= override the default), then every example side by side by its dataset
// columns, filtered to regressions or improvements, one open in a panel (?example=). All of
// it in the URL.
import { useMemo } from 'react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { ErrorBanner } from '../shell/ErrorBanner';
import { formatCount } from '../format';
import {
  beats,
  datasetColumns,
  type Direction,
  directions,
  evalRun,
  exampleKey,
  exampleResult,
  type EvalRun,
} from './evalData';
import { ExampleTable, type ExampleRowData } from './ExampleTable';
import { ExamplePanel } from './ExamplePanel';
import { MetricCharts } from './MetricCharts';
import { Scorecard, type DeltaMode } from './Scorecard';
import { useRefValues, useRuns } from './useEvaluations';
import styles from './Evaluations.module.css';
import { usePageTitle } from '../shell/usePageTitle';

const route = getRouteApi('/$entity/$project/evaluations/compare');

/** Whether run `r` scores worse (or better) than the baseline `b` on `score` (any score if undefined). */
function differs(
  r: ExampleRowData['results'][number],
  b: ExampleRowData['results'][number],
  score: string | undefined,
  want: 'regressions' | 'improvements',
  direction: Direction,
): boolean {
  if (!r || !b) return false;
  for (const [k, s] of r.scores) {
    if (score !== undefined && k !== score) continue;
    const base = b.scores.get(k);
    if (base === undefined || base === s) continue;
    const better = beats(direction(k), s, base);
    if (better === (want === 'improvements')) return true;
  }
  return false;
}

export function EvaluationsComparePage() {
  const { entity, project } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const projectId = `${entity}/${project}`;
  usePageTitle(`Compare evaluations · ${projectId}`);
  const ids = search.ids ?? [];
  const results = useRuns(projectId, ids);
  const loaded = results.every((r) => r.data);
  const error = results.find((r) => r.error)?.error;
  const runs: EvalRun[] = loaded ? results.flatMap((r) => (r.data!.run ? [evalRun(r.data!.run)] : [])) : [];
  const baselineId = search.baseline ?? ids[0];
  const direction = directions(search.lower, search.higher);
  const baselineIndex = Math.max(
    0,
    runs.findIndex((r) => r.call.id === baselineId),
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed when a run's examples (re)load, not when the query objects are rebuilt
  const rows = useMemo(() => {
    if (!loaded) return [];
    const byKey = new Map<string, ExampleRowData>();
    results.forEach((r, i) => {
      for (const c of r.data!.examples) {
        const key = exampleKey(c);
        const row = byKey.get(key) ?? { key, example: c.inputs.example ?? c.inputs, results: ids.map(() => undefined) };
        row.results[i] = exampleResult(c);
        byKey.set(key, row);
      }
    });
    return [...byKey.values()];
  }, [loaded, ...results.map((r) => r.dataUpdatedAt)]);
  const refs = useRefValues(rows.map((r) => r.example).filter((e): e is string => typeof e === 'string'));
  const resolved = useMemo(
    () =>
      rows.map((r) =>
        typeof r.example === 'string' && refs.data?.has(r.example) ? { ...r, example: refs.data.get(r.example) } : r,
      ),
    [rows, refs.data],
  );
  const shown = search.filter
    ? resolved.filter((row) =>
        row.results.some(
          (r, i) =>
            i !== baselineIndex && differs(r, row.results[baselineIndex], search.score, search.filter!, direction),
        ),
      )
    : resolved;
  const scores = [...new Set(rows.flatMap((r) => r.results.flatMap((x) => (x ? [...x.scores.keys()] : []))))];
  const set = (patch: Record<string, unknown>) => void navigate({ search: (s) => ({ ...s, ...patch }), replace: true });
  // Flipping a metric writes the choice that differs from the default, and only that.
  const flip = (m: string) => {
    const want = direction(m) === 'lower' ? 'higher' : 'lower';
    const lower = (search.lower ?? []).filter((x) => x !== m);
    const higher = (search.higher ?? []).filter((x) => x !== m);
    if (directions()(m) !== want) (want === 'lower' ? lower : higher).push(m);
    set({ lower: lower.length > 0 ? lower : undefined, higher: higher.length > 0 ? higher : undefined });
  };
  const columns = useMemo(() => datasetColumns(resolved.map((r) => r.example)), [resolved]);
  const open = search.example === undefined ? undefined : resolved.find((r) => r.key === search.example);
  const runNames = runs.map((r) => r.model || r.name);

  if (ids.length < 2) {
    return (
      <div className={styles.page}>
        <p>
          Pick two or more runs to compare on the{' '}
          <Link to="/$entity/$project/evaluations" params={{ entity, project }}>
            evaluations
          </Link>{' '}
          page.
        </p>
      </div>
    );
  }
  return (
    <div className={styles.page}>
      <div className={styles.bar}>
        <h1>Compare {ids.length} evaluation runs</h1>
        <label>
          Baseline
          <select
            value={runs[baselineIndex]?.call.id ?? ''}
            onChange={(e) => set({ baseline: e.target.value })}
            data-testid="baseline"
          >
            {runs.map((r) => (
              <option key={r.call.id} value={r.call.id}>
                {r.model || r.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Change as
          <select
            value={search.delta ?? 'diff'}
            onChange={(e) => set({ delta: e.target.value === 'diff' ? undefined : (e.target.value as DeltaMode) })}
            data-testid="delta-mode"
          >
            <option value="diff">difference</option>
            <option value="pct">percent</option>
            <option value="ratio">ratio</option>
          </select>
        </label>
      </div>
      {error ? <ErrorBanner error={error} onRetry={() => results.forEach((r) => void r.refetch())} /> : null}
      {!loaded && !error && <p className={styles.muted}>Loading runs…</p>}
      {loaded && runs.length > 0 && (
        <>
          <section className={styles.section}>
            <h2>Scores</h2>
            <Scorecard
              runs={runs}
              baseline={runs[baselineIndex]!}
              mode={search.delta ?? 'diff'}
              direction={direction}
              onFlip={flip}
            />
            <MetricCharts runs={runs} baseline={runs[baselineIndex]!} direction={direction} />
          </section>
          <section
            className={styles.section}
            style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 300 }}
          >
            <div className={styles.bar}>
              <h2>Examples</h2>
              <label>
                Show
                <select
                  value={search.filter ?? ''}
                  onChange={(e) => set({ filter: e.target.value === '' ? undefined : e.target.value })}
                  data-testid="example-filter"
                >
                  <option value="">all</option>
                  <option value="regressions">regressions against the baseline</option>
                  <option value="improvements">improvements over the baseline</option>
                </select>
              </label>
              <label>
                on
                <select
                  value={search.score ?? ''}
                  onChange={(e) => set({ score: e.target.value === '' ? undefined : e.target.value })}
                  data-testid="example-score"
                >
                  <option value="">any score</option>
                  {scores.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              </label>
              <span className={styles.muted} data-testid="examples-count">
                {formatCount(shown.length)} of {formatCount(rows.length)} examples
              </span>
            </div>
            <ExampleTable
              rows={shown}
              columns={columns}
              runNames={runNames}
              baselineIndex={baselineIndex}
              direction={direction}
              onOpen={(key) => set({ example: key })}
            />
          </section>
          {open && (
            <ExamplePanel
              row={open}
              runNames={runNames}
              baselineIndex={baselineIndex}
              direction={direction}
              entity={entity}
              project={project}
              onClose={() => set({ example: undefined })}
            />
          )}
        </>
      )}
    </div>
  );
}
