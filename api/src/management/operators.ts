import type { Kysely, Transaction } from 'kysely';
import type { OperatorDetails, OperatorSummary } from 'contracts';
import type { Database } from '../db/schema';
import { recordAudit, type Actor } from './audit';
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

export async function findOperator(db: Executor, operatorId: number): Promise<{ id: number; name: string } | undefined> {
  return db.selectFrom('operators').select(['id', 'name']).where('id', '=', operatorId).executeTakeFirst();
}

export async function findProject(db: Executor, projectId: number): Promise<{ id: number; name: string; operator_id: number } | undefined> {
  return db.selectFrom('projects').select(['id', 'name', 'operator_id']).where('id', '=', projectId).executeTakeFirst();
}

/** The PNG and its version (`updated_at`, the operator's `avatar`), or undefined when it has none. */
export async function operatorPicture(db: Executor, operatorId: number): Promise<{ png: Buffer; updated_at: string } | undefined> {
  return db.selectFrom('operator_pictures').select(['png', 'updated_at']).where('operator_id', '=', operatorId).executeTakeFirst();
}

/**
 * Creates the operator; `memberId` (a Manager creating it) becomes its member in the same transaction.
 * A duplicate name throws the database's unique violation, for the caller to answer.
 */
export async function createOperator(db: Kysely<Database>, name: string, memberId: number | null, actor: Actor, nowMs: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('operators')
      .values({ name, avatar: null, created_at: new Date(nowMs).toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (memberId !== null) await trx.insertInto('user_operators').values({ user_id: memberId, operator_id: inserted.id }).execute();
    await recordAudit(trx, { ...actor, entity: 'operator', action: 'create', entityId: inserted.id, summary: `Created operator ${name}` }, nowMs);
    return inserted.id;
  });
}

/** A duplicate name throws the database's unique violation, for the caller to answer. */
export async function renameOperator(db: Kysely<Database>, operator: { id: number; name: string }, name: string, actor: Actor, nowMs: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('operators').set({ name }).where('id', '=', operator.id).execute();
    await recordAudit(
      trx,
      { ...actor, entity: 'operator', action: 'edit', entityId: operator.id, summary: `Renamed operator ${operator.name} to ${name}` },
      nowMs,
    );
  });
}

/**
 * Replaces (or, with null, removes) the picture. The operator's `avatar` becomes the picture's version,
 * which is what lets a client cache it for good; answers that version.
 */
export async function setOperatorPicture(
  db: Kysely<Database>,
  operator: { id: number; name: string },
  picture: { name: string; bytes: Buffer } | null,
  actor: Actor,
  nowMs: number,
): Promise<string | null> {
  const version = picture ? new Date(nowMs).toISOString() : null;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('operator_pictures').where('operator_id', '=', operator.id).execute();
    if (picture && version) await trx.insertInto('operator_pictures').values({ operator_id: operator.id, png: picture.bytes, updated_at: version }).execute();
    await trx.updateTable('operators').set({ avatar: version }).where('id', '=', operator.id).execute();
    const summary = picture
      ? `Set the picture of ${operator.name} (${picture.name}, ${picture.bytes.length} bytes)`
      : `Removed the picture of ${operator.name}`;
    await recordAudit(trx, { ...actor, entity: 'operator', action: picture ? 'picture' : 'remove picture', entityId: operator.id, summary }, nowMs);
  });
  return version;
}

/**
 * Deletes the operator when nothing hangs on it; otherwise answers what remains (`remainingOf`) and
 * deletes nothing. Counted and deleted in one transaction: a user added meanwhile cannot be orphaned.
 * The caller's own membership does not count: a Manager is a member of every operator they may delete.
 */
export async function deleteOperatorIfEmpty(db: Kysely<Database>, operator: { id: number; name: string }, actor: Actor, nowMs: number): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const users = await trx
      .selectFrom('user_operators')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('operator_id', '=', operator.id)
      .where('user_id', '<>', actor.actorId)
      .executeTakeFirstOrThrow();
    const projects = await trx
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('operator_id', '=', operator.id)
      .executeTakeFirstOrThrow();
    const left = remainingOf(Number(users.n), Number(projects.n));
    if (left !== '') return left;
    await trx.deleteFrom('operators').where('id', '=', operator.id).execute();
    await recordAudit(trx, { ...actor, entity: 'operator', action: 'delete', entityId: operator.id, summary: `Deleted operator ${operator.name}` }, nowMs);
    return '';
  });
}

/** A duplicate name within the operator throws the database's unique violation, for the caller to answer. */
export async function createProject(db: Kysely<Database>, operator: { id: number; name: string }, name: string, actor: Actor, nowMs: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx.insertInto('projects').values({ name, operator_id: operator.id }).returning('id').executeTakeFirstOrThrow();
    await recordAudit(
      trx,
      { ...actor, entity: 'project', action: 'create', entityId: inserted.id, summary: `Created project ${name} of ${operator.name}` },
      nowMs,
    );
    return inserted.id;
  });
}

/** Deletes the project when nobody is on it; otherwise answers how many users are and deletes nothing (one transaction). */
export async function deleteProjectIfEmpty(
  db: Kysely<Database>,
  project: { id: number; name: string },
  operator: { name: string },
  actor: Actor,
  nowMs: number,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const count = await trx
      .selectFrom('user_projects')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('project_id', '=', project.id)
      .executeTakeFirstOrThrow();
    if (Number(count.n) > 0) return Number(count.n);
    await trx.deleteFrom('projects').where('id', '=', project.id).execute();
    await recordAudit(
      trx,
      { ...actor, entity: 'project', action: 'delete', entityId: project.id, summary: `Deleted project ${project.name} of ${operator.name}` },
      nowMs,
    );
    return 0;
  });
}
