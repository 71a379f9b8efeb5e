// The paths the calls table offers as columns: every key of the matching calls (the engines
// read them from the stored JSON), not of a page of them, so a key only old or rare calls
// carry is offered too.
import { MAX_CALL_PATHS, type UiCallPathsReq, type UiCallPathsRes } from '../../api/ui.js';
import { compileCallsQuery } from '../../query/compile-calls-query.js';
import type { Store } from '../../storage/store.js';

export async function callPaths(store: Pick<Store, 'calls'>, req: UiCallPathsReq): Promise<UiCallPathsRes> {
  const q = compileCallsQuery({ project_id: req.project_id, filter: req.filter, query: req.query, sort_by: [] });
  const paths = await store.calls.fieldPaths(q, MAX_CALL_PATHS + 1);
  return { paths: paths.slice(0, MAX_CALL_PATHS), complete: paths.length <= MAX_CALL_PATHS };
}
