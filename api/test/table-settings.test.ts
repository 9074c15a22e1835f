import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Config } from '../src/config';
import { TABLE_SETTINGS_LIMITS, TABLE_SETTINGS_MESSAGES, type ColumnSetting, type TableSettings } from '../src/contracts/table-settings';
import { DEMO_PASSWORD } from '../src/seed';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { headersOf, insertUser, setUpCallers, type Caller, type Callers } from './support/principals';

const TRACKER = 'tracking.tracker';
const COLUMNS: ColumnSetting[] = [
  { key: 'equipName', hidden: false, width: 320 },
  { key: 'localId', hidden: false, width: null },
  { key: 'supplier', hidden: true, width: null },
];

describe.each(TEST_DATABASES)('table settings on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  let callers: Callers;

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database));
    callers = await setUpCallers(app, database, config);
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const call = (caller: Caller | { token: string }, options: InjectOptions) =>
    app.inject({ ...options, headers: { ...('name' in caller ? headersOf(caller) : { authorization: `Bearer ${caller.token}` }), ...options.headers } });
  const get = (caller: Caller | { token: string }, tableKey: string) =>
    call(caller, { method: 'GET', url: `/api/TableSettings/GetSettings?tableKey=${encodeURIComponent(tableKey)}` });
  const saveColumns = (caller: Caller | { token: string }, tableKey: string, columns: unknown) =>
    call(caller, { method: 'PUT', url: '/api/TableSettings/SaveColumns', payload: { tableKey, columns } });
  const saveFilter = (caller: Caller | { token: string }, tableKey: string, name: string, filters: unknown) =>
    call(caller, { method: 'PUT', url: '/api/TableSettings/SaveFilter', payload: { tableKey, name, filters } });
  const deleteFilter = (caller: Caller | { token: string }, tableKey: string, name: string) =>
    call(caller, { method: 'DELETE', url: '/api/TableSettings/DeleteFilter', payload: { tableKey, name } });

  const settingsRows = async () =>
    Number(
      (
        await database.db
          .selectFrom('table_settings')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const filterRows = async () =>
    Number(
      (
        await database.db
          .selectFrom('saved_filters')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('nothing saved: empty lists', async () => {
    const res = await get(callers.CellwiseOS, 'tracking.commissioningplan');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tableKey: 'tracking.commissioningplan', columns: [], savedFilters: [] });
  });

  test('columns saved in one session are read back in another of the same user (another browser), in order', async () => {
    const saved = await saveColumns(callers.CellwiseHQ, TRACKER, COLUMNS);
    expect(saved.statusCode).toBe(200);
    expect(saved.json<TableSettings>().columns).toEqual(COLUMNS);
    // A second sign-in: a new token, as a second browser would have.
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: callers.CellwiseHQ.email, password: DEMO_PASSWORD } });
    expect(login.statusCode).toBe(200);
    const other = { token: login.json<{ token: string }>().token };
    expect((await get(other, TRACKER)).json<TableSettings>().columns).toEqual(COLUMNS);
  });

  test("a user never sees or changes another user's settings", async () => {
    await saveColumns(callers.Manager, 'management.users', [{ key: 'email', hidden: true, width: null }]);
    await saveFilter(callers.Manager, 'management.users', 'Managers', { role: 'Manager' });
    const asAdmin = (await get(callers.Administrator, 'management.users')).json<TableSettings>();
    expect(asAdmin).toEqual({ tableKey: 'management.users', columns: [], savedFilters: [] });
    // Deleting "their" filter by name only looks among the caller's own.
    expect((await deleteFilter(callers.Administrator, 'management.users', 'Managers')).statusCode).toBe(404);
    const asManager = (await get(callers.Manager, 'management.users')).json<TableSettings>();
    expect(asManager.columns).toEqual([{ key: 'email', hidden: true, width: null }]);
    expect(asManager.savedFilters.map((f) => f.name)).toEqual(['Managers']);
  });

  test('an empty column list goes back to the table’s own columns', async () => {
    await saveColumns(callers.CellwiseOS, 'tracking.workorderstatus', COLUMNS);
    const before = await settingsRows();
    const res = await saveColumns(callers.CellwiseOS, 'tracking.workorderstatus', []);
    expect(res.statusCode).toBe(200);
    expect(res.json<TableSettings>().columns).toEqual([]);
    expect(await settingsRows()).toBe(before - 1);
  });

  test.each([
    ['a column listed twice', [COLUMNS[0], { ...COLUMNS[0], hidden: true }], TABLE_SETTINGS_MESSAGES.duplicateColumn('equipName')],
    ['a width below the least', [{ key: 'a', hidden: false, width: TABLE_SETTINGS_LIMITS.minWidth - 1 }], undefined],
    ['a width above the most', [{ key: 'a', hidden: false, width: TABLE_SETTINGS_LIMITS.maxWidth + 1 }], undefined],
    ['a fractional width', [{ key: 'a', hidden: false, width: 100.5 }], undefined],
    ['a column without hidden', [{ key: 'a', width: null }], undefined],
    ['an extra property', [{ key: 'a', hidden: false, width: null, colour: 'red' }], undefined],
    ['an empty key', [{ key: '', hidden: false, width: null }], undefined],
    ['a key with a control character', [{ key: 'a\u0001b', hidden: false, width: null }], TABLE_SETTINGS_MESSAGES.controlCharacters('A column key')],
    // NUL is refused before any handler (PostgreSQL cannot store it), with a message of its own.
    ['a key with a NUL', [{ key: 'a\u0000b', hidden: false, width: null }], undefined],
    ['too many columns', Array.from({ length: TABLE_SETTINGS_LIMITS.columns + 1 }, (_, i) => ({ key: `c${i}`, hidden: false, width: null })), undefined],
    ['not a list', { key: 'a' }, undefined],
  ])('SaveColumns with %s: 400 with a message, nothing stored', async (_what, columns, message) => {
    const before = await settingsRows();
    const res = await saveColumns(callers.Administrator, 'tracking.bad-columns', columns);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: message ?? expect.any(String) });
    expect(await settingsRows()).toBe(before);
  });

  test.each([
    ['an empty key', ''],
    ['a space', 'tracking tracker'],
    ['a leading dot', '.tracker'],
    ['too long a key', `t${'x'.repeat(TABLE_SETTINGS_LIMITS.tableKeyLength)}`],
  ])('a table key with %s: 400', async (_what, tableKey) => {
    expect((await get(callers.Administrator, tableKey)).statusCode).toBe(400);
    expect((await saveColumns(callers.Administrator, tableKey, COLUMNS)).statusCode).toBe(400);
    expect((await saveFilter(callers.Administrator, tableKey, 'x', { a: 'b' })).statusCode).toBe(400);
  });

  test('without a session: 401 on every call', async () => {
    const anonymous = callers.anonymous;
    expect((await get(anonymous, TRACKER)).statusCode).toBe(401);
    expect((await saveColumns(anonymous, TRACKER, COLUMNS)).statusCode).toBe(401);
    expect((await saveFilter(anonymous, TRACKER, 'x', { a: 'b' })).statusCode).toBe(401);
    expect((await deleteFilter(anonymous, TRACKER, 'x')).statusCode).toBe(401);
  });

  test('saved filters: trimmed, listed by name, a saved name replaced, deleted by name', async () => {
    const os = callers.CellwiseOS;
    expect((await saveFilter(os, TRACKER, '  Ericsson in Lisbon ', { supplier: ' Ericsson ', equipName: 'Lisboa' })).statusCode).toBe(200);
    await saveFilter(os, TRACKER, 'Alvalade', { equipName: 'Alvalade' });
    let settings = (await get(os, TRACKER)).json<TableSettings>();
    expect(settings.savedFilters).toEqual([
      { name: 'Alvalade', filters: { equipName: 'Alvalade' }, updatedAt: expect.any(String) },
      { name: 'Ericsson in Lisbon', filters: { supplier: 'Ericsson', equipName: 'Lisboa' }, updatedAt: expect.any(String) },
    ]);
    const replaced = await saveFilter(os, TRACKER, 'Alvalade', { localId: 'LX0001' });
    expect(replaced.json<TableSettings>().savedFilters.find((f) => f.name === 'Alvalade')?.filters).toEqual({ localId: 'LX0001' });
    expect(replaced.json<TableSettings>().savedFilters).toHaveLength(2);
    const deleted = await deleteFilter(os, TRACKER, 'Alvalade');
    expect(deleted.statusCode).toBe(200);
    settings = deleted.json<TableSettings>();
    expect(settings.savedFilters.map((f) => f.name)).toEqual(['Ericsson in Lisbon']);
    expect((await deleteFilter(os, TRACKER, 'Alvalade')).json()).toEqual({ message: TABLE_SETTINGS_MESSAGES.noSuchFilter });
  });

  test.each([
    ['a blank name', '   ', { a: 'b' }, TABLE_SETTINGS_MESSAGES.blankName],
    ['a name with a control character', 'a\u0007b', { a: 'b' }, TABLE_SETTINGS_MESSAGES.controlCharacters('The name')],
    ['a name with a NUL', 'a\u0000b', { a: 'b' }, undefined],
    ['a blank text', 'x', { siteId: '  ' }, TABLE_SETTINGS_MESSAGES.blankFilter('siteId')],
    ['a text with a line break', 'x', { siteId: 'LX\n1' }, TABLE_SETTINGS_MESSAGES.controlCharacters('The filter on siteId')],
    ['a field with a tab', 'x', { 'site\tId': 'LX' }, TABLE_SETTINGS_MESSAGES.controlCharacters('A field name')],
    ['a text with a NUL', 'x', { siteId: 'LX\u0000' }, undefined],
    ['no filters', 'x', {}, undefined],
    ['a text too long', 'x', { siteId: 'x'.repeat(TABLE_SETTINGS_LIMITS.filterTextLength + 1) }, undefined],
    ['a name too long', 'x'.repeat(TABLE_SETTINGS_LIMITS.filterNameLength + 1), { a: 'b' }, undefined],
    ['a list as text', 'x', { siteId: ['LX0001'] }, undefined],
    ['too many fields', 'x', Object.fromEntries(Array.from({ length: TABLE_SETTINGS_LIMITS.filterFields + 1 }, (_, i) => [`f${i}`, 'x'])), undefined],
  ])('SaveFilter with %s: 400 with a message, nothing stored', async (_what, name, filters, message) => {
    const before = await filterRows();
    const res = await saveFilter(callers.Administrator, 'tracking.bad-filters', name, filters);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: message ?? expect.any(String) });
    expect(await filterRows()).toBe(before);
  });

  describe('bounded sizes', () => {
    let user: { token: string };
    let userId = 0;
    beforeAll(async () => {
      userId = await insertUser(database.db, { email: 'bounds@example.pt', role: 'CellwiseOS', operators: ['Vodafone PT'], projects: [] });
      user = { token: (await app.auth.issueToken(userId))! };
    });

    test(`at most ${TABLE_SETTINGS_LIMITS.filtersPerTable} saved filters per table; replacing one at the limit still works`, async () => {
      const now = new Date().toISOString();
      await database.db
        .insertInto('saved_filters')
        .values(
          Array.from({ length: TABLE_SETTINGS_LIMITS.filtersPerTable }, (_, i) => ({
            user_id: userId,
            table_key: 't.full',
            name: `f${i}`,
            filters: '{"a":"b"}',
            updated_at: now,
          })),
        )
        .execute();
      const refused = await saveFilter(user, 't.full', 'one more', { a: 'b' });
      expect({ status: refused.statusCode, body: refused.json() }).toEqual({ status: 400, body: { message: TABLE_SETTINGS_MESSAGES.tooManyFilters } });
      expect((await saveFilter(user, 't.full', 'f3', { a: 'c' })).statusCode).toBe(200);
      expect((await saveFilter(user, 't.other', 'elsewhere', { a: 'b' })).statusCode).toBe(200);
    });

    test(`at most ${TABLE_SETTINGS_LIMITS.filtersPerUser} saved filters in all`, async () => {
      const now = new Date().toISOString();
      const have = Number(
        (
          await database.db
            .selectFrom('saved_filters')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow()
        ).n,
      );
      await database.db
        .insertInto('saved_filters')
        .values(
          Array.from({ length: TABLE_SETTINGS_LIMITS.filtersPerUser - have }, (_, i) => ({
            user_id: userId,
            table_key: `t.many${i % 20}`,
            name: `g${i}`,
            filters: '{"a":"b"}',
            updated_at: now,
          })),
        )
        .execute();
      const refused = await saveFilter(user, 't.fresh', 'one more', { a: 'b' });
      expect({ status: refused.statusCode, body: refused.json() }).toEqual({ status: 400, body: { message: TABLE_SETTINGS_MESSAGES.tooManyFiltersInAll } });
    });

    test(`column settings for at most ${TABLE_SETTINGS_LIMITS.tablesPerUser} tables; a table already kept can still change`, async () => {
      const now = new Date().toISOString();
      await database.db
        .insertInto('table_settings')
        .values(
          Array.from({ length: TABLE_SETTINGS_LIMITS.tablesPerUser }, (_, i) => ({
            user_id: userId,
            table_key: `t.table${i}`,
            columns: '[]',
            updated_at: now,
          })),
        )
        .execute();
      const refused = await saveColumns(user, 't.one-more', COLUMNS);
      expect({ status: refused.statusCode, body: refused.json() }).toEqual({ status: 400, body: { message: TABLE_SETTINGS_MESSAGES.tooManyTables } });
      expect((await saveColumns(user, 't.table7', COLUMNS)).json<TableSettings>().columns).toEqual(COLUMNS);
    });

    test("a deleted user's settings go with them", async () => {
      const admin = headersOf(callers.Administrator);
      const res = await app.inject({ method: 'DELETE', url: '/api/Users/DeleteUser', payload: { userId }, headers: admin });
      expect(res.statusCode).toBe(200);
      const left = async (table: 'saved_filters' | 'table_settings') =>
        Number(
          (
            await database.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .where('user_id', '=', userId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect({ filters: await left('saved_filters'), tables: await left('table_settings') }).toEqual({ filters: 0, tables: 0 });
    });
  });
});
