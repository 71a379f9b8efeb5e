// project/stats: bytes the project stores, by kind. A kind not asked for is 0 (the answer's
// fields are all required, as in Weave's ProjectStatsRes).
import type { ProjectStatsReq, ProjectStatsRes } from '../../api/projects.js';
import type { Store } from '../../storage/store.js';

export async function projectStats(store: Store, req: ProjectStatsReq): Promise<ProjectStatsRes> {
  const asked = (flag: boolean | null | undefined, size: () => Promise<number>) =>
    flag === false ? Promise.resolve(0) : size();
  const [traces, objects, tables, files] = await Promise.all([
    asked(req.include_trace_storage_size, () => store.calls.totalStorageSize(req.project_id)),
    asked(req.include_object_storage_size, () => store.objects.totalSize(req.project_id)),
    asked(req.include_table_storage_size, () => store.tables.totalSize(req.project_id)),
    asked(req.include_file_storage_size, () => store.files.totalSize(req.project_id)),
  ]);
  return {
    trace_storage_size_bytes: traces,
    objects_storage_size_bytes: objects,
    tables_storage_size_bytes: tables,
    files_storage_size_bytes: files,
  };
}
