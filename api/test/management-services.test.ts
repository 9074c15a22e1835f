import type { Kysely } from 'kysely';
import { ROLES } from 'shared-auth/policy';
import type { Database } from '../src/db/schema';
import type { Actor } from '../src/management/audit';
import { createOperator, createProject, deleteOperatorIfEmpty, deleteProjectIfEmpty, findProject } from '../src/management/operators';
import { countExistingOperators, createUser, emailInUse, loadUser, operatorsOfProjects, projectsOfOperators } from '../src/management/users';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { insertUser } from './support/principals';

/**
 * The management services on their own: each change is one transaction with its audit entry, so a
 * change that fails half-way leaves neither rows nor a trail entry behind. The routes' answers are
 * covered by management.test.ts; this is what the routes rely on underneath.
 */
describe.each(TEST_DATABASES)('management services on $name', (kind) => {
  let database: TestDatabase;
  let db: Kysely<Database>;
  let actor: Actor;
  const now = Date.parse('2026-03-02T09:00:00Z');

  const auditCount = async () =>
    Number(
      (
        await db
          .selectFrom('audit_trail')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    database = await kind.open();
    db = database.db;
    // The roles as the seed writes them; nothing else of the seed is wanted here.
    await db
      .insertInto('roles')
      .values(ROLES.map((name) => ({ name })))
      .execute();
    const adminId = await insertUser(db, { email: 'ada@example.com', role: 'Administrator', operators: [], projects: [] });
    actor = { actorId: adminId, address: '127.0.0.1' };
  });
  afterAll(async () => database.dispose());

  test('a user is created with its memberships and audit entry, or not at all', async () => {
    const operatorId = await createOperator(db, 'Services Op', null, actor, now);
    const projectId = await createProject(db, { id: operatorId, name: 'Services Op' }, 'Rollout', actor, now);
    const role = await db.selectFrom('roles').select('id').where('name', '=', 'Client').executeTakeFirstOrThrow();
    const form = { firstname: 'Cleo', lastname: 'Client', roleId: role.id, operatorIds: [operatorId, operatorId], projectIds: [projectId] };

    const id = await createUser(db, { ...form, email: 'cleo@example.com' }, actor, now);
    const user = await loadUser(db, id);
    expect(user).toMatchObject({ email: 'cleo@example.com', operatorIds: [operatorId], projectIds: [projectId], emailConfirmed: false });
    expect(await emailInUse(db, 'cleo@example.com')).toBe(true);

    // A project that does not exist breaks the membership insert after the user row was written. The
    // refusal is checked as a value: better-sqlite3 makes its SqliteError with the Error of the first test
    // file that loaded it in the jest worker, so in a later file `rejects.toThrow()` saw no Error at all.
    const before = await auditCount();
    const refusal = await createUser(db, { ...form, email: 'half@example.com', projectIds: [987_654] }, actor, now).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toMatchObject({ message: expect.stringMatching(/foreign key/i) });
    expect(await emailInUse(db, 'half@example.com')).toBe(false);
    expect(await auditCount()).toBe(before);
  });

  test('the assignment checks see which operators and projects exist', async () => {
    const operatorId = await createOperator(db, 'Lookup Op', null, actor, now);
    const projectId = await createProject(db, { id: operatorId, name: 'Lookup Op' }, 'Alpha', actor, now);
    expect(await countExistingOperators(db, [])).toBe(0);
    expect(await countExistingOperators(db, [operatorId, 987_654])).toBe(1);
    expect(await operatorsOfProjects(db, [projectId, 987_654])).toEqual(new Map([[projectId, operatorId]]));
    expect(await projectsOfOperators(db, [])).toEqual([]);
    expect(await projectsOfOperators(db, [operatorId])).toEqual([{ id: projectId, name: 'Alpha', operatorId, operatorName: 'Lookup Op' }]);
  });

  test('an operator or project that still has something on it is kept, and the trail says nothing', async () => {
    const operator = { id: await createOperator(db, 'Busy Op', actor.actorId, actor, now), name: 'Busy Op' };
    const project = { id: await createProject(db, operator, 'Busy', actor, now), name: 'Busy' };
    const role = await db.selectFrom('roles').select('id').where('name', '=', 'Client').executeTakeFirstOrThrow();
    await createUser(
      db,
      { firstname: 'Bo', lastname: 'Busy', email: 'bo@example.com', roleId: role.id, operatorIds: [operator.id], projectIds: [project.id] },
      actor,
      now,
    );

    const before = await auditCount();
    // The actor's own membership (a Manager creating the operator) does not count; the other user and the project do.
    expect(await deleteOperatorIfEmpty(db, operator, actor, now)).toBe('1 user and 1 project');
    expect(await deleteProjectIfEmpty(db, project, operator, actor, now)).toBe(1);
    expect(await findProject(db, project.id)).toBeDefined();
    expect(await auditCount()).toBe(before);
  });
});
