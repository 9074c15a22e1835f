import type { Kysely, Transaction } from 'kysely';
import { isRole, type Role } from 'shared-auth/policy';
import { findAccountById, type AccountRow } from '../auth/accounts';
import type { ProjectOption, UserDetails, UserListRow } from 'contracts';
import type { Database } from '../db/schema';
import { revokeSessions, type Session } from '../auth/runtime';
import { recordAudit, type Actor } from './audit';
import { coversOperator, managesEveryOperator, scopeFor, type ManagementScope } from './scope';

type Executor = Kysely<Database> | Transaction<Database>;

/** A user as the management area sees them: the account with its memberships. */
export interface ManagedUser extends AccountRow {
  operatorIds: number[];
  projectIds: number[];
}

/** The user with their memberships, or null when there is none (or their role is outside the policy). */
export async function loadUser(db: Kysely<Database>, userId: number): Promise<ManagedUser | null> {
  const account = await findAccountById(db, userId);
  if (!account) return null;
  const [operators, projects] = await Promise.all([
    db.selectFrom('user_operators').select('operator_id').where('user_id', '=', userId).orderBy('operator_id').execute(),
    db.selectFrom('user_projects').select('project_id').where('user_id', '=', userId).orderBy('project_id').execute(),
  ]);
  return { ...account, operatorIds: operators.map((o) => o.operator_id), projectIds: projects.map((p) => p.project_id) };
}

export function detailsOf(user: ManagedUser): UserDetails {
  return {
    id: user.id,
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    roleId: user.roleId,
    operatorIds: user.operatorIds,
    projectIds: user.projectIds,
    status: user.emailConfirmed,
    deactivated: user.deactivated,
  };
}

