import type { Kysely, Transaction } from 'kysely';
import type { OperatorDetails, OperatorSummary } from '../contracts/management';
import type { Database } from '../db/schema';
import { coversOperator, type ManagementScope } from './scope';

type Executor = Kysely<Database> | Transaction<Database>;

async function counts(db: Executor, operatorIds: number[]): Promise<{ users: Map<number, number>; projects: Map<number, number> }> {
  if (operatorIds.length === 0) return { users: new Map(), projects: new Map() };
  const [users, projects] = await Promise.all([
    db
      .selectFrom('user_operators')
      .select(['operator_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('operator_id', 'in', operatorIds)
      .groupBy('operator_id')
      .execute(),
    db
      .selectFrom('projects')
      .select(['operator_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('operator_id', 'in', operatorIds)
      .groupBy('operator_id')
      .execute(),
  ]);
  return {
    users: new Map(users.map((r) => [r.operator_id, Number(r.n)])),
    projects: new Map(projects.map((r) => [r.operator_id, Number(r.n)])),
  };
}

/** The card grid: the operators of the scope, by name, with their counts. */
export async function listOperators(db: Executor, scope: ManagementScope): Promise<OperatorSummary[]> {
  const rows = (await db.selectFrom('operators').select(['id', 'name', 'avatar']).orderBy('name').execute()).filter((o) => coversOperator(scope, o.id));
  const { users, projects } = await counts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ id: r.id, name: r.name, avatar: r.avatar, users: users.get(r.id) ?? 0, projects: projects.get(r.id) ?? 0 }));
}

export async function operatorDetails(db: Executor, operatorId: number): Promise<OperatorDetails | null> {
  const operator = await db.selectFrom('operators').select(['id', 'name', 'avatar']).where('id', '=', operatorId).executeTakeFirst();
  if (!operator) return null;
  const [projectRows, projectUsers, userRows] = await Promise.all([
    db.selectFrom('projects').select(['id', 'name', 'operator_id']).where('operator_id', '=', operatorId).orderBy('name').execute(),
    db
      .selectFrom('user_projects')
      .innerJoin('projects', 'projects.id', 'user_projects.project_id')
      .select(['user_projects.project_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('projects.operator_id', '=', operatorId)
      .groupBy('user_projects.project_id')
      .execute(),
    db
      .selectFrom('user_operators')
      .innerJoin('users', 'users.id', 'user_operators.user_id')
      .select(['users.id', 'users.firstname', 'users.lastname'])
      .where('user_operators.operator_id', '=', operatorId)
      .orderBy('users.firstname')
      .orderBy('users.lastname')
      .execute(),
  ]);
  const usersOfProject = new Map(projectUsers.map((r) => [r.project_id, Number(r.n)]));
  return {
    id: operator.id,
    name: operator.name,
    avatar: operator.avatar,
    users: userRows.length,
    projects: projectRows.length,
    projectList: projectRows.map((p) => ({ id: p.id, name: p.name, users: usersOfProject.get(p.id) ?? 0, operatorId: p.operator_id })),
    userList: userRows.map((u) => ({ id: u.id, name: `${u.firstname} ${u.lastname}` })),
  };
}

/** "2 users and 1 project": what still hangs on an operator that is to be deleted. */
export function remainingOf(users: number, projects: number): string {
  const part = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [users > 0 ? part(users, 'user') : null, projects > 0 ? part(projects, 'project') : null].filter((p) => p !== null).join(' and ');
}
