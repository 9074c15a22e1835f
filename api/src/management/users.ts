import type { Kysely, Transaction } from 'kysely';
import { isRole } from 'shared-auth/policy';
import { findAccountById, type AccountRow } from '../auth/accounts';
import type { UserDetails, UserListRow } from '../contracts/management';
import type { Database } from '../db/schema';
import type { Session } from '../auth/runtime';
import { managesEveryOperator, scopeFor, type ManagementScope } from './scope';

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
