// The turn calls of a project grouped by thread, for threads/stream_query. A turn call is a
// call whose id is its turn_id (Weave's rule); only live calls count. Each thread's turns come
// back as one JSON array of [id, started_at, ended_at], from which the service derives the
// counts, times and percentiles. Values travel only as parameters; the thread list as one
// JSON-array parameter.
import type { ThreadTurnsFilter } from '../../calls/call-store.js';

export function buildThreadTurnsSelect(
  projectId: string,
  filter: ThreadTurnsFilter,
  now: number,
): { sql: string; params: unknown[] } {
  const where = [
    'project_id = ?',
    'id = turn_id',
    'started_at IS NOT NULL',
    'deleted_at IS NULL',
    '(expire_at IS NULL OR expire_at > ?)',
  ];
  const params: unknown[] = [projectId, now];
  if (filter.threadIds !== null) {
    where.push('thread_id IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(filter.threadIds));
  } else {
    where.push("thread_id IS NOT NULL AND thread_id <> ''");
  }
  if (filter.startedAfter !== null) {
    where.push('started_at > ?');
    params.push(filter.startedAfter);
  }
  if (filter.startedBefore !== null) {
    where.push('started_at < ?');
    params.push(filter.startedBefore);
  }
  const sql = `SELECT thread_id, json_group_array(json_array(id, started_at, ended_at)) AS turns
    FROM calls WHERE ${where.join(' AND ')} GROUP BY thread_id`;
  return { sql, params };
}
