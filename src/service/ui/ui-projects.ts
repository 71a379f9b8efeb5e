// The web UI's project list: every project having live calls or live objects, each with its
// live call count and newest call start, limited to what the caller may read. Weft keeps no
// table of projects (a project exists once something is written to it), so the list is the
// union of what the call and object stores hold.
import type { UiProject, UiProjectsRes } from '../../api/ui.js';
import type { Store } from '../../storage/store.js';
import { formatTimestamp, type Micros } from '../../time.js';
import { mayAccessProject, splitProjectId, type Access } from '../auth/auth-access.js';

/** Newest call first, projects without calls last; project_id (code-point order) breaks ties. */
function newestFirst(a: { id: string; last: Micros | null }, b: { id: string; last: Micros | null }): number {
  if (a.last !== b.last) {
    if (a.last === null) return 1;
    if (b.last === null) return -1;
    return b.last - a.last;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export async function listUiProjects(store: Pick<Store, 'calls' | 'objects'>, access: Access): Promise<UiProjectsRes> {
  const [summaries, withObjects] = await Promise.all([
    store.calls.projectSummaries(),
    store.objects.projectsWithObjects(),
  ]);
  const byId = new Map<string, { id: string; count: number; last: Micros | null }>();
  for (const s of summaries) byId.set(s.project_id, { id: s.project_id, count: s.call_count, last: s.last_started_at });
  for (const id of withObjects) if (!byId.has(id)) byId.set(id, { id, count: 0, last: null });
  const readable = [...byId.values()].filter((p) => mayAccessProject(access, p.id, 'read'));
  const projects = readable.sort(newestFirst).map(
    (p): UiProject => ({
      project_id: p.id,
      ...splitProjectId(p.id),
      call_count: p.count,
      last_call_at: p.last === null ? null : formatTimestamp(p.last),
    }),
  );
  return { projects };
}
