import type { Kysely } from 'kysely';
import { ROLES, type Role } from 'shared-auth/policy';
import { normalizeEmail } from '../auth/accounts';
import { isoTime, systemClock, type Clock } from '../auth/clock';
import { hashPassword } from '../auth/passwords';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import { seedAlarmHints } from '../monitoring/hints';
import { seedFrequencyPlans } from '../planning/frequency-plans';

export const DEMO_PASSWORD = 'Cellwise-Demo-1';

/** Demo operators and their projects; every operator has 'Operations', the project engineering work needs. */
export const DEMO_OPERATORS: ReadonlyArray<{ name: string; projects: readonly string[] }> = [
  { name: 'Vodafone PT', projects: ['Operations', 'Rollout 5G', 'Swap 2026'] },
  { name: 'NOS', projects: ['Operations', 'Rollout 5G'] },
  { name: 'MEO', projects: ['Operations', 'Swap 2026'] },
];

interface DemoUser {
  email: string;
  firstname: string;
  lastname: string;
  role: Role;
  /** Operators the user belongs to; the first is the current one. */
  operators: readonly string[];
  /** [operator, project] pairs. */
  projects: ReadonlyArray<readonly [string, string]>;
  /** What a newcomer should try with this account. */
  note: string;
}

/** One confirmed user per role but Administrator, all with DEMO_PASSWORD. */
export const DEMO_USERS: readonly DemoUser[] = [
  {
    email: 'manager@cellwise.local',
    firstname: 'Marta',
    lastname: 'Sousa',
    role: 'Manager',
    operators: ['Vodafone PT', 'NOS'],
    projects: [
      ['Vodafone PT', 'Operations'],
      ['NOS', 'Operations'],
      ['Vodafone PT', 'Rollout 5G'],
    ],
    note: 'Vodafone PT + NOS, Operations: engineering and management',
  },
  {
    email: 'hq@cellwise.local',
    firstname: 'Rui',
    lastname: 'Almeida',
    role: 'CellwiseHQ',
    operators: ['Vodafone PT', 'MEO'],
    projects: [
      ['Vodafone PT', 'Operations'],
      ['MEO', 'Operations'],
    ],
    note: 'Vodafone PT + MEO, Operations: engineering, may switch operator',
  },
  {
    email: 'os@cellwise.local',
    firstname: 'Inês',
    lastname: 'Costa',
    role: 'CellwiseOS',
    operators: ['Vodafone PT'],
    projects: [
      ['Vodafone PT', 'Operations'],
      ['Vodafone PT', 'Swap 2026'],
    ],
    note: 'Vodafone PT, Operations: engineering only',
  },
  {
    email: 'client@cellwise.local',
    firstname: 'Pedro',
    lastname: 'Santos',
    role: 'Client',
    operators: ['NOS'],
    projects: [['NOS', 'Rollout 5G']],
    note: 'NOS, no Operations: home, dashboards and settings only',
  },
];

/** What `main.ts` prints after the administrator's line. */
export const DEMO_CREDENTIALS: ReadonlyArray<{ email: string; password: string; role: Role; note: string }> = DEMO_USERS.map((u) => ({
  email: u.email,
  password: DEMO_PASSWORD,
  role: u.role,
  note: u.note,
}));

export interface SeedOptions {
  clock?: Clock;
}

export interface SeedResult {
  /** E-mail addresses of the users this run created (none on a restart). */
  createdUsers: string[];
}

type Db = Kysely<Database>;

