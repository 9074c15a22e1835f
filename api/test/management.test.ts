import type { FastifyInstance } from 'fastify';
import type { Config } from '../src/config';
import type { AuditTrail, OperatorDetails, OperatorSummary, ProjectOption, RoleOption, UserDetails, UserListRow, UserStats } from 'contracts';
import { readOutbox } from '../src/mail';
import { OPERATOR_MESSAGES } from '../src/routes/operators';
import { USER_MESSAGES } from '../src/routes/users';
import { DEMO_PASSWORD, seed } from '../src/seed';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { multipart } from './fixtures/network-import/dumps';

const ADMIN = { email: 'admin@cellwise.local', password: 'Admin-Password-1' };
/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
/** The start of a JPEG (SOI + APP0 JFIF), padded: what a renamed photo looks like. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]), Buffer.alloc(200, 7)]);

describe.each(TEST_DATABASES)('management (Users/*, Operators/*) on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  let now = Date.parse('2026-03-02T09:00:00Z');
  const ids = new Map<string, number>();
  const operatorIds = new Map<string, number>();
  const tokens: Record<string, string> = {};

  const idOf = (email: string) => {
    const id = ids.get(email);
    if (id === undefined) throw new Error(`no user ${email}`);
    return id;
  };
  const operatorId = (name: string) => {
    const id = operatorIds.get(name);
    if (id === undefined) throw new Error(`no operator ${name}`);
    return id;
  };
  async function projectId(operator: string, name: string): Promise<number> {
    return (
      await database.db.selectFrom('projects').select('id').where('operator_id', '=', operatorId(operator)).where('name', '=', name).executeTakeFirstOrThrow()
    ).id;
  }

  async function tokenOf(email: string): Promise<string> {
    const token = await app.auth.issueToken(idOf(email));
    if (!token) throw new Error(`no token for ${email}`);
    return token;
  }

  const as = (who: string) => ({ authorization: `Bearer ${tokens[who] ?? ''}` });
  const get = (url: string, who = 'admin') => app.inject({ method: 'GET', url, headers: as(who) });
  const post = (url: string, payload: unknown, who = 'admin') => app.inject({ method: 'POST', url, payload: payload as object, headers: as(who) });
  const del = (url: string, payload: unknown, who = 'admin') => app.inject({ method: 'DELETE', url, payload: payload as object, headers: as(who) });

  async function roleId(name: string): Promise<number> {
    return (await database.db.selectFrom('roles').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  }

  /** A MEO-only user: outside the demo Manager's operators (Vodafone PT and NOS). */
  async function createMeoUser(email: string): Promise<number> {
    const res = await post('/api/Users/CreateUser', {
      firstname: 'Maria',
      lastname: 'Meo',
      email,
      roleId: await roleId('CellwiseOS'),
      operatorIds: [operatorId('MEO')],
      projectIds: [await projectId('MEO', 'Operations')],
    });
    expect(res.statusCode).toBe(200);
    const id = res.json<{ id: number }>().id;
    ids.set(email, id);
    return id;
  }

  async function mailedLink(to: string): Promise<URL> {
    await app.mailer.idle();
    const mail = readOutbox(config.dataDir)
      .filter((m) => m.to === to)
      .at(-1);
    const link = /https?:\/\/[^\s"<]+\/auth\/completeregistration\?token=[A-Za-z0-9_-]+&user=\d+/.exec(mail?.text ?? '')?.[0];
    if (!link) throw new Error(`no registration link mailed to ${to}`);
    return new URL(link);
  }

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database, { ADMIN_PASSWORD: ADMIN.password, PUBLIC_URL: 'https://console.example.pt' }, { clock: () => now }));
    await seed(database.db, config);
    for (const row of await database.db.selectFrom('users').select(['id', 'email']).execute()) ids.set(row.email, row.id);
    for (const row of await database.db.selectFrom('operators').select(['id', 'name']).execute()) operatorIds.set(row.name, row.id);
    tokens.admin = await tokenOf(ADMIN.email);
    tokens.manager = await tokenOf('manager@cellwise.local');
    tokens.os = await tokenOf('os@cellwise.local');
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });
  beforeEach(() => {
    now += 60_000;
  });

  describe('who may call', () => {
    test.each([
      ['GET', '/api/Users/GetUsers'],
      ['GET', '/api/Users/GetUsersStats'],
      ['GET', '/api/Users/GetRoles'],
      ['GET', '/api/Operators/GetOperators'],
      ['POST', '/api/Users/CreateUser'],
      ['DELETE', '/api/Users/DeleteUser'],
      ['POST', '/api/Operators/CreateProject'],
    ])('%s %s: 401 without a session, 403 for an engineer', async (method, url) => {
      expect((await app.inject({ method: method as 'GET', url })).statusCode).toBe(401);
      expect((await app.inject({ method: method as 'GET', url, headers: as('os'), payload: method === 'GET' ? undefined : {} })).statusCode).toBe(403);
    });

    test('a Manager creates an operator within their scope (they become its member) and deletes only their own', async () => {
      const created = await post('/api/Operators/CreateOperator', { name: 'Manager Co' }, 'manager');
      expect(created.statusCode).toBe(200);
      const id = created.json<{ id: number }>().id;
      const members = await database.db.selectFrom('user_operators').select('user_id').where('operator_id', '=', id).execute();
      expect(members.map((m) => m.user_id)).toEqual([idOf('manager@cellwise.local')]);
      expect((await get('/api/Operators/GetOperators', 'manager')).json<OperatorSummary[]>().map((o) => o.name)).toContain('Manager Co');
      // Another operator's: not theirs to delete. Their own with colleagues in it: refused, saying why.
      expect((await del('/api/Operators/DeleteOperator', { id: operatorId('MEO') }, 'manager')).statusCode).toBe(403);
      expect((await del('/api/Operators/DeleteOperator', { id: operatorId('NOS') }, 'manager')).statusCode).toBe(409);
      // Their own, with nobody else in it: deleted, membership and all.
      expect((await del('/api/Operators/DeleteOperator', { id }, 'manager')).statusCode).toBe(200);
      expect(await database.db.selectFrom('user_operators').select('user_id').where('operator_id', '=', id).execute()).toEqual([]);
      expect((await get('/api/Operators/GetOperators', 'manager')).json<OperatorSummary[]>().map((o) => o.name)).toEqual(['NOS', 'Vodafone PT']);
    });

    test('the audit trail is for Administrators only', async () => {
      expect((await get('/api/Users/GetAuditTrail', 'manager')).statusCode).toBe(403);
    });
  });

  describe('Users/GetRoles, GetOperators, GetOperatorProjects', () => {
    test('an Administrator may assign every role, a Manager every role but Administrator', async () => {
      const admin = (await get('/api/Users/GetRoles?role=Administrator')).json<RoleOption[]>();
      expect(admin.map((r) => r.name)).toEqual(['Administrator', 'Manager', 'CellwiseHQ', 'CellwiseOS', 'Client']);
      // The legacy client sends its role; the session decides, whatever it says.
      const manager = (await get('/api/Users/GetRoles?role=Administrator', 'manager')).json<RoleOption[]>();
      expect(manager.map((r) => r.name)).toEqual(['Manager', 'CellwiseHQ', 'CellwiseOS', 'Client']);
    });

    test('operators: all of them for an Administrator, their own for a Manager', async () => {
      expect((await get('/api/Users/GetOperators')).json<Array<{ name: string }>>().map((o) => o.name)).toEqual(['MEO', 'NOS', 'Vodafone PT']);
      expect((await get('/api/Users/GetOperators', 'manager')).json<Array<{ name: string }>>().map((o) => o.name)).toEqual(['NOS', 'Vodafone PT']);
    });

    test('projects of the asked operators, in either parameter form; a Manager gets none of another operator', async () => {
      const both = `operatorIds=${operatorId('NOS')},${operatorId('MEO')}`;
      const admin = (await get(`/api/Users/GetOperatorProjects?${both}`)).json<ProjectOption[]>();
      expect(admin.map((p) => `${p.operatorName}/${p.name}`)).toEqual(['MEO/Operations', 'MEO/Swap 2026', 'NOS/Operations', 'NOS/Rollout 5G']);
      const repeated = (await get(`/api/Users/GetOperatorProjects?operatorIds=${operatorId('NOS')}&operatorIds=${operatorId('MEO')}`)).json<ProjectOption[]>();
      expect(repeated).toEqual(admin);
      const manager = (await get(`/api/Users/GetOperatorProjects?${both}`, 'manager')).json<ProjectOption[]>();
      expect(manager.map((p) => `${p.operatorName}/${p.name}`)).toEqual(['NOS/Operations', 'NOS/Rollout 5G']);
      expect((await get('/api/Users/GetOperatorProjects?operatorIds=x')).statusCode).toBe(400);
      expect((await get('/api/Users/GetOperatorProjects')).json()).toEqual([]);
    });
  });

  describe('Users/CreateUser', () => {
    const form = async (overrides: Record<string, unknown> = {}) => ({
      firstname: 'Nuno',
      lastname: 'Novo',
      email: 'nuno.novo@example.pt',
      roleId: await roleId('CellwiseOS'),
      operatorIds: [operatorId('NOS')],
      projectIds: [await projectId('NOS', 'Operations')],
      ...overrides,
    });

    test.each([
      ['firstname', { firstname: '  ' }, 'firstname is required'],
      ['lastname', { lastname: '' }, 'lastname is required'],
      ['email', { email: '' }, 'email is required'],
      ['roleId', { roleId: null }, 'roleId is required'],
      ['an invalid email', { email: 'not-an-address' }, USER_MESSAGES.invalidEmail],
    ])('%s: 400 with the message of §5', async (_what, overrides, message) => {
      const res = await post('/api/Users/CreateUser', await form(overrides));
      expect([res.statusCode, res.json()]).toEqual([400, { message }]);
    });

    test('a missing field and an unknown one are refused by the schema', async () => {
      const { firstname: _firstname, ...withoutName } = await form();
      expect((await post('/api/Users/CreateUser', withoutName)).json()).toEqual({ message: 'firstname is required' });
      expect((await post('/api/Users/CreateUser', { ...(await form()), password: 'x' })).statusCode).toBe(400);
    });

    test('what a Manager may not assign: Administrator, another operator, projects of other operators, no operator', async () => {
      const refused = async (overrides: Record<string, unknown>) => {
        const res = await post('/api/Users/CreateUser', await form(overrides), 'manager');
        return [res.statusCode, res.json<{ message: string }>().message];
      };
      expect(await refused({ roleId: await roleId('Administrator') })).toEqual([403, USER_MESSAGES.roleNotAllowed('Administrator')]);
      expect(await refused({ operatorIds: [operatorId('MEO')], projectIds: [] })).toEqual([403, USER_MESSAGES.foreignOperator]);
      expect(await refused({ projectIds: [await projectId('MEO', 'Operations')] })).toEqual([400, USER_MESSAGES.projectOutsideOperators]);
      expect(await refused({ operatorIds: [], projectIds: [] })).toEqual([400, USER_MESSAGES.managerNeedsOperator]);
      expect(await refused({ roleId: 999 })).toEqual([400, USER_MESSAGES.unknownRole]);
      expect(await database.db.selectFrom('users').select('id').where('email', '=', 'nuno.novo@example.pt').executeTakeFirst()).toBeUndefined();
    });

    test('creates the user, mails the link; completing registration lets them sign in with their role and projects', async () => {
      const res = await post('/api/Users/CreateUser', await form({ email: 'Nuno.Novo@Example.pt' }), 'manager');
      expect(res.statusCode).toBe(200);
      const { message, id } = res.json<{ message: string; id: number }>();
      expect(message).toBe('New user created!');
      ids.set('nuno.novo@example.pt', id);

      const row = (await get('/api/Users/GetUsers', 'manager')).json<UserListRow[]>().find((u) => u.id === id);
      expect(row).toEqual({
        id,
        name: 'Nuno Novo',
        email: 'nuno.novo@example.pt',
        role: 'CellwiseOS',
        operators: 'NOS',
        status: false,
        online: false,
        deactivated: false,
      });
      expect((await post('/api/auth/login', { email: 'nuno.novo@example.pt', password: 'whatever-it-is' })).statusCode).toBe(400);

      const link = await mailedLink('nuno.novo@example.pt');
      expect(link.origin).toBe('https://console.example.pt');
      const done = await post('/api/auth/completeRegistration', {
        password: 'Nuno-Password-1',
        rpassword: 'Nuno-Password-1',
        token: link.searchParams.get('token'),
        user: link.searchParams.get('user'),
      });
      expect(done.statusCode).toBe(200);
      const login = await post('/api/auth/login', { email: 'nuno.novo@example.pt', password: 'Nuno-Password-1' });
      expect(login.statusCode).toBe(200);
      const info = await app.inject({
        method: 'POST',
        url: '/api/account/GetUserInfo',
        headers: { authorization: `Bearer ${login.json<{ token: string }>().token}` },
      });
      expect(info.json()).toMatchObject({ role: 'CellwiseOS', operator: { name: 'NOS' }, projects: ['Operations'] });
    });

    test('the same email twice: 409, whatever its case', async () => {
      const res = await post('/api/Users/CreateUser', await form({ email: 'MANAGER@cellwise.local' }));
      expect([res.statusCode, res.json()]).toEqual([409, { message: USER_MESSAGES.emailTaken }]);
    });
  });

  describe('scoping of users', () => {
    let meoUser = 0;
    beforeAll(async () => {
      meoUser = await createMeoUser('maria.meo@example.pt');
    });

    test('a Manager sees only users of their operators; an Administrator sees everyone', async () => {
      const manager = (await get('/api/Users/GetUsers', 'manager')).json<UserListRow[]>().map((u) => u.email);
      expect(manager).not.toContain('maria.meo@example.pt');
      expect(manager).toEqual(expect.arrayContaining(['manager@cellwise.local', 'hq@cellwise.local', 'client@cellwise.local']));
      const admin = (await get('/api/Users/GetUsers')).json<UserListRow[]>();
      expect(admin.map((u) => u.email)).toContain('maria.meo@example.pt');
      // One operator per name, sorted.
      expect(admin.find((u) => u.email === 'hq@cellwise.local')?.operators).toBe('MEO, Vodafone PT');
    });

    test("another operator's user answers 403 to every call of a Manager", async () => {
      const role = await roleId('CellwiseOS');
      const calls = [
        get(`/api/Users/GetUserById?userId=${meoUser}`, 'manager'),
        post('/api/Users/EditUser', { id: meoUser, firstname: 'X', lastname: 'Y', roleId: role, operatorIds: [], projectIds: [] }, 'manager'),
        post('/api/Users/ResendConfirmationEmail', { userId: meoUser }, 'manager'),
        post('/api/Users/DeactivateUser', { userId: meoUser }, 'manager'),
        del('/api/Users/DeleteUser', { userId: meoUser }, 'manager'),
      ];
      for (const res of await Promise.all(calls)) expect([res.statusCode, res.json()]).toEqual([403, { message: USER_MESSAGES.hidden }]);
      expect((await get(`/api/Users/GetUserById?userId=${meoUser}`)).json<UserDetails>()).toMatchObject({ email: 'maria.meo@example.pt', status: false });
      expect((await get('/api/Users/GetUserById?userId=999999')).statusCode).toBe(404);
    });

    test('a Manager may look at an Administrator but not change one', async () => {
      expect((await get(`/api/Users/GetUserById?userId=${idOf(ADMIN.email)}`, 'manager')).statusCode).toBe(200);
      const res = await post(
        '/api/Users/EditUser',
        { id: idOf(ADMIN.email), firstname: 'X', lastname: 'Y', roleId: await roleId('Client'), operatorIds: [], projectIds: [] },
        'manager',
      );
      expect([res.statusCode, res.json()]).toEqual([403, { message: USER_MESSAGES.administrator }]);
    });

    test('stats count the users the caller sees', async () => {
      const admin = (await get('/api/Users/GetUsersStats')).json<UserStats>();
      const manager = (await get('/api/Users/GetUsersStats', 'manager')).json<UserStats>();
      const all = await database.db.selectFrom('users').select('id').execute();
      expect(admin.registered).toBe(all.length);
      expect(manager.registered).toBe((await get('/api/Users/GetUsers', 'manager')).json<UserListRow[]>().length);
      expect(manager.registered).toBeLessThan(admin.registered);
      expect(admin.client).toBe(1);
      // Both callers have just used the API: presence counts them online.
      expect(admin.online).toBeGreaterThanOrEqual(2);
      expect(admin.active).toBe(all.length - 1 /* maria.meo has not confirmed */ - (await unconfirmedOthers()));
    });

    async function unconfirmedOthers(): Promise<number> {
      const rows = await database.db
        .selectFrom('users')
        .select('email')
        .where('email_confirmed', '=', 0)
        .where('email', '!=', 'maria.meo@example.pt')
        .execute();
      return rows.length;
    }
  });

  describe('Users/EditUser', () => {
    test('changes name, role and memberships; the email cannot change', async () => {
      const id = await createMeoUser('edit.me@example.pt');
      const changed = await post('/api/Users/EditUser', {
        id,
        firstname: 'Edite',
        lastname: 'Mudada',
        email: 'edit.me@example.pt',
        roleId: await roleId('CellwiseHQ'),
        operatorIds: [operatorId('MEO'), operatorId('NOS')],
        projectIds: [await projectId('NOS', 'Rollout 5G')],
      });
      expect(changed.json()).toEqual({ message: USER_MESSAGES.updated });
      const details = (await get(`/api/Users/GetUserById?userId=${id}`)).json<UserDetails>();
      expect(details).toMatchObject({
        firstname: 'Edite',
        lastname: 'Mudada',
        roleId: await roleId('CellwiseHQ'),
        projectIds: [await projectId('NOS', 'Rollout 5G')],
      });
      expect([...details.operatorIds].sort()).toEqual([operatorId('MEO'), operatorId('NOS')].sort());

      const email = await post('/api/Users/EditUser', {
        ...details,
        email: 'other@example.pt',
        roleId: details.roleId,
        status: undefined,
        deactivated: undefined,
      });
      expect(email.json()).toEqual({ message: USER_MESSAGES.emailFixed });
    });

    test("a Manager's edit keeps the user's memberships of operators the Manager does not manage", async () => {
      const hq = idOf('hq@cellwise.local');
      const before = (await get(`/api/Users/GetUserById?userId=${hq}`)).json<UserDetails>();
      const res = await post(
        '/api/Users/EditUser',
        {
          id: hq,
          firstname: 'Rui',
          lastname: 'Almeida',
          roleId: before.roleId,
          operatorIds: [operatorId('NOS')],
          projectIds: [await projectId('NOS', 'Operations')],
        },
        'manager',
      );
      expect(res.statusCode).toBe(200);
      const after = (await get(`/api/Users/GetUserById?userId=${hq}`)).json<UserDetails>();
      // Vodafone PT (the Manager's) was dropped, MEO (not the Manager's) kept with its project.
      expect([...after.operatorIds].sort()).toEqual([operatorId('MEO'), operatorId('NOS')].sort());
      expect(after.projectIds).toEqual(expect.arrayContaining([await projectId('MEO', 'Operations'), await projectId('NOS', 'Operations')]));
      expect(after.projectIds).not.toContain(await projectId('Vodafone PT', 'Operations'));
    });

    test('nobody changes their own role', async () => {
      const me = (await get(`/api/Users/GetUserById?userId=${idOf(ADMIN.email)}`)).json<UserDetails>();
      const res = await post('/api/Users/EditUser', {
        id: me.id,
        firstname: 'A',
        lastname: 'B',
        roleId: await roleId('Client'),
        operatorIds: me.operatorIds,
        projectIds: me.projectIds,
      });
      expect(res.json()).toEqual({ message: USER_MESSAGES.ownRole });
    });
  });

  describe('resend, deactivate, delete', () => {
    test('resend mails a new link (the old one stops working); a confirmed user gets 409', async () => {
      const id = await createMeoUser('resend.me@example.pt');
      const first = await mailedLink('resend.me@example.pt');
      const res = await post('/api/Users/ResendConfirmationEmail', { userId: id });
      expect(res.json()).toEqual({ message: 'Confirmation email sent!' });
      const second = await mailedLink('resend.me@example.pt');
      expect(second.searchParams.get('token')).not.toBe(first.searchParams.get('token'));
      const old = await post('/api/auth/completeRegistration', {
        password: 'Resend-Me-12',
        rpassword: 'Resend-Me-12',
        token: first.searchParams.get('token'),
        user: id,
      });
      expect(old.statusCode).toBe(400);
      expect((await post('/api/Users/ResendConfirmationEmail', { userId: idOf('os@cellwise.local') })).statusCode).toBe(409);
    });

    test('deactivation ends the sessions and stops sign-in; only confirmed users; never yourself', async () => {
      const client = idOf('client@cellwise.local');
      const clientToken = await tokenOf('client@cellwise.local');
      expect((await app.inject({ method: 'POST', url: '/api/account/GetUserInfo', headers: { authorization: `Bearer ${clientToken}` } })).statusCode).toBe(200);
      // Their console has just used the API: online.
      expect((await get('/api/Users/GetUsers')).json<UserListRow[]>().find((u) => u.id === client)).toMatchObject({ online: true });
      const onlineBefore = (await get('/api/Users/GetUsersStats')).json<UserStats>().online;

      expect((await post('/api/Users/DeactivateUser', { userId: idOf(ADMIN.email) })).json()).toEqual({ message: USER_MESSAGES.notYourself('deactivate') });
      expect((await post('/api/Users/DeactivateUser', { userId: idOf('maria.meo@example.pt') })).statusCode).toBe(409);

      const res = await post('/api/Users/DeactivateUser', { userId: client }, 'manager');
      expect(res.json()).toEqual({ message: USER_MESSAGES.deactivated });
      expect((await app.inject({ method: 'POST', url: '/api/account/GetUserInfo', headers: { authorization: `Bearer ${clientToken}` } })).statusCode).toBe(401);
      const login = await post('/api/auth/login', { email: 'client@cellwise.local', password: DEMO_PASSWORD });
      expect(login.statusCode).toBe(403);
      // Signed out at once: no longer online, though their last request is within the activity window.
      expect((await get('/api/Users/GetUsers')).json<UserListRow[]>().find((u) => u.id === client)).toMatchObject({
        status: true,
        deactivated: true,
        online: false,
      });
      expect((await get('/api/Users/GetUsersStats')).json<UserStats>().online).toBe(onlineBefore - 1);
      expect((await post('/api/Users/DeactivateUser', { userId: client })).statusCode).toBe(409);
    });

    test('reactivation lets a deactivated user sign in again; their old tokens stay refused; only the deactivated', async () => {
      const os = idOf('os@cellwise.local');
      const oldToken = await tokenOf('os@cellwise.local');
      expect((await post('/api/Users/ReactivateUser', { userId: os })).json()).toEqual({ message: USER_MESSAGES.notDeactivated });
      expect((await post('/api/Users/DeactivateUser', { userId: os }, 'manager')).statusCode).toBe(200);
      expect((await post('/api/auth/login', { email: 'os@cellwise.local', password: DEMO_PASSWORD })).statusCode).toBe(403);

      const res = await post('/api/Users/ReactivateUser', { userId: os }, 'manager');
      expect([res.statusCode, res.json()]).toEqual([200, { message: USER_MESSAGES.reactivated }]);
      expect((await get('/api/Users/GetUsers')).json<UserListRow[]>().find((u) => u.id === os)).toMatchObject({ deactivated: false });
      expect((await post('/api/auth/login', { email: 'os@cellwise.local', password: DEMO_PASSWORD })).statusCode).toBe(200);
      expect((await app.inject({ method: 'POST', url: '/api/account/GetUserInfo', headers: { authorization: `Bearer ${oldToken}` } })).statusCode).toBe(401);
      expect((await post('/api/Users/ReactivateUser', { userId: os })).statusCode).toBe(409);
      expect((await post('/api/Users/ReactivateUser', { userId: 999999 })).statusCode).toBe(404);
      expect((await post('/api/Users/ReactivateUser', { userId: idOf(ADMIN.email) })).json()).toEqual({ message: USER_MESSAGES.notYourself('reactivate') });
      const trail = (await get('/api/Users/GetAuditTrail')).body;
      expect(trail).toContain('Reactivated user os@cellwise.local');
    });

    test('a Manager cannot deactivate or delete a user who also works for another operator', async () => {
      const res = await del('/api/Users/DeleteUser', { userId: idOf('hq@cellwise.local') }, 'manager');
      expect([res.statusCode, res.json()]).toEqual([403, { message: USER_MESSAGES.foreignOperators }]);
    });

    test('delete removes the user, their memberships and their sessions', async () => {
      const id = await createMeoUser('delete.me@example.pt');
      expect((await del('/api/Users/DeleteUser', { userId: idOf(ADMIN.email) })).statusCode).toBe(400);
      const res = await del('/api/Users/DeleteUser', { userId: id });
      expect(res.json()).toEqual({ message: USER_MESSAGES.deleted });
      expect(await database.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
      expect(await database.db.selectFrom('user_operators').select('user_id').where('user_id', '=', id).execute()).toEqual([]);
      expect((await del('/api/Users/DeleteUser', { userId: id })).statusCode).toBe(404);
    });
  });

  describe('Operators/*', () => {
    test('the grid: every operator for an Administrator, their own for a Manager, with counts', async () => {
      const admin = (await get('/api/Operators/GetOperators')).json<OperatorSummary[]>();
      expect(admin.map((o) => o.name)).toEqual(['MEO', 'NOS', 'Vodafone PT']);
      const nos = admin.find((o) => o.name === 'NOS');
      const users = await database.db.selectFrom('user_operators').select('user_id').where('operator_id', '=', operatorId('NOS')).execute();
      expect(nos).toEqual({ id: operatorId('NOS'), name: 'NOS', avatar: null, users: users.length, projects: 2 });
      expect((await get('/api/Operators/GetOperators', 'manager')).json<OperatorSummary[]>().map((o) => o.name)).toEqual(['NOS', 'Vodafone PT']);
    });

    test('details: projects with their user counts and the users; another operator is 403 for a Manager', async () => {
      const details = (await get(`/api/Operators/GetOperator?operatorId=${operatorId('Vodafone PT')}`, 'manager')).json<OperatorDetails>();
      expect(details.projectList.map((p) => p.name)).toEqual(['Operations', 'Rollout 5G', 'Swap 2026']);
      expect(details.userList.map((u) => u.name)).toContain('Marta Sousa');
      expect(details.projects).toBe(3);
      const operations = details.projectList.find((p) => p.name === 'Operations');
      const onOperations = await database.db
        .selectFrom('user_projects')
        .select('user_id')
        .where('project_id', '=', operations?.id ?? 0)
        .execute();
      expect(operations?.users).toBe(onOperations.length);
      expect((await get(`/api/Operators/GetOperator?operatorId=${operatorId('MEO')}`, 'manager')).statusCode).toBe(403);
      expect((await get('/api/Operators/GetOperator?operatorId=424242')).statusCode).toBe(404);
    });

    test('create, rename, add and delete a project, delete the empty operator', async () => {
      expect((await post('/api/Operators/CreateOperator', { name: ' ' })).json()).toEqual({ message: 'name is required' });
      expect((await post('/api/Operators/CreateOperator', {})).json()).toEqual({ message: 'name is required' });
      const created = await post('/api/Operators/CreateOperator', { name: 'Digi' });
      expect(created.json()).toMatchObject({ message: 'New operator created!' });
      const id = created.json<{ id: number }>().id;
      expect((await post('/api/Operators/CreateOperator', { name: 'Digi' })).statusCode).toBe(409);

      expect((await post('/api/Operators/UpdateOperator', { id, name: 'Digi PT' })).json()).toEqual({ message: 'Operator updated!' });
      expect((await post('/api/Operators/UpdateOperator', { id, name: 'NOS' })).json()).toEqual({ message: OPERATOR_MESSAGES.nameTaken('NOS') });

      const project = await post('/api/Operators/CreateProject', { name: 'Launch', operatorId: id });
      expect(project.json()).toMatchObject({ message: 'New project created!' });
      expect((await post('/api/Operators/CreateProject', { name: 'Launch', operatorId: id })).statusCode).toBe(409);
      const refused = await del('/api/Operators/DeleteOperator', { id });
      expect([refused.statusCode, refused.json()]).toEqual([409, { message: OPERATOR_MESSAGES.notEmpty('Digi PT', '1 project') }]);

      expect((await del('/api/Operators/DeleteProject', { projectId: project.json<{ id: number }>().id })).json()).toEqual({ message: 'Project deleted.' });
      expect((await del('/api/Operators/DeleteOperator', { id })).json()).toEqual({ message: 'Operator deleted.' });
      expect((await get(`/api/Operators/GetOperator?operatorId=${id}`)).statusCode).toBe(404);
    });

    test('an operator with users and projects is not deleted: 409 says how many', async () => {
      // Users other than the caller: whoever deletes an operator may be a member of it.
      const users = await database.db
        .selectFrom('user_operators')
        .select('user_id')
        .where('operator_id', '=', operatorId('MEO'))
        .where('user_id', '<>', idOf(ADMIN.email))
        .execute();
      const res = await del('/api/Operators/DeleteOperator', { id: operatorId('MEO') });
      expect([res.statusCode, res.json()]).toEqual([409, { message: OPERATOR_MESSAGES.notEmpty('MEO', `${users.length} users and 2 projects`) }]);
      expect((await get('/api/Operators/GetOperators')).json<OperatorSummary[]>().map((o) => o.name)).toContain('MEO');
    });

    test('a project with users is not deleted', async () => {
      const res = await del('/api/Operators/DeleteProject', { projectId: await projectId('NOS', 'Operations') }, 'manager');
      expect(res.statusCode).toBe(409);
      expect(res.json<{ message: string }>().message).toMatch(/^Operations still has \d+ users?\./);
    });

    test('a Manager manages their own operators only', async () => {
      expect((await post('/api/Operators/UpdateOperator', { id: operatorId('MEO'), name: 'Mine' }, 'manager')).statusCode).toBe(403);
      expect((await post('/api/Operators/CreateProject', { name: 'Mine', operatorId: operatorId('MEO') }, 'manager')).statusCode).toBe(403);
      const res = await post('/api/Operators/CreateProject', { name: 'Fibre', operatorId: operatorId('NOS') }, 'manager');
      expect(res.json()).toMatchObject({ message: 'New project created!' });
    });
  });

  describe('Operators/UpdateImage', () => {
    /** Sends the file through the file service, as the console does; answers the File/Upload response. */
    const send = (filename: string, content: Buffer, who = 'admin') => {
      const body = multipart([{ name: 'file', filename, content }]);
      return app.inject({ method: 'POST', url: '/api/File/Upload', payload: body.payload, headers: { ...body.headers, ...as(who) } });
    };
    const setPicture = async (operator: number, filename: string, content: Buffer, who = 'admin') => {
      const sent = await send(filename, content, who);
      expect(sent.statusCode).toBe(200);
      return post('/api/Operators/UpdateImage', { id: operator, uploadId: sent.json<{ uploadId: string }>().uploadId }, who);
    };

    test('a PNG is stored and served; the grid carries its version; removing it brings the initials back', async () => {
      const nos = operatorId('NOS');
      const res = await setPicture(nos, 'nos.png', PNG, 'manager');
      expect(res.statusCode).toBe(200);
      const { avatar } = res.json<{ message: string; avatar: string }>();
      expect(res.json()).toMatchObject({ message: 'Operator updated!' });
      const card = (await get('/api/Operators/GetOperators')).json<OperatorSummary[]>().find((o) => o.id === nos);
      expect(card?.avatar).toBe(avatar);
      const image = await get(`/api/Operators/GetImage?operatorId=${nos}&v=${encodeURIComponent(avatar)}`);
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.headers['cache-control']).toContain('immutable');
      expect(image.rawPayload.equals(PNG)).toBe(true);

      const removed = await post('/api/Operators/UpdateImage', { id: nos, uploadId: null });
      expect(removed.json()).toEqual({ message: 'Operator updated!', avatar: null });
      expect((await get(`/api/Operators/GetImage?operatorId=${nos}`)).statusCode).toBe(404);
    });

    test('checked by content: a JPEG named .png is refused by the file service; an upload of another type is refused here', async () => {
      const meo = operatorId('MEO');
      const jpeg = await send('logo.png', JPEG);
      expect([jpeg.statusCode, jpeg.json()]).toEqual([400, { message: 'File logo.png is not a PNG image.' }]);
      // A PNG signature followed by anything but the header chunk is not a picture either.
      expect((await send('fake.png', Buffer.concat([PNG.subarray(0, 8), Buffer.from('not a header chunk at all')]))).statusCode).toBe(400);
      const workbook = await send('plan.xlsx', Buffer.from('PK not really'));
      expect(workbook.statusCode).toBe(400);
      expect((await get(`/api/Operators/GetImage?operatorId=${meo}`)).statusCode).toBe(404);
    });

    test('more than 10,000,000 bytes: 413 with the message of §8; exactly the limit is fine', async () => {
      const big = Buffer.concat([PNG, Buffer.alloc(10_000_001 - PNG.length)]);
      const res = await send('C:\\pictures\\huge.png', big);
      expect([res.statusCode, res.json()]).toEqual([413, { message: 'File huge.png not valid. Please check file size.' }]);
      const limit = Buffer.concat([PNG, Buffer.alloc(10_000_000 - PNG.length)]);
      expect((await setPicture(operatorId('MEO'), 'limit.png', limit)).statusCode).toBe(200);
    });

    test("only the uploader's own upload, only their own operators", async () => {
      expect((await setPicture(operatorId('MEO'), 'x.png', PNG, 'manager')).statusCode).toBe(403);
      const adminUpload = (await send('admin.png', PNG)).json<{ uploadId: string }>().uploadId;
      const stolen = await post('/api/Operators/UpdateImage', { id: operatorId('NOS'), uploadId: adminUpload }, 'manager');
      expect([stolen.statusCode, stolen.json()]).toEqual([404, { message: 'Upload not found.' }]);
      expect((await post('/api/Operators/UpdateImage', { id: operatorId('NOS') })).json()).toEqual({ message: 'uploadId is required' });
    });
  });

  describe('audit trail', () => {
    test('records who changed what, when and from where; newest first', async () => {
      const trail = (await get('/api/Users/GetAuditTrail?size=500')).json<AuditTrail>();
      expect(trail.total).toBeGreaterThan(10);
      const actions = trail.rows.map((r) => `${r.entity} ${r.action}`);
      for (const expected of [
        'user create',
        'user edit',
        'user resend',
        'user deactivate',
        'user reactivate',
        'user delete',
        'operator create',
        'operator edit',
        'operator delete',
        'operator picture',
        'project create',
        'project delete',
      ])
        expect(actions).toContain(expected);
      const deactivation = trail.rows.find((r) => r.action === 'deactivate' && r.entityId === idOf('client@cellwise.local'));
      expect(deactivation).toMatchObject({ actor: 'manager@cellwise.local', entity: 'user', entityId: idOf('client@cellwise.local'), address: '127.0.0.1' });
      expect(trail.rows.map((r) => r.id)).toEqual([...trail.rows.map((r) => r.id)].sort((a, b) => b - a));
      // Refused changes leave no trace.
      expect(trail.rows.some((r) => r.summary.includes('Mine'))).toBe(false);
    });
  });
});
