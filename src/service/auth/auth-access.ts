// What a caller may do, from its roles: readers read, writers and admins write; an admin
// role on an entity also lets the caller manage the keys of that entity's users.
import { grantsWithin, type Grant, type Role } from '../../storage/auth/auth-store.js';

export type AccessLevel = 'read' | 'write' | 'admin';

const RANK: Readonly<Record<Role, number>> = { reader: 1, writer: 2, admin: 3 };
const NEEDS: Readonly<Record<AccessLevel, number>> = { read: 1, write: 2, admin: 3 };

export interface Access {
  /** True for the open (keyless, loopback) mode: everything is allowed. */
  readonly all: boolean;
  readonly grants: readonly Grant[];
}

export const OPEN_ACCESS: Access = { all: true, grants: [] };

/** "entity/project" -> its parts; a project id without "/" is an entity-level name. */
export function splitProjectId(projectId: string): { entity: string; project: string } {
  const i = projectId.indexOf('/');
  return i < 0
    ? { entity: projectId, project: '' }
    : { entity: projectId.slice(0, i), project: projectId.slice(i + 1) };
}

/** The strongest role the grants give on a project (0 = none). */
function rankOn(grants: readonly Grant[], projectId: string): number {
  const { entity, project } = splitProjectId(projectId);
  let best = 0;
  for (const g of grants) {
    if (g.entity === entity && (g.project === null || g.project === project)) best = Math.max(best, RANK[g.role]);
  }
  return best;
}

export function mayAccessProject(access: Access, projectId: string, level: AccessLevel): boolean {
  return access.all || rankOn(access.grants, projectId) >= NEEDS[level];
}

/** Entities on which the caller holds an entity-wide admin role. */
export function adminEntities(access: Access): ReadonlySet<string> {
  return new Set(access.grants.filter((g) => g.role === 'admin' && g.project === null).map((g) => g.entity));
}

export function isAdmin(access: Access): boolean {
  return access.all || adminEntities(access).size > 0;
}

/** The entities whose users' keys the caller manages: null = every entity (open mode, the CLI). */
export function managedScope(access: Access): readonly string[] | null {
  return access.all ? null : [...adminEntities(access)];
}

/** May the caller manage keys of a user holding `grants`? Only if it admins every entity they touch. */
export function mayManage(access: Access, grants: readonly Grant[]): boolean {
  return grantsWithin(grants, managedScope(access));
}
