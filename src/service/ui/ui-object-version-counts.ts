// How many live versions each object has, for the object listings: a version's index counts
// deleted versions too (and a re-published digest keeps its old index), so it is no count.
import type { UiObjectVersionCountsReq, UiObjectVersionCountsRes } from '../../api/ui.js';
import type { Store } from '../../storage/store.js';

export async function objectVersionCounts(
  store: Pick<Store, 'objects'>,
  req: UiObjectVersionCountsReq,
): Promise<UiObjectVersionCountsRes> {
  const ids = [...new Set(req.object_ids)];
  const found = await store.objects.versionCounts(req.project_id, ids);
  return { counts: Object.fromEntries(ids.map((id) => [id, found.get(id) ?? 0])) };
}