async function roleIds(db: Db): Promise<Map<string, number>> {
  await db
    .insertInto('roles')
    .values(ROLES.map((name) => ({ name })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const rows = await db.selectFrom('roles').select(['id', 'name']).execute();
  return new Map(rows.map((r) => [r.name, r.id]));
}

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Seeding: ${what} is missing`);
  return value;
}

/**
 * Creates a confirmed user unless one with this e-mail exists (never touching an existing one, whose
 * password may have changed since). Safe when two instances start at once: the unique e-mail decides.
 */
async function ensureUser(
  db: Db,
  user: { email: string; firstname: string; lastname: string; roleId: number; passwordHash: () => Promise<string> },
  now: string,
  created: string[],
): Promise<number> {
  const email = normalizeEmail(user.email);
  const existing = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (existing) return existing.id;
  const inserted = await db
    .insertInto('users')
    .values({
      firstname: user.firstname,
      lastname: user.lastname,
      email,
      password_hash: await user.passwordHash(),
      role_id: user.roleId,
      operator_id: null,
      email_confirmed: 1,
      deactivated_at: null,
      avatar: null,
      created_at: now,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) created.push(email);
  const row = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return row.id;
}

/** Memberships are only ever added, and the current operator only set when there is none. */
async function ensureMemberships(db: Db, userId: number, operatorIds: number[], projectIds: number[]): Promise<void> {
  if (operatorIds.length > 0) {
    await db
      .insertInto('user_operators')
      .values(operatorIds.map((operator_id) => ({ user_id: userId, operator_id })))
      .onConflict((oc) => oc.columns(['user_id', 'operator_id']).doNothing())
      .execute();
    await db.updateTable('users').set({ operator_id: operatorIds[0] }).where('id', '=', userId).where('operator_id', 'is', null).execute();
  }
  if (projectIds.length > 0) {
    await db
      .insertInto('user_projects')
      .values(projectIds.map((project_id) => ({ user_id: userId, project_id })))
      .onConflict((oc) => oc.columns(['user_id', 'project_id']).doNothing())
      .execute();
  }
}

async function seedDemoAccounts(db: Db, roles: Map<string, number>, adminId: number, now: string, created: string[]): Promise<void> {
  await db
    .insertInto('operators')
    .values(DEMO_OPERATORS.map((o) => ({ name: o.name, avatar: null, created_at: now })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const operators = new Map(
    (
      await db
        .selectFrom('operators')
        .select(['id', 'name'])
        .where(
          'name',
          'in',
          DEMO_OPERATORS.map((o) => o.name),
        )
        .execute()
    ).map((o) => [o.name, o.id]),
  );
  const operatorId = (name: string) => must(operators.get(name), `operator ${name}`);

  await db
    .insertInto('projects')
    .values(DEMO_OPERATORS.flatMap((o) => o.projects.map((name) => ({ name, operator_id: operatorId(o.name) }))))
    .onConflict((oc) => oc.columns(['operator_id', 'name']).doNothing())
    .execute();
  const projectRows = await db
    .selectFrom('projects')
    .select(['id', 'name', 'operator_id'])
    .where('operator_id', 'in', [...operators.values()])
    .execute();
  const projectId = (operator: string, name: string) =>
    must(projectRows.find((p) => p.operator_id === operatorId(operator) && p.name === name)?.id, `project ${operator}/${name}`);

  // The administrator sees every operator, Vodafone PT first, and does engineering work everywhere.
  await ensureMemberships(
    db,
    adminId,
    DEMO_OPERATORS.map((o) => operatorId(o.name)),
    DEMO_OPERATORS.map((o) => projectId(o.name, 'Operations')),
  );

  // One hash for every demo account, made only when one is created: they share a password printed at
  // every start, so a shared salt tells nothing more, and each argon2 hash costs about 50 ms (every API
  // test seeds). A password changed later gets its own salt.
  let demoHash: Promise<string> | null = null;
  const demoPasswordHash = () => (demoHash ??= hashPassword(DEMO_PASSWORD));
  for (const user of DEMO_USERS) {
    const id = await ensureUser(
      db,
      {
        email: user.email,
        firstname: user.firstname,
        lastname: user.lastname,
        roleId: must(roles.get(user.role), `role ${user.role}`),
        passwordHash: demoPasswordHash,
      },
      now,
      created,
    );
    await ensureMemberships(
      db,
      id,
      user.operators.map(operatorId),
      user.projects.map(([operator, project]) => projectId(operator, project)),
    );
  }
}

/**
 * Runs on every start, after the migrations, and changes nothing the second time: the roles, the
 * administrator from ADMIN_EMAIL / ADMIN_PASSWORD, the alarm hint catalogue, and unless DEMO_DATA=0
 * the demo operators, projects and one user per role.
 */
export async function seed(db: Db, config: Pick<Config, 'adminEmail' | 'adminPassword' | 'demoData'>, options: SeedOptions = {}): Promise<SeedResult> {
  const now = isoTime((options.clock ?? systemClock)());
  const created: string[] = [];
  const roles = await roleIds(db);
  const adminId = await ensureUser(
    db,
    {
      email: config.adminEmail,
      firstname: 'Cellwise',
      lastname: 'Administrator',
      roleId: must(roles.get('Administrator'), 'role Administrator'),
      passwordHash: () => hashPassword(config.adminPassword),
    },
    now,
    created,
  );
  if (config.demoData) {
    await seedDemoAccounts(db, roles, adminId, now, created);
    // Demo values for the demo operators, once, into an empty table (Administrators edit them).
    await seedFrequencyPlans(db);
  }
  // Reference data, not demo data: the remediation hints, once, into an empty catalogue.
  await seedAlarmHints(db);
  return { createdUsers: created };
}
