import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Config } from '../src/config';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../src/config';
import {
  RUN_HISTORY_PATHS,
  SITE_REPORT_TABLES,
  siteReportTableKey,
  TABLE_KEYS,
  TABLE_SETTINGS_LIMITS,
  TABLE_SETTINGS_MESSAGES,
  type ColumnSetting,
  type TableSettings,
} from 'contracts';
import { buildSiteReport } from '../src/domain/monitoring/report';
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
    const res = await saveColumns(callers.Administrator, 'tracking.commissioningplan', columns);
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
    const res = await saveFilter(callers.Administrator, 'tracking.commissioningplan', name, filters);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: message ?? expect.any(String) });
    expect(await filterRows()).toBe(before);
  });

  test('only the console’s tables keep settings: another key is a 400 that names it, on every call, and nothing is stored (issue 44)', async () => {
    const [columnsBefore, filtersBefore] = [await settingsRows(), await filterRows()];
    for (const tableKey of ['made.up', 'tracking.tracker2', 'history:Users/GetUsers', 'monitoring.siteReport.Anything']) {
      const refusal = { status: 400, body: { message: TABLE_SETTINGS_MESSAGES.unknownTable(tableKey) } };
      const answers = [
        await get(callers.Client, tableKey),
        await saveColumns(callers.Client, tableKey, COLUMNS),
        await saveFilter(callers.Client, tableKey, 'x', { a: 'b' }),
        await deleteFilter(callers.Client, tableKey, 'x'),
      ];
      expect(answers.map((res) => ({ status: res.statusCode, body: res.json() }))).toEqual([refusal, refusal, refusal, refusal]);
    }
    expect([await settingsRows(), await filterRows()]).toEqual([columnsBefore, filtersBefore]);
  });

  test('the keys are the pages’ own: every tableKey and run history of the remotes, and every table the site report draws', () => {
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) sources.push(fs.readFileSync(file, 'utf8'));
      }
    };
    for (const folder of ['mfe-tracking', 'mfe-planning-validation', 'mfe-monitoring', 'mfe-management', 'shell', 'shared-ui'])
      walk(path.join(REPO_ROOT, folder, 'src'));
    const literal = (attribute: string) => sources.flatMap((text) => [...text.matchAll(new RegExp(`${attribute}="([^"]+)"`, 'g'))].map((m) => m[1]!));
    const tableKeys = literal('tableKey');
    const historyPaths = literal('historyPath');
    expect(tableKeys.length).toBeGreaterThanOrEqual(16);
    expect(tableKeys.filter((key) => !TABLE_KEYS.has(key))).toEqual([]);
    expect([...new Set(historyPaths)].sort()).toEqual([...RUN_HISTORY_PATHS].sort());
    // The site report page keys each table by its name, as the API's report names them.
    const report = buildSiteReport({ siteId: 'LX0001', siteName: 'Lisboa', nodes: [], plan: [], tracker: null, alarms: [], ret: [], findings: [] });
    expect(report.tables.map((t) => t.TableName)).toEqual([...SITE_REPORT_TABLES]);
    expect(sources.some((text) => text.includes("tableKey={`monitoring.siteReport.${table.TableName.replace(/[^A-Za-z0-9]+/g, '-')}`}"))).toBe(true);
    expect(siteReportTableKey('Configuration Check 2G')).toBe('monitoring.siteReport.Configuration-Check-2G');
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
            table_key: 'tracking.tracker',
            name: `f${i}`,
            filters: '{"a":"b"}',
            updated_at: now,
          })),
        )
        .execute();
      const refused = await saveFilter(user, 'tracking.tracker', 'one more', { a: 'b' });
      expect({ status: refused.statusCode, body: refused.json() }).toEqual({ status: 400, body: { message: TABLE_SETTINGS_MESSAGES.tooManyFilters } });
      expect((await saveFilter(user, 'tracking.tracker', 'f3', { a: 'c' })).statusCode).toBe(200);
      expect((await saveFilter(user, 'tracking.workorderstatus', 'elsewhere', { a: 'b' })).statusCode).toBe(200);
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
            // Spread over 20 of the console's tables, none past its own 50.
            table_key: [...TABLE_KEYS].filter((key) => key !== 'tracking.tracker' && key !== 'tracking.workorderstatus')[i % 20]!,
            name: `g${i}`,
            filters: '{"a":"b"}',
            updated_at: now,
          })),
        )
        .execute();
      const refused = await saveFilter(user, 'monitoring.alarmHints', 'one more', { a: 'b' });
      expect({ status: refused.statusCode, body: refused.json() }).toEqual({ status: 400, body: { message: TABLE_SETTINGS_MESSAGES.tooManyFiltersInAll } });
    });

    test('rows of keys that are not tables (stored before keys were checked) are removed at the next write, not counted', async () => {
      const now = new Date().toISOString();
      const junk = 'x'.repeat(100_000);
      await database.db
        .insertInto('table_settings')
        .values(Array.from({ length: 5 }, (_, i) => ({ user_id: userId, table_key: `made.up${i}`, columns: junk, updated_at: now })))
        .execute();
      await database.db
        .insertInto('saved_filters')
        .values(Array.from({ length: 5 }, (_, i) => ({ user_id: userId, table_key: `made.up${i}`, name: 'f', filters: junk, updated_at: now })))
        .execute();
      // A megabyte of them would be four times the room; they are forgotten instead.
      expect((await saveColumns(user, 'monitoring.parseReport.files', COLUMNS)).statusCode).toBe(200);
      const left = await database.db
        .selectFrom('table_settings')
        .select('table_key')
        .where('user_id', '=', userId)
        .where('table_key', 'like', 'made.up%')
        .execute();
      const leftFilters = await database.db
        .selectFrom('saved_filters')
        .select('table_key')
        .where('user_id', '=', userId)
        .where('table_key', 'like', 'made.up%')
        .execute();
      expect([left, leftFilters]).toEqual([[], []]);
    });

    test(`at most ${TABLE_SETTINGS_LIMITS.bytesPerUser / 1024} KB of settings per user; a smaller replacement and a deletion make room (issue 44)`, async () => {
      const id = await insertUser(database.db, { email: 'bytes@example.pt', role: 'Client', operators: ['Vodafone PT'], projects: [] });
      const client = { token: (await app.auth.issueToken(id))! };
      // The largest filter the schema takes: 50 fields of 100 characters, each with 200 characters of text (~15 KB).
      const big = (n: number) =>
        Object.fromEntries(
          Array.from({ length: TABLE_SETTINGS_LIMITS.filterFields }, (_, i) => [`${n}-${i}`.padEnd(TABLE_SETTINGS_LIMITS.fieldLength, 'f'), 't'.repeat(200)]),
        );
      const statuses: number[] = [];
      let refused = null;
      for (let n = 0; n < 40 && refused === null; n++) {
        const res = await saveFilter(client, 'monitoring.faultManagement.alarms', `big ${n}`, big(n));
        statuses.push(res.statusCode);
        if (res.statusCode !== 200) refused = res;
      }
      expect({ status: refused?.statusCode, body: refused?.json() }).toEqual({ status: 400, body: { message: TABLE_SETTINGS_MESSAGES.tooManyBytes } });
      // 256 KB hold 17 of them; the next one is refused, which would have passed the limit.
      expect(statuses).toEqual([...Array<number>(17).fill(200), 400]);
      const stored = await database.db.selectFrom('saved_filters').select(['name', 'filters']).where('user_id', '=', id).execute();
      const total = stored.reduce((sum, row) => sum + Buffer.byteLength(row.name) + Buffer.byteLength(row.filters), 0);
      expect(total).toBeLessThanOrEqual(TABLE_SETTINGS_LIMITS.bytesPerUser);
      expect(total + total / stored.length).toBeGreaterThan(TABLE_SETTINGS_LIMITS.bytesPerUser);
      // Columns count too.
      expect(
        (
          await saveColumns(
            client,
            'tracking.tracker',
            Array.from({ length: 100 }, (_, i) => ({ key: `c${i}`.padEnd(100, 'k'), hidden: false, width: null })),
          )
        ).statusCode,
      ).toBe(400);
      expect((await saveFilter(client, 'monitoring.faultManagement.alarms', 'big 3', { a: 'b' })).statusCode).toBe(200);
      expect((await saveFilter(client, 'monitoring.faultManagement.alarms', 'big 17', big(17))).statusCode).toBe(200);
      expect((await saveFilter(client, 'tracking.tracker', 'big 18', big(18))).statusCode).toBe(400);
      expect((await deleteFilter(client, 'monitoring.faultManagement.alarms', 'big 0')).statusCode).toBe(200);
      expect((await saveFilter(client, 'tracking.tracker', 'big 18', big(18))).statusCode).toBe(200);
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