/** The caller's own operators: what a Manager's scope is made of. */
export async function operatorIdsOf(db: Executor, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('user_operators').select('operator_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.operator_id);
}

/** The management scope of a session: everything, or the operators the caller belongs to. */
export async function scopeOfSession(db: Executor, session: Session): Promise<ManagementScope> {
  return scopeFor(session.principal, managesEveryOperator(session.principal) ? [] : await operatorIdsOf(db, session.userId));
}

/** Ids of the users the scope sees: everyone, or members of at least one of its operators. */
function visibleUsers(db: Executor, scope: ManagementScope) {
  let query = db.selectFrom('users').innerJoin('roles', 'roles.id', 'users.role_id');
  if (!scope.all) {
    const operatorIds = [...scope.operatorIds];
    query = query.where((eb) =>
      operatorIds.length === 0
        ? eb.val(false)
        : eb.exists(
            eb
              .selectFrom('user_operators')
              .select('user_operators.user_id')
              .whereRef('user_operators.user_id', '=', 'users.id')
              .where('user_operators.operator_id', 'in', operatorIds),
          ),
    );
  }
  return query;
}

/**
 * Online by presence (a live hub connection or recent API activity, docs/architecture.md#how-a-notification-flows) and only with a session
 * that can still be used: a deactivated user's tokens are refused and their consoles signed out, even
 * while their last request is still within the activity window.
 */
function isOnline(online: ReadonlySet<number>, user: { id: number; deactivated_at: string | null }): boolean {
  return user.deactivated_at === null && online.has(user.id);
}

/** The All Users table, sorted by name; `online` comes from the hub's presence (`isOnline`). */
export async function listUsers(db: Executor, scope: ManagementScope, online: ReadonlySet<number>): Promise<UserListRow[]> {
  const users = await visibleUsers(db, scope)
    .select(['users.id', 'users.firstname', 'users.lastname', 'users.email', 'roles.name as role', 'users.email_confirmed', 'users.deactivated_at'])
    .orderBy('users.firstname')
    .orderBy('users.lastname')
    .orderBy('users.id')
    .execute();
  const memberships = await db
    .selectFrom('user_operators')
    .innerJoin('operators', 'operators.id', 'user_operators.operator_id')
    .select(['user_operators.user_id', 'operators.name'])
    .execute();
  const operatorNames = new Map<number, string[]>();
  for (const m of memberships) {
    const list = operatorNames.get(m.user_id);
    if (list) list.push(m.name);
    else operatorNames.set(m.user_id, [m.name]);
  }
  return users.flatMap((u) => {
    if (!isRole(u.role)) return [];
    return [
      {
        id: u.id,
        name: `${u.firstname} ${u.lastname}`,
        email: u.email,
        role: u.role,
        operators: (operatorNames.get(u.id) ?? []).sort((a, b) => a.localeCompare(b)).join(', '),
        status: Number(u.email_confirmed) === 1,
        online: isOnline(online, u),
        deactivated: u.deactivated_at !== null,
      },
    ];
  });
}

/** Stats of specification §3 over the users the scope sees: active = confirmed and not deactivated (docs/architecture.md#accounts-sessions-and-abuse-limits). */
export async function userStats(db: Executor, scope: ManagementScope, online: ReadonlySet<number>) {
  const users = await visibleUsers(db, scope).select(['users.id', 'roles.name as role', 'users.email_confirmed', 'users.deactivated_at']).execute();
  return {
    online: users.filter((u) => isOnline(online, u)).length,
    active: users.filter((u) => Number(u.email_confirmed) === 1 && u.deactivated_at === null).length,
    client: users.filter((u) => u.role === 'Client').length,
    registered: users.length,
  };
}

/** Replaces a user's memberships and keeps their current operator one of them. */
export async function setMemberships(trx: Transaction<Database>, userId: number, operatorIds: readonly number[], projectIds: readonly number[]): Promise<void> {
  await trx.deleteFrom('user_projects').where('user_id', '=', userId).execute();
  await trx.deleteFrom('user_operators').where('user_id', '=', userId).execute();
  if (operatorIds.length > 0)
    await trx
      .insertInto('user_operators')
      .values(operatorIds.map((operator_id) => ({ user_id: userId, operator_id })))
      .execute();
  if (projectIds.length > 0)
    await trx
      .insertInto('user_projects')
      .values(projectIds.map((project_id) => ({ user_id: userId, project_id })))
      .execute();
  const current = await trx.selectFrom('users').select('operator_id').where('id', '=', userId).executeTakeFirst();
  if (current && (current.operator_id === null || !operatorIds.includes(current.operator_id))) {
    await trx
      .updateTable('users')
      .set({ operator_id: operatorIds[0] ?? null })
      .where('id', '=', userId)
      .execute();
  }
}

/** A role's name by id; undefined when there is no such role. */
export async function roleNameOf(db: Executor, roleId: number): Promise<string | undefined> {
  const role = await db.selectFrom('roles').select('name').where('id', '=', roleId).executeTakeFirst();
  return role?.name;
}

/** The roles of the policy among `allowed`, in id order: the role picker's options. */
export async function roleOptions(db: Executor, allowed: readonly Role[]): Promise<{ id: number; name: Role }[]> {
  const rows = await db.selectFrom('roles').select(['id', 'name']).orderBy('id').execute();
  return rows.flatMap((r) => (isRole(r.name) && allowed.includes(r.name) ? [{ id: r.id, name: r.name }] : []));
}

/** The operators of the scope by name: the operator picker's options. */
export async function operatorOptions(db: Executor, scope: ManagementScope): Promise<{ id: number; name: string }[]> {
  const rows = await db.selectFrom('operators').select(['id', 'name']).orderBy('name').execute();
  return rows.filter((o) => coversOperator(scope, o.id));
}

/** How many of the (distinct) ids name an existing operator. */
export async function countExistingOperators(db: Executor, operatorIds: readonly number[]): Promise<number> {
  if (operatorIds.length === 0) return 0;
  const known = await db
    .selectFrom('operators')
    .select('id')
    .where('id', 'in', [...operatorIds])
    .execute();
  return known.length;
}

/** The operator of each existing project among the ids; a missing project has no entry. */
export async function operatorsOfProjects(db: Executor, projectIds: readonly number[]): Promise<Map<number, number>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('projects')
    .select(['id', 'operator_id'])
    .where('id', 'in', [...projectIds])
    .execute();
  return new Map(rows.map((r) => [r.id, r.operator_id]));
}

