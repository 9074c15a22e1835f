import type { Role } from 'shared-auth/policy';

/**
 * What a caller of the management area may see and change (DESIGN §4), as pure rules: the routes
 * load the facts, these decide. An Administrator has every operator; a Manager the operators they
 * belong to.
 */
export interface ManagementScope {
  all: boolean;
  /** The caller's operators (meaningful when `all` is false). */
  operatorIds: ReadonlySet<number>;
}

export const EVERYTHING: ManagementScope = { all: true, operatorIds: new Set() };

export function scopeFor(role: Role, ownOperatorIds: readonly number[]): ManagementScope {
  return role === 'Administrator' ? EVERYTHING : { all: false, operatorIds: new Set(ownOperatorIds) };
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
 * Whether the caller may change a user. Managers never touch Administrators; deleting or deactivating
 * also needs every operator of the user to be the manager's, since it takes the user away from all of them.
 */
export function userDenial(scope: ManagementScope, target: { role: Role; operatorIds: readonly number[] }, change: 'edit' | 'remove'): UserDenial {
  if (scope.all) return null;
  if (!seesUser(scope, target.operatorIds)) return 'hidden';
  if (target.role === 'Administrator') return 'administrator';
  if (change === 'remove' && target.operatorIds.some((id) => !scope.operatorIds.has(id))) return 'foreign-operators';
  return null;
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
