// SQL pieces shared by the object store's reads and its write procedures.
import { assertNever } from '../../../query/plan.js';
import type { VersionSelector } from '../../objects/object-store.js';

export const IN_LIST = 'IN (SELECT value FROM json_each(?))';
/** The versions of one object: parameters project_id, object_id. */
export const OBJ = 'project_id = ? AND object_id = ?';

/** SQL condition selecting one version of (v.project_id, v.object_id), and its parameters. */
export function selectorSql(sel: VersionSelector): [string, unknown[]] {
  switch (sel.kind) {
    case 'latest':
      return ['v.is_latest = 1', []];
    case 'index':
      return ['v.version_index = ?', [sel.index]];
    case 'digest':
      return ['v.digest = ?', [sel.digest]];
    case 'name':
      return [
        `v.digest = COALESCE((SELECT a.digest FROM object_aliases a
           WHERE a.project_id = v.project_id AND a.object_id = v.object_id AND a.alias = ?), ?)`,
        [sel.name, sel.name],
      ];
    default:
      return assertNever(sel);
  }
}
