/**
 * The one access policy. The menu, the route guard and the API's route hooks all ask it; no other
 * code compares role strings. Pure: no I/O, no React, importable by the API.
 */
export const ROLES = ['Administrator', 'Manager', 'CellwiseHQ', 'CellwiseOS', 'Client'] as const;
export type Role = (typeof ROLES)[number];

/** Engineering areas require membership of this project (specification §6). */
export const OPERATIONS_PROJECT = 'Operations';

export const CAPABILITIES = [
  'public',
  'authenticated',
  'canPlan',
  'canTrack',
  'canValidate',
  'canOptimize',
  'canMonitor',
  'canSeeDashboardMenu',
  'canOpenDashboard',
  'canManage',
  'canSeeJobDashboard',
  'canAdminister',
  'canChooseOperator',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

export interface Principal {
  authenticated: boolean;
  role: Role;
  operatorId: number | null;
  projects: readonly string[];
}

export const ANONYMOUS: Principal = { authenticated: false, role: 'Client', operatorId: null, projects: [] };

interface Rule {
  /** Roles allowed; absent = any role. */
  roles?: readonly Role[];
  /** At least one of these projects; absent = no project condition. */
  projects?: readonly string[];
  /** Whether a session is needed at all. */
  authenticated: boolean;
}

const ENGINEERING_ROLES: readonly Role[] = ['Administrator', 'Manager', 'CellwiseHQ', 'CellwiseOS'];
const engineering: Rule = { authenticated: true, roles: ENGINEERING_ROLES, projects: [OPERATIONS_PROJECT] };

const RULES: Record<Capability, Rule> = {
  public: { authenticated: false },
  authenticated: { authenticated: true },
  canPlan: engineering,
  canTrack: engineering,
  canValidate: engineering,
  canOptimize: engineering,
  canMonitor: engineering,
  canSeeDashboardMenu: engineering,
  // The specification's readings differ: the menu entry needs the engineering rule, the route only a session.
  canOpenDashboard: { authenticated: true },
  canManage: { authenticated: true, roles: ['Administrator', 'Manager'] },
  canSeeJobDashboard: { authenticated: true, roles: ['Administrator'] },
  canAdminister: { authenticated: true, roles: ['Administrator'] },
  // Specification §5: the profile's operator select is editable only for these roles.
  canChooseOperator: { authenticated: true, roles: ['Administrator', 'Manager', 'CellwiseHQ'] },
};

export type Denial = 'unauthenticated' | 'role' | 'projects';

/** Why a principal may not use a capability, or null when it may. */
export function denialOf(principal: Principal, capability: Capability): Denial | null {
  const rule = RULES[capability];
  if (rule.authenticated && !principal.authenticated) return 'unauthenticated';
  if (rule.roles && !rule.roles.includes(principal.role)) return 'role';
  if (rule.projects && !rule.projects.some((p) => principal.projects.includes(p))) return 'projects';
  return null;
}

export function can(principal: Principal, capability: Capability): boolean {
  return denialOf(principal, capability) === null;
}

export function capabilitiesOf(principal: Principal): Capability[] {
  return CAPABILITIES.filter((c) => can(principal, c));
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Roles a caller may hand out when creating or editing users (docs/architecture.md#accounts-sessions-and-abuse-limits). */
export function assignableRoles(caller: Principal): Role[] {
  if (caller.role === 'Administrator') return [...ROLES];
  if (caller.role === 'Manager') return ROLES.filter((r) => r !== 'Administrator');
  return [];
}