/** The projects of the operators, by operator name then project name: the project picker's options. */
export async function projectsOfOperators(db: Executor, operatorIds: readonly number[]): Promise<ProjectOption[]> {
  if (operatorIds.length === 0) return [];
  return db
    .selectFrom('projects')
    .innerJoin('operators', 'operators.id', 'projects.operator_id')
    .select(['projects.id', 'projects.name', 'projects.operator_id as operatorId', 'operators.name as operatorName'])
    .where('projects.operator_id', 'in', [...operatorIds])
    .orderBy('operators.name')
    .orderBy('projects.name')
    .execute();
}

/** Emails are unique; `email` is already normalised. */
export async function emailInUse(db: Executor, email: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) !== undefined;
}

export interface NewUser {
  firstname: string;
  lastname: string;
  email: string;
  roleId: number;
  operatorIds: readonly number[];
  projectIds: readonly number[];
}

/**
 * Creates an account without a password (the confirmation link sets it), with its memberships and its
 * audit entry in one transaction: a half-made user is never left behind. Answers the new id.
 */
export async function createUser(db: Kysely<Database>, user: NewUser, actor: Actor, nowMs: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('users')
      .values({
        firstname: user.firstname,
        lastname: user.lastname,
        email: user.email,
        password_hash: null,
        role_id: user.roleId,
        operator_id: null,
        email_confirmed: 0,
        deactivated_at: null,
        avatar: null,
        created_at: new Date(nowMs).toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await setMemberships(trx, inserted.id, [...new Set(user.operatorIds)], [...new Set(user.projectIds)]);
    await recordAudit(trx, { ...actor, entity: 'user', action: 'create', entityId: inserted.id, summary: `Created user ${user.email}` }, nowMs);
    return inserted.id;
  });
}

/** Name, role and the (already merged) memberships change together with their audit entry, or not at all. */
export async function editUser(
  db: Kysely<Database>,
  user: Pick<ManagedUser, 'id' | 'email'>,
  change: { firstname: string; lastname: string; roleId: number; operatorIds: readonly number[]; projectIds: readonly number[] },
  actor: Actor,
  nowMs: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ firstname: change.firstname, lastname: change.lastname, role_id: change.roleId }).where('id', '=', user.id).execute();
    await setMemberships(trx, user.id, change.operatorIds, change.projectIds);
    await recordAudit(trx, { ...actor, entity: 'user', action: 'edit', entityId: user.id, summary: `Edited user ${user.email}` }, nowMs);
  });
}

/** Deactivation and the end of every token issued so far go together: a deactivated user keeps no session. */
export async function deactivateUser(db: Kysely<Database>, user: Pick<ManagedUser, 'id' | 'email'>, actor: Actor, nowMs: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ deactivated_at: new Date(nowMs).toISOString() })
      .where('id', '=', user.id)
      .execute();
    await revokeSessions(trx, user.id, nowMs);
    await recordAudit(trx, { ...actor, entity: 'user', action: 'deactivate', entityId: user.id, summary: `Deactivated user ${user.email}` }, nowMs);
  });
}

export async function reactivateUser(db: Kysely<Database>, user: Pick<ManagedUser, 'id' | 'email'>, actor: Actor, nowMs: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Tokens issued before the deactivation stay refused (tokensValidAfter was moved then): a new sign-in is needed.
    await trx.updateTable('users').set({ deactivated_at: null }).where('id', '=', user.id).execute();
    await recordAudit(trx, { ...actor, entity: 'user', action: 'reactivate', entityId: user.id, summary: `Reactivated user ${user.email}` }, nowMs);
  });
}

/** Memberships, tokens and notifications go with the user by the schema's cascades. */
export async function deleteUser(db: Kysely<Database>, user: Pick<ManagedUser, 'id' | 'email'>, actor: Actor, nowMs: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('users').where('id', '=', user.id).execute();
    await recordAudit(trx, { ...actor, entity: 'user', action: 'delete', entityId: user.id, summary: `Deleted user ${user.email}` }, nowMs);
  });
}
