import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../src/config';
import type { CommissioningPlanPage, FileResponse, ImportErrorResponse, ImportResponse, TrackerPage, UploadedFile, WorkOrderDeltaPage } from 'contracts';
import { seed } from '../src/seed';
import { titleOf } from '../src/tracking/datasets';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import {
  emptyWorkbook,
  largePlanFile,
  multipart,
  PLAN_HEADER,
  PNG_BYTES,
  planRow,
  removeTempDirs,
  storedZip,
  tempDir,
  workbook,
  WOW_HEADER,
  type Cell,
} from './fixtures/tracking/workbooks';

type Who = 'admin' | 'os' | 'client';

describe.each(TEST_DATABASES)('tracking routes on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  const tokens: Record<Who, string> = { admin: '', os: '', client: '' };

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database));
    await seed(database.db, config);
    for (const [who, email] of [
      ['admin', config.adminEmail],
      ['os', 'os@cellwise.local'],
      ['client', 'client@cellwise.local'],
    ] as const) {
      const { id } = await database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      tokens[who] = (await app.auth.issueToken(id))!;
    }
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
    removeTempDirs();
  });

  const auth = (who: Who) => ({ authorization: `Bearer ${tokens[who]}` });
  const get = (url: string, who: Who = 'admin') => app.inject({ url, headers: auth(who) });
  async function upload(content: Buffer, name = 'book.xlsx', who: Who = 'admin'): Promise<string> {
    const body = multipart([{ name: 'file', filename: name, content }]);
    const res = await app.inject({ method: 'POST', url: '/api/File/Upload', payload: body.payload, headers: { ...body.headers, ...auth(who) } });
    expect(res.statusCode).toBe(200);
    return res.json<UploadedFile>().uploadId;
  }
  const importFile = async (route: string, content: Buffer, who: Who = 'admin') =>
    get(`/api/Tracker/${route}?filePath=${await upload(content, 'book.xlsx', who)}`, who);
  const download = async (url: string) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    const file = await get(`/api/File/Download?file=${res.json<FileResponse>().file}`);
    expect(file.statusCode).toBe(200);
    return file.rawPayload;
  };
  const plan = async (query = '') => (await get(`/api/Tracker/GetCommissioningPlan?size=100${query}`)).json<CommissioningPlanPage>();
  const withoutServerFields = (rows: CommissioningPlanPage['rows']) => rows.map(({ id: _id, LastUpdate: _l, ...rest }) => rest);

  const PLAN = () => Array.from({ length: 30 }, (_, i) => planRow(i + 1));

  it('refuses roles without canTrack and anonymous callers', async () => {
    expect((await get('/api/Tracker/GetCommissioningPlan', 'client')).statusCode).toBe(403);
    expect((await get('/api/Tracker/GetTracker', 'client')).statusCode).toBe(403);
    expect((await get('/api/Tracker/TrackerUpload', 'client')).statusCode).toBe(403);
    expect((await app.inject({ url: '/api/Tracker/GetCommissioningPlan' })).statusCode).toBe(401);
    expect((await get('/api/Tracker/GetCommissioningPlan', 'os')).statusCode).toBe(200);
  });

  it('answers empty lists and "" stamps before any import', async () => {
    expect(await plan()).toEqual({ rows: [], total: 0 });
    for (const url of ['GetCommissioningPlanLastImport', 'GetTrackerLastUpdate', 'GetWorkOrderStatusLastImport']) {
      const res = await get(`/api/Tracker/${url}`);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toBe('');
    }
  });

  it('imports a commissioning plan, stamps it and notifies', async () => {
    const res = await importFile('CommissioningPlanUpload', await workbook(PLAN_HEADER, PLAN()));
    expect(res.json()).toEqual({ message: 'Commissioning Plan successfully imported!', rows: 30 } satisfies ImportResponse);
    const page = await plan();
    expect(page.total).toBe(30);
    expect(page.rows[0]).toMatchObject({ id: 1, localId: 'LX0001', commDate: '2024-02-02T10:30:00Z', week: 2, comments: 'note 1' });
    expect(page.rows[6]!.comments).toBe('=HYPERLINK("http://evil/7")');
    const stamp = (await get('/api/Tracker/GetCommissioningPlanLastImport')).json<string>();
    expect(new Date(stamp).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(page.rows[0]!.LastUpdate).toBe(stamp);
    const notes = await database.db.selectFrom('notifications').select('title').where('key', '=', 'tracking-import-commissioningPlan').execute();
    expect(notes.some((n) => n.title.startsWith('Commissioning Plan successfully imported!'))).toBe(true);
  });

  it('matches headers without case and spaces, ignores extra columns, reads text dates and week text', async () => {
    const header = ['Local Id', 'EXTRA', ...PLAN_HEADER.slice(1).map((h) => h.toUpperCase())];
    const row = (i: number) => {
      const cells = planRow(i, { commDate: '05-03-2024 14:30', week: '2024-W10' });
      return [cells[0]!, 'ignored', ...cells.slice(1)];
    };
    const res = await importFile('CommissioningPlanUpload', await workbook(header, [row(1), row(2)]));
    expect(res.statusCode).toBe(200);
    const page = await plan();
    expect(page.rows[0]).toMatchObject({ localId: 'LX0001', commDate: '2024-03-05T14:30:00Z', week: 10 });
    // Back to the 30-row plan for the next tests.
    expect((await importFile('CommissioningPlanUpload', await workbook(PLAN_HEADER, PLAN()))).statusCode).toBe(200);
  });

  it('refuses a file with one bad date: nothing changes, the error names the row, an error workbook comes back', async () => {
    const before = await plan();
    const rows = PLAN();
    rows[4] = planRow(5, { commDate: '31-02-2024' });
    const res = await importFile('CommissioningPlanUpload', await workbook(PLAN_HEADER, rows));
    expect(res.statusCode).toBe(400);
    const body = res.json<ImportErrorResponse>();
    expect(body.message).toBe('1 row has problems; nothing was imported.');
    expect(body.errors).toEqual([{ row: 6, column: 'commDate', problem: expect.stringMatching(/Not a date/) }]);
    expect(await plan()).toEqual(before);

    const errors = await get(`/api/File/Download?file=${body.errorFile}`);
    expect(errors.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(errors.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(PLAN_HEADER.length + 1).value).toBe('Error');
    expect(sheet.getRow(6).getCell(1).value).toBe('LX0005');
    expect(String(sheet.getRow(6).getCell(PLAN_HEADER.length + 1).value)).toMatch(/^commDate: Not a date/);
    expect(sheet.getRow(5).getCell(PLAN_HEADER.length + 1).value).toBeNull();
    expect(sheet.rowCount).toBe(31);
  });

  it('reports every problem of a row and a missing required id', async () => {
    const res = await importFile('CommissioningPlanUpload', await workbook(PLAN_HEADER, [planRow(1, { localId: null, week: 60, commDate: 'soon' })]));
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json<ImportErrorResponse>()
        .errors.map((e) => e.column)
        .sort(),
    ).toEqual(['commDate', 'localId', 'week']);
  });

  it('refuses empty workbooks, header-only workbooks, missing columns and non-workbooks with a clear message', async () => {
    const cases: Array<[Buffer, RegExp]> = [
      [await emptyWorkbook(), /workbook is empty/],
      [await workbook(PLAN_HEADER, []), /no data rows/],
      [
        await workbook(
          PLAN_HEADER.filter((h) => h !== 'localId' && h !== 'week'),
          [['x']],
        ),
        /^Missing columns: localId, week\.$/,
      ],
      [await workbook(['something', 'else'], [['x', 'y']]), /first row must name the columns/],
      [storedZip({ '[Content_Types].xml': '<Types/>', 'xl/workbook.xml': 'not xml at all <<<' }), /could not be read as an Excel workbook/],
    ];
    const before = await plan();
    for (const [content, message] of cases) {
      const res = await importFile('CommissioningPlanUpload', content);
      expect(res.statusCode).toBe(400);
      expect(res.json<ImportErrorResponse>()).toMatchObject({ message: expect.stringMatching(message), errors: [] });
    }
    expect(await plan()).toEqual(before);
  });

  it("refuses another user's upload id and unknown ids with 404", async () => {
    const theirs = await upload(await workbook(PLAN_HEADER, PLAN()), 'plan.xlsx', 'os');
    const res = await get(`/api/Tracker/CommissioningPlanUpload?filePath=${theirs}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Upload not found.' });
    expect((await get('/api/Tracker/CommissioningPlanUpload?filePath=C:%5Cdata%5Cplan.xlsx')).statusCode).toBe(404);
    const png = await upload(PNG_BYTES, 'a.png');
    expect((await get(`/api/Tracker/CommissioningPlanUpload?filePath=${png}`)).statusCode).toBe(400);
  });

  it('exports exactly the table columns and the export re-imports to the same rows (formulas stay text)', async () => {
    const before = await plan();
    const file = await download('/api/Tracker/GetCommissioningPlanExcel');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    // The page's column titles (issue 47), frozen, with Excel's filter buttons, each column as wide as its contents.
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['id', ...PLAN_HEADER, 'LastUpdate'].map(titleOf));
    expect(sheet.getRow(1).getCell(2).value).toBe('Local Id');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toEqual(`A1:${sheet.getColumn(PLAN_HEADER.length + 2).letter}1`);
    const width = (title: string) => sheet.getColumn(['id', ...PLAN_HEADER, 'LastUpdate'].map(titleOf).indexOf(title) + 1).width ?? 0;
    const longestComment = Math.max(
      ...sheet
        .getColumn(PLAN_HEADER.indexOf('comments') + 2)
        .values.slice(2)
        .map((v) => String(v ?? '').length),
    );
    expect(width('Comments')).toBeGreaterThanOrEqual(Math.min(60, longestComment));
    expect(width('Week')).toBeLessThan(width('Comments'));
    const comments = sheet.getRow(8).getCell(PLAN_HEADER.indexOf('comments') + 2);
    expect(comments.type).toBe(ExcelJS.ValueType.String);
    expect(comments.value).toBe('=HYPERLINK("http://evil/7")');

    expect((await importFile('CommissioningPlanUpload', file)).statusCode).toBe(200);
    expect(withoutServerFields((await plan()).rows)).toEqual(withoutServerFields(before.rows));
  });

  it('pages, sorts and filters on the server', async () => {
    const first = (await get('/api/Tracker/GetCommissioningPlan')).json<CommissioningPlanPage>();
    expect(first.rows).toHaveLength(10);
    expect(first.total).toBe(30);
    const third = (await get('/api/Tracker/GetCommissioningPlan?page=3&size=10')).json<CommissioningPlanPage>();
    expect(third.rows.map((r) => r.id)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    const sorted = (await get('/api/Tracker/GetCommissioningPlan?sort=localId&order=descend&size=3')).json<CommissioningPlanPage>();
    expect(sorted.rows.map((r) => r.localId)).toEqual(['LX0030', 'LX0029', 'LX0028']);
    const filters = encodeURIComponent(JSON.stringify({ supplier: 'ERICSSON', technology: '4g' }));
    const filtered = (await get(`/api/Tracker/GetCommissioningPlan?filters=${filters}&size=100`)).json<CommissioningPlanPage>();
    expect(filtered.total).toBe(5);
    expect(filtered.rows.every((r) => r.supplier === 'Ericsson' && r.technology === '4G')).toBe(true);
    const byDate = (
      await get(`/api/Tracker/GetCommissioningPlan?filters=${encodeURIComponent(JSON.stringify({ commDate: '02-02-2024' }))}`)
    ).json<CommissioningPlanPage>();
    expect(byDate.rows.map((r) => r.localId)).toEqual(['LX0001']);
    const wildcard = (
      await get(`/api/Tracker/GetCommissioningPlan?filters=${encodeURIComponent(JSON.stringify({ localId: '%' }))}`)
    ).json<CommissioningPlanPage>();
    expect(wildcard.total).toBe(0);
    expect((await get('/api/Tracker/GetCommissioningPlan?sort=nope')).statusCode).toBe(400);
    expect((await get('/api/Tracker/GetCommissioningPlan?filters=%7Bbad')).statusCode).toBe(400);
    expect((await get(`/api/Tracker/GetCommissioningPlan?filters=${encodeURIComponent('{"password":"x"}')}`)).statusCode).toBe(400);
    expect((await get('/api/Tracker/GetCommissioningPlan?size=101')).statusCode).toBe(400);
  });

  it('imports the WOW, syncs the tracker and computes the delta of docs/engines/tracking.md#rules-applied', async () => {
    const plan3 = [planRow(1, { localId: 'S1', commDate: '01-01-2024' }), planRow(2, { localId: 'S2', commDate: '01-01-2099' }), planRow(3, { localId: 'S3' })];
    expect((await importFile('CommissioningPlanUpload', await workbook(PLAN_HEADER, plan3))).statusCode).toBe(200);
    const wow: Cell[][] = [
      ['S1', 'Install', 'WO-1', 'Closed', '10-01-2024 12:00', '10-01-2024 12:00', '10-01-2024 12:00'],
      ['S2', 'Install', 'WO-2', 'In progress', null, '15-01-2024', '15-01-2024'],
      ['S2', 'Survey', 'WO-3', 'Open', null, '01-01-2024', '01-01-2024'],
      ['S9', 'Install', 'WO-9', 'Open', null, '01-01-2024', null],
    ];
    const wowRes = await importFile('WorkOrderStatusUpload', await workbook(WOW_HEADER, wow));
    expect(wowRes.json()).toEqual({ message: 'Work Order Status successfully imported!', rows: 4 });

    const sync = await get('/api/Tracker/TrackerUpload');
    expect(sync.json()).toEqual({
      message: 'Tracker synced: 3 sites: 3 added, 0 updated, 0 unchanged; no status moved.',
      changes: { added: 3, updated: 0, unchanged: 0, removed: 0, statusMoves: [] },
    });
    // Synced again from the same plan and WOW: the tracker is rebuilt, and nothing in it changed.
    expect((await get('/api/Tracker/TrackerUpload')).json()).toEqual({
      message: 'Tracker synced: 3 sites: 0 added, 0 updated, 3 unchanged; no status moved.',
      changes: { added: 0, updated: 0, unchanged: 3, removed: 0, statusMoves: [] },
    });
    expect((await get('/api/Tracker/GetTrackerLastUpdate')).json<string>()).not.toBe('');
    const tracker = (await get('/api/Tracker/GetTracker?sort=localId')).json<TrackerPage>();
    expect(tracker.rows.map((r) => [r.localId, r.scheduleStatus, r.currentStatus, r.deliveredDate, r.week])).toEqual([
      ['S1', 'Done', 'Closed', '2024-01-10T12:00:00Z', 1],
      ['S2', 'On time', 'In progress', null, 1],
      ['S3', 'Delayed', null, null, 14],
    ]);
    const delta = (await get('/api/Tracker/GetWorkOrderStatusDelta?size=100')).json<WorkOrderDeltaPage>();
    expect(delta.rows.map((r) => [r.siteId, r.woType, r.action])).toEqual([
      ['S2', 'Survey', 'Update tracker'],
      ['S3', null, 'Missing in WOW'],
      ['S9', 'Install', 'Missing in tracker'],
    ]);

    // The WOW export writes the WOW import columns and re-imports.
    const wowFile = await download('/api/Tracker/GetWorkOrderStatusExcel');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(wowFile as unknown as ArrayBuffer);
    expect((book.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual(WOW_HEADER.map(titleOf));
    expect((await importFile('WorkOrderStatusUpload', wowFile)).json<ImportResponse>().rows).toBe(4);

    const deltaFile = await download('/api/Tracker/GetWorkOrderStatusDeltaExcel');
    const deltaBook = new ExcelJS.Workbook();
    await deltaBook.xlsx.load(deltaFile as unknown as ArrayBuffer);
    expect(deltaBook.worksheets[0]!.getRow(2).getCell(10).value).toBe('Update tracker');
    expect(deltaBook.worksheets[0]!.rowCount).toBe(4);
  });

  it('tracker export re-imports to the same rows; a tracker import that says Done asks to close the open WO', async () => {
    const before = (await get('/api/Tracker/GetTracker?size=100')).json<TrackerPage>();
    const file = await download('/api/Tracker/DownloadTracker');
    expect((await importFile('ImportTracker', file)).json()).toEqual({ message: 'Tracker successfully imported!', rows: 3 });
    expect((await get('/api/Tracker/GetTracker?size=100')).json<TrackerPage>()).toEqual(before);

    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file as unknown as ArrayBuffer);
    const s2 = book.worksheets[0]!.getRow(3);
    expect(s2.getCell(1).value).toBe('S2');
    s2.getCell(11).value = 'done';
    s2.getCell(15).value = 'In progress';
    s2.getCell(16).value = '20-01-2024';
    const edited = Buffer.from(await book.xlsx.writeBuffer());
    expect((await importFile('ImportTracker', edited)).statusCode).toBe(200);
    const delta = (await get(`/api/Tracker/GetWorkOrderStatusDelta?filters=${encodeURIComponent('{"siteId":"S2"}')}`)).json<WorkOrderDeltaPage>();
    expect(delta.rows.map((r) => [r.woType, r.action])).toEqual([
      ['Install', 'Close WO'],
      ['Survey', 'Close WO'],
    ]);
  });

  it('imports a 100,000-row commissioning plan', async () => {
    const file = path.join(tempDir(), 'plan-100k.xlsx');
    await largePlanFile(file, 100_000);
    expect(fs.statSync(file).size).toBeLessThan(10_000_000);
    const res = await importFile('CommissioningPlanUpload', fs.readFileSync(file));
    expect(res.json()).toEqual({ message: 'Commissioning Plan successfully imported!', rows: 100_000 });
    const last = (await get('/api/Tracker/GetCommissioningPlan?sort=id&order=descend&size=1')).json<CommissioningPlanPage>();
    expect(last.total).toBe(100_000);
    expect(last.rows[0]).toMatchObject({ id: 100_000, equipCode: 'EQ-100000' });
    const filtered = (await get(`/api/Tracker/GetCommissioningPlan?filters=${encodeURIComponent('{"equipCode":"EQ-9999"}')}`)).json<CommissioningPlanPage>();
    expect(filtered.total).toBe(11);
  }, 180_000);
});
