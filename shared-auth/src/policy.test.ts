import { ANONYMOUS, assignableRoles, can, denialOf, type Capability, type Principal, type Role } from './policy';

const who = (role: Role, projects: string[] = ['Operations']): Principal => ({
  authenticated: true,
  role,
  operatorId: 1,
  projects,
});

// Specification §6 as a table: each row is a principal and the capabilities it must (and must not) have.
const engineering: Capability[] = ['canPlan', 'canTrack', 'canValidate', 'canOptimize', 'canMonitor', 'canSeeDashboardMenu'];
const table: Array<[string, Principal, Capability[]]> = [
  ['anonymous', ANONYMOUS, ['public']],
  [
    'Administrator in Operations',
    who('Administrator'),
    ['public', 'authenticated', ...engineering, 'canOpenDashboard', 'canManage', 'canSeeJobDashboard', 'canAdminister', 'canChooseOperator'],
  ],
  [
    'Administrator outside Operations',
    who('Administrator', ['Rollout']),
    ['public', 'authenticated', 'canOpenDashboard', 'canManage', 'canSeeJobDashboard', 'canAdminister', 'canChooseOperator'],
  ],
  ['Manager in Operations', who('Manager'), ['public', 'authenticated', ...engineering, 'canOpenDashboard', 'canManage', 'canChooseOperator']],
  ['CellwiseHQ in Operations', who('CellwiseHQ'), ['public', 'authenticated', ...engineering, 'canOpenDashboard', 'canChooseOperator']],
  ['CellwiseOS in Operations', who('CellwiseOS'), ['public', 'authenticated', ...engineering, 'canOpenDashboard']],
  ['CellwiseOS without projects', who('CellwiseOS', []), ['public', 'authenticated', 'canOpenDashboard']],
  ['Client in Operations', who('Client'), ['public', 'authenticated', 'canOpenDashboard']],
];
const all: Capability[] = [
  'public',
  'authenticated',
  ...engineering,
  'canOpenDashboard',
  'canManage',
  'canSeeJobDashboard',
  'canAdminister',
  'canChooseOperator',
];

describe('access policy (specification §6)', () => {
  test.each(table)('%s', (_name, principal, allowed) => {
    for (const capability of all) {
      expect([capability, can(principal, capability)]).toEqual([capability, allowed.includes(capability)]);
    }
  });

  test('says why access is denied', () => {
    expect(denialOf(ANONYMOUS, 'canManage')).toBe('unauthenticated');
    expect(denialOf(who('CellwiseOS'), 'canManage')).toBe('role');
    expect(denialOf(who('Manager', ['Rollout']), 'canTrack')).toBe('projects');
  });

  test('a Manager may assign every role but Administrator; others none', () => {
    expect(assignableRoles(who('Administrator'))).toContain('Administrator');
    expect(assignableRoles(who('Manager'))).toEqual(['Manager', 'CellwiseHQ', 'CellwiseOS', 'Client']);
    expect(assignableRoles(who('CellwiseHQ'))).toEqual([]);
  });
});
