import { sql, type Kysely } from 'kysely';
import { isRole, type Role } from 'shared-auth/policy';
import type { UserInfo } from 'contracts';
import { PreparedReads, runPrepared, slot } from '../db/prepared';
import type { Database } from '../db/schema';

/** Ids are 32-bit integers on PostgreSQL: a bigger number in a query is an error there, not a miss. */
export const MAX_ID = 2_147_483_647;

export function isPossibleId(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1 && value <= MAX_ID;
}

/** E-mail addresses are compared and stored lower-cased and trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** What authentication needs to know about a user. */
export interface AccountRow {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  passwordHash: string | null;
  role: Role;
  roleId: number;
  operatorId: number | null;
  emailConfirmed: boolean;
  deactivated: boolean;
  /** Epoch seconds. */
  tokensValidAfter: number;
}

function accountQuery(db: Kysely<Database>) {
  return db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .select([
      'users.id',
      'users.firstname',
      'users.lastname',
      'users.email',
      'users.password_hash',
      'roles.name as role',
      'users.role_id',
      'users.operator_id',
      'users.email_confirmed',
      'users.deactivated_at',
      'users.tokens_valid_after',
    ]);
}

type AccountQueryRow = NonNullable<Awaited<ReturnType<ReturnType<typeof accountQuery>['executeTakeFirst']>>>;

function toAccount(row: AccountQueryRow | undefined): AccountRow | null {
  // A role outside the policy cannot be judged by it, so such a user cannot act at all.
  if (!row || !isRole(row.role)) return null;
  return {
    id: row.id,
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    passwordHash: row.password_hash,
    role: row.role,
    roleId: row.role_id,
    operatorId: row.operator_id,
    emailConfirmed: Number(row.email_confirmed) === 1,
    deactivated: row.deactivated_at !== null,
    tokensValidAfter: Number(row.tokens_valid_after),
  };
}

export async function findAccountById(db: Kysely<Database>, userId: number): Promise<AccountRow | null> {
  if (!isPossibleId(userId)) return null;
  return toAccount(await accountQuery(db).where('users.id', '=', userId).executeTakeFirst());
}

/**
 * The account of a session and whether its current operator is one it may read (docs/tenancy.md): a
 * member of it, or, for an Administrator, an operator that exists. One statement: this runs before
 * every authenticated request, and three round trips of it were a fifth of a plain read's CPU (issue 44).
 */
export async function findSessionAccount(
  db: Kysely<Database>,
  userId: number,
): Promise<{ account: AccountRow; member: boolean; operatorExists: boolean } | null> {
  if (!isPossibleId(userId)) return null;
  const { session } = SESSION_READS.statements(db, '', { userId });
  const row = (await runPrepared<SessionQueryRow>(db, session)).rows[0];
  const account = toAccount(row);
  if (!row || !account) return null;
  return { account, member: row.member !== null, operatorExists: row.operator_exists !== null };
}

function sessionQuery(db: Kysely<Database>) {
  return accountQuery(db)
    .select((eb) => [
      eb
        .selectFrom('user_operators')
        .select(sql<number>`1`.as('one'))
        .whereRef('user_operators.user_id', '=', 'users.id')
        .whereRef('user_operators.operator_id', '=', 'users.operator_id')
        .as('member'),
      eb
        .selectFrom('operators')
        .select(sql<number>`1`.as('one'))
        .whereRef('operators.id', '=', 'users.operator_id')
        .as('operator_exists'),
    ])
    .where('users.id', '=', slot('userId') as never);
}

type SessionQueryRow = NonNullable<Awaited<ReturnType<ReturnType<typeof sessionQuery>['executeTakeFirst']>>>;

/** Read before every authenticated request: compiled once (db/prepared.ts), as the list pages are. */
const SESSION_READS = new PreparedReads((db) => ({ session: sessionQuery(db) }));

const PROJECT_NAMES = new PreparedReads((db) => ({
  names: db
    .selectFrom('user_projects')
    .innerJoin('projects', 'projects.id', 'user_projects.project_id')
    .select('projects.name')
    .distinct()
    .where('user_projects.user_id', '=', slot('userId') as never)
    .orderBy('projects.name'),
}));

export async function findAccountByEmail(db: Kysely<Database>, email: string): Promise<AccountRow | null> {
  return toAccount(await accountQuery(db).where('users.email', '=', normalizeEmail(email)).executeTakeFirst());
}

/** Names of the user's projects, over all their operators, each once, sorted. */
export async function projectNamesOf(db: Kysely<Database>, userId: number): Promise<string[]> {
  const { names } = PROJECT_NAMES.statements(db, '', { userId });
  return (await runPrepared<{ name: string }>(db, names)).rows.map((r) => r.name);
}

/** The session user (specification §3) as `account/GetUserInfo` answers it. */
export async function userInfoOf(db: Kysely<Database>, userId: number): Promise<UserInfo | null> {
  if (!isPossibleId(userId)) return null;
  const row = await db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .leftJoin('operators', 'operators.id', 'users.operator_id')
    .select([
      'users.id',
      'users.firstname',
      'users.lastname',
      'users.email',
      'users.avatar',
      'roles.name as role',
      'operators.id as operatorId',
      'operators.name as operatorName',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!row || !isRole(row.role)) return null;
  return {
    id: row.id,
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    role: row.role,
    operator: row.operatorId !== null && row.operatorName !== null ? { id: row.operatorId, name: row.operatorName } : null,
    projects: await projectNamesOf(db, userId),
    avatar: row.avatar,
  };
}

/** Operators the user belongs to, sorted by name. */
export async function operatorsOf(db: Kysely<Database>, userId: number): Promise<Array<{ id: number; name: string }>> {
  return db
    .selectFrom('user_operators')
    .innerJoin('operators', 'operators.id', 'user_operators.operator_id')
    .select(['operators.id', 'operators.name'])
    .where('user_operators.user_id', '=', userId)
    .orderBy('operators.name')
    .orderBy('operators.id')
    .execute();
}
