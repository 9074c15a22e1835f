import { sql } from 'kysely';
import { verifyPassword } from '../src/auth/passwords';
import { userInfoOf } from '../src/auth/accounts';
import type { Database } from '../src/db/schema';
import { DEMO_CREDENTIALS, DEMO_PASSWORD, seed } from '../src/seed';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

const CONFIG = { adminEmail: 'Chief@Example.pt', adminPassword: 'Chief-Password-1', demoData: true };
const TABLES = ['roles', 'operators', 'projects', 'users', 'user_operators', 'user_projects'] as const satisfies ReadonlyArray<keyof Database>;

async function counts(database: TestDatabase): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await database.db
      .selectFrom(table)
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    result[table] = Number(row.n);
  }
  return result;
}

describe.each(TEST_DATABASES)('first-start seeding on $name', (kind) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await kind.open();
  });
  afterEach(async () => database.dispose());

  const idOf = async (email: string) => (await database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  test('is idempotent: a second run creates nothing and changes no count', async () => {
    const first = await seed(database.db, CONFIG);
    expect(first.createdUsers.sort()).toEqual(['chief@example.pt', ...DEMO_CREDENTIALS.map((c) => c.email)].sort());
    const after = await counts(database);
    expect(after).toEqual({ roles: 5, operators: 3, projects: 7, users: 5, user_operators: 3 + 2 + 2 + 1 + 1, user_projects: 3 + 3 + 2 + 2 + 1 });
    const second = await seed(database.db, CONFIG);
    expect(second.createdUsers).toEqual([]);
    expect(await counts(database)).toEqual(after);
  });

  test('two instances starting at once agree', async () => {
    await Promise.all([seed(database.db, CONFIG), seed(database.db, CONFIG)]);
    expect(await counts(database)).toMatchObject({ roles: 5, operators: 3, projects: 7, users: 5 });
  });

  test('the administrator is confirmed, belongs to every operator and every Operations project, and starts on Vodafone PT', async () => {
    await seed(database.db, CONFIG);
    const admin = await database.db.selectFrom('users').selectAll().where('email', '=', 'chief@example.pt').executeTakeFirstOrThrow();
    expect(Number(admin.email_confirmed)).toBe(1);
    expect(admin.deactivated_at).toBeNull();
    expect(await verifyPassword(admin.password_hash ?? '', CONFIG.adminPassword)).toBe(true);
    const info = await userInfoOf(database.db, admin.id);
    expect(info).toMatchObject({ role: 'Administrator', operator: { name: 'Vodafone PT' }, projects: ['Operations'] });
    const memberships = await database.db
      .selectFrom('user_projects')
      .innerJoin('projects', 'projects.id', 'user_projects.project_id')
      .innerJoin('operators', 'operators.id', 'projects.operator_id')
      .select(['operators.name as operator', 'projects.name as project'])
      .where('user_projects.user_id', '=', admin.id)
      .orderBy('operators.name')
      .execute();
    expect(memberships).toEqual([
      { operator: 'MEO', project: 'Operations' },
      { operator: 'NOS', project: 'Operations' },
      { operator: 'Vodafone PT', project: 'Operations' },
    ]);
  });

  test('one confirmed demo user per other role, with the demo password; only the Client lacks Operations', async () => {
    await seed(database.db, CONFIG);
    expect(DEMO_CREDENTIALS.map((c) => [c.email, c.role, c.password])).toEqual([
      ['manager@cellwise.local', 'Manager', DEMO_PASSWORD],
      ['hq@cellwise.local', 'CellwiseHQ', DEMO_PASSWORD],
      ['os@cellwise.local', 'CellwiseOS', DEMO_PASSWORD],
      ['client@cellwise.local', 'Client', DEMO_PASSWORD],
    ]);
    expect(DEMO_PASSWORD).toBe('Cellwise-Demo-1');
    const seen: Record<string, unknown> = {};
    for (const { email } of DEMO_CREDENTIALS) {
      const row = await database.db.selectFrom('users').select(['password_hash', 'email_confirmed']).where('email', '=', email).executeTakeFirstOrThrow();
      expect(await verifyPassword(row.password_hash ?? '', DEMO_PASSWORD)).toBe(true);
      expect(Number(row.email_confirmed)).toBe(1);
      const info = await userInfoOf(database.db, await idOf(email));
      seen[email] = [info?.role, info?.operator?.name, info?.projects];
    }
    expect(seen).toEqual({
      'manager@cellwise.local': ['Manager', 'Vodafone PT', ['Operations', 'Rollout 5G']],
      'hq@cellwise.local': ['CellwiseHQ', 'Vodafone PT', ['Operations']],
      'os@cellwise.local': ['CellwiseOS', 'Vodafone PT', ['Operations', 'Swap 2026']],
      'client@cellwise.local': ['Client', 'NOS', ['Rollout 5G']],
    });
  });

  test('a restart keeps what users changed since: passwords and current operator', async () => {
    await seed(database.db, CONFIG);
    const nos = await database.db.selectFrom('operators').select('id').where('name', '=', 'NOS').executeTakeFirstOrThrow();
    await database.db.updateTable('users').set({ password_hash: 'changed', operator_id: nos.id }).where('email', '=', 'chief@example.pt').execute();
    await seed(database.db, CONFIG);
    const admin = await database.db
      .selectFrom('users')
      .select(['password_hash', 'operator_id'])
      .where('email', '=', 'chief@example.pt')
      .executeTakeFirstOrThrow();
    expect(admin).toEqual({ password_hash: 'changed', operator_id: nos.id });
  });

  test('DEMO_DATA=0: roles and the administrator only', async () => {
    await seed(database.db, { ...CONFIG, demoData: false });
    expect(await counts(database)).toEqual({ roles: 5, operators: 0, projects: 0, users: 1, user_operators: 0, user_projects: 0 });
    const roles = await database.db.selectFrom('roles').select('name').orderBy('id').execute();
    expect(roles.map((r) => r.name)).toEqual(['Administrator', 'Manager', 'CellwiseHQ', 'CellwiseOS', 'Client']);
  });
});
