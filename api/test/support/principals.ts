import type { FastifyInstance } from 'fastify';
import { ANONYMOUS, type Principal, type Role } from 'shared-auth/policy';
import { hashPassword } from '../../src/auth/passwords';
import type { Config } from '../../src/config';
import { DEMO_PASSWORD, DEMO_USERS, seed } from '../../src/seed';
import type { TestDatabase } from './databases';

/** The administrator's password in tests (the e-mail is the configured default). */
export const ADMIN_PASSWORD = 'Admin-Password-1';
/** An id no row has: the largest a 32-bit integer column holds, valid by every id schema. */
export const MISSING_ID = 2_147_483_647;

/** Who calls: nobody, each seeded role, and each engineering role without the Operations project. */
export const CALLER_NAMES = [
  'anonymous',
  'Client',
  'CellwiseOS',
  'CellwiseHQ',
  'Manager',
  'Administrator',
  'CellwiseOS without Operations',
  'CellwiseHQ without Operations',
  'Manager without Operations',
] as const;
export type CallerName = (typeof CALLER_NAMES)[number];

export interface Caller {
  name: CallerName;
  /** null for the anonymous caller. */
  userId: number | null;
  email: string | null;
  /** A session token issued for the user (null: no Authorization header). */
  token: string | null;
  /** What the test knows about the caller, written independently of the server: the policy judges this. */
  principal: Principal;
}

export type Callers = Record<CallerName, Caller>;

type Db = TestDatabase['db'];

export interface NewUser {
  email: string;
  role: Role;
  /** Operator names; the first is the current operator. */
  operators: readonly string[];
  /** [operator, project] names. */
  projects: ReadonlyArray<readonly [string, string]>;
  /** Defaults to DEMO_PASSWORD. */
  password?: string;
}

/** A confirmed, active user with a known password, inserted directly (no mail, no audit). Answers the id. */
export async function insertUser(db: Db, user: NewUser): Promise<number> {
  const role = await db.selectFrom('roles').select('id').where('name', '=', user.role).executeTakeFirstOrThrow();
  const operators = await db.selectFrom('operators').select(['id', 'name']).execute();
  const operatorId = (name: string) => {
    const found = operators.find((o) => o.name === name);
    if (!found) throw new Error(`no operator ${name}`);
    return found.id;
  };
  const { id } = await db
    .insertInto('users')
    .values({
      firstname: 'Test',
      lastname: user.role,
      email: user.email,
      password_hash: await hashPassword(user.password ?? DEMO_PASSWORD),
      role_id: role.id,
      operator_id: user.operators.length > 0 ? operatorId(user.operators[0]!) : null,
      email_confirmed: 1,
      deactivated_at: null,
      avatar: null,
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (user.operators.length > 0) {
    await db
      .insertInto('user_operators')
      .values(user.operators.map((name) => ({ user_id: id, operator_id: operatorId(name) })))
      .execute();
  }
  for (const [operator, project] of user.projects) {
    const row = await db
      .selectFrom('projects')
      .select('id')
      .where('operator_id', '=', operatorId(operator))
      .where('name', '=', project)
      .executeTakeFirstOrThrow();
    await db.insertInto('user_projects').values({ user_id: id, project_id: row.id }).execute();
  }
  return id;
}

const principalOf = (role: Role, operatorId: number | null, projects: ReadonlyArray<readonly [string, string]>): Principal => ({
  authenticated: true,
  role,
  operatorId,
  projects: [...new Set(projects.map(([, project]) => project))].sort(),
});

/** Engineering roles on Vodafone PT with a project, but not Operations: right role, wrong projects. */
const WITHOUT_OPERATIONS: ReadonlyArray<{ name: CallerName; role: Role; email: string }> = [
  { name: 'CellwiseOS without Operations', role: 'CellwiseOS', email: 'os.no-operations@example.pt' },
  { name: 'CellwiseHQ without Operations', role: 'CellwiseHQ', email: 'hq.no-operations@example.pt' },
  { name: 'Manager without Operations', role: 'Manager', email: 'manager.no-operations@example.pt' },
];

/**
 * Seeds the demo data and the administrator (ADMIN_PASSWORD), adds the engineers without Operations,
 * and issues a token to each. Each caller's principal is what the seed and this file say the user is;
 * it is checked against the server's own reading of the token, so a fixture that drifts fails here.
 */
export async function setUpCallers(app: FastifyInstance, database: TestDatabase, config: Config): Promise<Callers> {
  await seed(database.db, { ...config, adminPassword: ADMIN_PASSWORD, demoData: true });
  const operators = new Map((await database.db.selectFrom('operators').select(['id', 'name']).execute()).map((o) => [o.name, o.id]));
  const idOfOperator = (name: string) => operators.get(name) ?? null;

  const known: Array<{ name: CallerName; email: string; principal: Principal }> = [];
  for (const user of DEMO_USERS) {
    known.push({ name: user.role as CallerName, email: user.email, principal: principalOf(user.role, idOfOperator(user.operators[0]!), user.projects) });
  }
  // The seed puts the administrator on every demo operator (Vodafone PT first) and every Operations project.
  known.push({
    name: 'Administrator',
    email: config.adminEmail,
    principal: principalOf('Administrator', idOfOperator('Vodafone PT'), [['Vodafone PT', 'Operations']]),
  });
  for (const user of WITHOUT_OPERATIONS) {
    const projects = [['Vodafone PT', 'Rollout 5G']] as const;
    await insertUser(database.db, { email: user.email, role: user.role, operators: ['Vodafone PT'], projects });
    known.push({ name: user.name, email: user.email, principal: principalOf(user.role, idOfOperator('Vodafone PT'), projects) });
  }

  const callers = { anonymous: { name: 'anonymous', userId: null, email: null, token: null, principal: ANONYMOUS } } as Callers;
  for (const { name, email, principal } of known) {
    const { id } = await database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const token = await app.auth.issueToken(id);
    if (!token) throw new Error(`no token for ${email}`);
    const session = await app.auth.authenticate(token);
    expect({ caller: name, principal: session && { ...session.principal, projects: [...session.principal.projects].sort() } }).toEqual({
      caller: name,
      principal,
    });
    callers[name] = { name, userId: id, email, token, principal };
  }
  return callers;
}

/** The Authorization header of a caller (none for the anonymous one). */
export function headersOf(caller: Caller): Record<string, string> {
  return caller.token ? { authorization: `Bearer ${caller.token}` } : {};
}
