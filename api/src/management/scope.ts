import { assignableRoles, can, ROLES, type Principal, type Role } from 'shared-auth/policy';

/**
 * What a caller of the management area may see and change (docs/architecture.md#accounts-sessions-and-abuse-limits), as pure rules: the routes
 * load the facts, these decide. An Administrator has every operator; a Manager the operators they
 * belong to.
 */
export interface ManagementScope {
  all: boolean;
  /** The caller's operators (meaningful when `all` is false). */
  operatorIds: ReadonlySet<number>;
  /** Roles the caller may hand out, and so the roles of users they may change. */
  roles: readonly Role[];
}

export const EVERYTHING: ManagementScope = { all: true, operatorIds: new Set(), roles: ROLES };

/** Whether the caller's scope is every operator: their own operators need not be loaded then. */
export function managesEveryOperator(caller: Principal): boolean {
  return can(caller, 'canAdminister');
}

export function scopeFor(caller: Principal, ownOperatorIds: readonly number[]): ManagementScope {
  return managesEveryOperator(caller) ? EVERYTHING : { all: false, operatorIds: new Set(ownOperatorIds), roles: assignableRoles(caller) };
}

export function coversOperator(scope: ManagementScope, operatorId: number): boolean {
  return scope.all || scope.operatorIds.has(operatorId);
}

/** A user is visible when they belong to at least one operator of the scope. */
export function seesUser(scope: ManagementScope, userOperatorIds: readonly number[]): boolean {
  return scope.all || userOperatorIds.some((id) => scope.operatorIds.has(id));
}

export type UserDenial = 'hidden' | 'administrator' | 'foreign-operators' | null;

/**
 * Whether the caller may change a user. Nobody changes a user whose role they could not assign (a
 * Manager and an Administrator); deleting or deactivating
 * also needs every operator of the user to be the manager's, since it takes the user away from all of them.
 */
export function userDenial(scope: ManagementScope, target: { role: Role; operatorIds: readonly number[] }, change: 'edit' | 'remove'): UserDenial {
  if (scope.all) return null;
  if (!seesUser(scope, target.operatorIds)) return 'hidden';
  if (!scope.roles.includes(target.role)) return 'administrator';
  if (change === 'remove' && target.operatorIds.some((id) => !scope.operatorIds.has(id))) return 'foreign-operators';
  return null;
}

/**
 * The role is global: it decides what a user may do for every operator they belong to. So a Manager
 * changes it only for a user all of whose operators are theirs; otherwise a Manager of one operator
 * could make someone a Manager of another (docs/architecture.md#accounts-sessions-and-abuse-limits: "only within their own operators").
 */
export function roleChangeDenial(scope: ManagementScope, target: { role: Role; operatorIds: readonly number[] }, newRole: Role): UserDenial {
  if (scope.all || newRole === target.role) return null;
  return target.operatorIds.some((id) => !scope.operatorIds.has(id)) ? 'foreign-operators' : null;
}

/**
 * The memberships after an edit: the caller decides within their scope; memberships outside it (a
 * Manager editing a user who also works for another operator) are kept as they were.
 */
export function mergeMemberships(
  scope: ManagementScope,
  current: readonly number[],
  requested: readonly number[],
  operatorOf: (id: number) => number | undefined,
): number[] {
  if (scope.all) return [...new Set(requested)];
  const kept = current.filter((id) => {
    const operatorId = operatorOf(id);
    return operatorId === undefined || !scope.operatorIds.has(operatorId);
  });
  return [...new Set([...kept, ...requested])];
}
