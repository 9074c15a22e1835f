import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../src/config';
import type { FileResponse, RunHistoryPage, RunResponse, UploadedFiles } from 'contracts';
import { findExport } from '../src/files';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { setUpCallers, type Callers } from './support/principals';
import { zip } from './fixtures/files/zips';
import { multipart, removeTempDirs, workbook, type Cell } from './fixtures/tracking/workbooks';

/**
 * Neighbour relations optimisation through its routes (Optimization/*): statistics uploaded as .xlsx,
 * the run as a job against the stored inventory, its history and workbook; refusals record nothing.
 */

const ME = (node: string) => `SubNetwork=1,MeContext=${node},ManagedElement=1,ENodeBFunction=1`;
const cellDn = (name: string) => `${ME(name.slice(0, 6))},EUtranCellFDD=${name}`;
const relationDn = (source: string, id: string) => `${cellDn(source)},EUtranFreqRelation=6300,EUtranCellRelation=${id}`;
const EXTERNAL_DN = `${ME('LX0001')},EUtraNetwork=1,ExternalENodeBFunction=3,ExternalEUtranCellFDD=268-01-3-1`;

/**
 * LX0001_1's relations: → LX0001_2 busy and healthy; → LX0002_1 unused (remove); → LX0002_2 unused but
 * protected; → LX0003_1 through an external cell, half the handovers fail (block). Not defined:
 * LX0001_1 → LX0003_2 and LX0002_1 → LX0001_1, both strong (add).
 */
const RELATIONS = [
  { id: '1', source: 'LX0001_1', target: cellDn('LX0001_2'), cell: cellDn('LX0001_2'), ext: null, removable: 1 },
  { id: '2', source: 'LX0001_1', target: cellDn('LX0002_1'), cell: cellDn('LX0002_1'), ext: null, removable: 1 },
  { id: '3', source: 'LX0001_1', target: cellDn('LX0002_2'), cell: cellDn('LX0002_2'), ext: null, removable: 0 },
  { id: '268-01-3-1', source: 'LX0001_1', target: EXTERNAL_DN, cell: cellDn('LX0003_1'), ext: EXTERNAL_DN, removable: 1 },
] as const;

/** Two days of statistics; `target` is what the file names the target by. */
function statistics(target: (relation: string, cell: string) => string): Cell[][] {
  const rows: Cell[][] = [];
  for (const day of ['2026-11-16', '2026-11-17']) {
    rows.push(['LX0001_1', target('1', 'LX0001_2'), day, 500, 495]);
    rows.push(['LX0001_1', target('2', 'LX0002_1'), day, 0, 0]);
    rows.push(['LX0001_1', target('268-01-3-1', 'LX0003_1'), day, 100, 50]);
    rows.push(['LX0001_1', 'LX0003_2', day, 150, 140]);
    rows.push(['LX0002_1', 'LX0001_1', day, 75, 70]);
  }
  return rows;
}

async function seedInventory(db: TestDatabase['db']): Promise<void> {
  const sites = ['LX0001', 'LX0002', 'LX0003'];
  await db
    .insertInto('network_sites')
    .values(sites.map((id) => ({ id, name: `Site ${id}`, lat: 38.7, lon: -9.1 })))
    .execute();
  await db
    .insertInto('network_nodes')
    .values(sites.map((name) => ({ name, dn: ME(name).replace(',ENodeBFunction=1', ''), site_id: name, technology: '4G', type: 'RadioNode' })))
    .execute();
  await db
    .insertInto('network_cells')
    .values(
      sites.flatMap((site, s) =>
        [1, 2].map((n) => ({
          dn: cellDn(`${site}_${n}`),
          name: `${site}_${n}`,
          node_name: site,
          site_id: site,
          tech: '4G',
          channel: 6300,
          pci: 3 * (10 * s + n),
          tac: 1100,
          plmns: '268-01',
          global_id: `268-01-${s + 1}-${n}`,
        })),
      ),
    )
    .execute();
  await db
    .insertInto('network_external_cells')
    .values({
      dn: EXTERNAL_DN,
      name: '268-01-3-1',
      kind: '4G',
      node_name: 'LX0001',
      pci: 63,
      channel: 6300,
      tac: 1100,
      plmn: '268-01',
      global_id: '268-01-3-1',
    })
    .execute();
  let id = 0;
  for (const r of RELATIONS) {
    id += 1;
    const dn = relationDn(r.source, r.id);
    await db
      .insertInto('network_relations')
      .values({
        id,
        dn,
        name: r.id,
        node_name: 'LX0001',
        kind: 'LTE-LTE',
        source_cell_dn: cellDn(r.source),
        target_ref: r.target,
        created_by: 'ANR',
        is_remove_allowed: r.removable,
        is_ho_allowed: 1,
      })
      .execute();
    await db.updateTable('network_relations').set({ target_cell_dn: r.cell, target_external_dn: r.ext }).where('dn', '=', dn).execute();
  }
}

const PLAIN = ['Source Cell', 'Target Cell', 'Period', 'Attempts', 'Successes'];
const ERICSSON = ['EUtranCellFDD', 'EUtranCellRelation', 'DATE', 'pmHoExeAtt', 'pmHoExeSucc'];

describe.each(TEST_DATABASES)('neighbour relations optimisation on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  let callers: Callers;
  let me: number;

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database));
    callers = await setUpCallers(app, database, config);
    me = callers.CellwiseOS.userId!;
    await seedInventory(database.db);
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
    removeTempDirs();
  });

  const headers = (who: keyof Callers = 'CellwiseOS') => ({ authorization: `Bearer ${callers[who].token}` });
  const get = (url: string, who: keyof Callers = 'CellwiseOS') => app.inject({ url, headers: headers(who) });
  async function upload(files: Record<string, Buffer>, who: keyof Callers = 'CellwiseOS'): Promise<string[]> {
    const body = multipart(Object.entries(files).map(([filename, content]) => ({ name: 'files', filename, content })));
    const res = await app.inject({ method: 'POST', url: '/api/File/UploadMultiple', payload: body.payload, headers: { ...body.headers, ...headers(who) } });
    expect(res.statusCode).toBe(200);
    return res.json<UploadedFiles>().uploads.map((u) => u.uploadId);
  }
  const run = (ids: readonly string[], userId = me, who: keyof Callers = 'CellwiseOS') =>
    get(`/api/Optimization/RunNbrRelationsOptimization?userId=${userId}&filesPath=${ids.join(',')}`, who);
  const runCount = async () => (await database.db.selectFrom('runs').select('id').where('kind', '=', 'nbrRelationsOptimization').execute()).length;
  async function readExport(file: string, userId = me): Promise<ExcelJS.Workbook> {
    const found = await findExport(database.db, config.dataDir, file, userId);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(found.file);
    return book;
  }
  const sheetRows = (sheet: ExcelJS.Worksheet) =>
    sheet
      .getSheetValues()
      .slice(2)
      .map((row) => (row as unknown[]).slice(1));

  test('plain headers: the remove, block and add candidates with their evidence, in the workbook, the history and a notification', async () => {
    const ids = await upload({
      'ho-week-47.xlsx': await workbook(
        PLAIN,
        statistics((_relation, cell) => cell),
      ),
    });
    const res = await run(ids);
    expect(res.statusCode).toBe(200);
    const answer = res.json<RunResponse>();
    expect(answer.summary).toEqual([
      { label: 'Remove', count: 1, tone: 'warning' },
      { label: 'Block', count: 1, tone: 'error' },
      { label: 'Add', count: 2, tone: 'info' },
    ]);
    expect(answer.message).toBe('Optimised 2 cells over 2 periods: 1 to remove, 1 to block, 2 to add.');
    // The largest candidate sheet is previewed; LX0001_1 made 1000 + 0 + 200 + 300 attempts, 300 of them to LX0003_2.
    expect(answer.preview.title).toBe('Add');
    expect(answer.preview.rows.map((r) => [r.source, r.target, r.attempts, r.share])).toEqual([
      ['LX0001_1', 'LX0003_2', 300, 20],
      ['LX0002_1', 'LX0001_1', 150, 100],
    ]);

    const book = await readExport(answer.file!);
    expect(book.worksheets.map((s) => s.name)).toEqual(['Remove', 'Block', 'Add', 'Inputs']);
    const [remove, block, add, inputs] = book.worksheets as [ExcelJS.Worksheet, ExcelJS.Worksheet, ExcelJS.Worksheet, ExcelJS.Worksheet];
    expect(remove.getRow(1).values).toEqual([
      undefined,
      'Source Cell',
      'Source Site',
      'Target Cell',
      'Relation',
      'Created By',
      'Attempts',
      'Periods',
      'Evidence',
    ]);
    expect(sheetRows(remove)).toEqual([
      [
        'LX0001_1',
        'LX0001',
        'LX0002_1',
        relationDn('LX0001_1', '2'),
        'ANR',
        0,
        2,
        'no handover attempt over 2 period(s) (2026-11-16 … 2026-11-17); createdBy ANR',
      ],
    ]);
    // The relation through the external cell is judged on its real cell's statistics.
    expect(sheetRows(block)).toEqual([
      [
        'LX0001_1',
        'LX0001',
        'LX0003_1',
        relationDn('LX0001_1', '268-01-3-1'),
        'ANR',
        200,
        100,
        50,
        2,
        '100/200 handovers succeeded (50.0% < 90.0%) over 2 period(s) (2026-11-16 … 2026-11-17)',
      ],
    ]);
    expect(sheetRows(add).map((r) => r.slice(0, 9))).toEqual([
      ['LX0001_1', 'LX0001', 'LX0003_2', 'LX0003', 300, 280, 93.3, 20, 'both'],
      ['LX0002_1', 'LX0002', 'LX0001_1', 'LX0001', 150, 140, 93.3, 100, 'both'],
    ]);
    expect(sheetRows(inputs)).toEqual(
      expect.arrayContaining([
        ['File', 'ho-week-47.xlsx: 10 rows'],
        ['Periods', '2026-11-16, 2026-11-17'],
        ['Source cells in the statistics', 2],
        ['Defined relations of those cells in the dump', 4],
      ]),
    );

    const history = await get('/api/Optimization/GetNbrRelationsOptimizationHistory');
    expect(history.statusCode).toBe(200);
    expect(history.json<RunHistoryPage>().rows[0]).toMatchObject({
      id: answer.runId,
      sites: 'LX0001,LX0002',
      files: 'ho-week-47.xlsx',
      outcome: 'Remove 1, Block 1, Add 2',
      hasFile: true,
    });

    // Another engineer downloads the run's workbook from the history later.
    const other = callers.CellwiseHQ.userId!;
    const again = await get(`/api/Optimization/GetNbrRelationsOptimizationExport?nbrRelationsOptimizationId=${answer.runId}`, 'CellwiseHQ');
    expect(again.statusCode).toBe(200);
    expect((await readExport(again.json<FileResponse>().file, other)).worksheets.map((s) => s.name)).toEqual(['Remove', 'Block', 'Add', 'Inputs']);

    const notes = await database.db.selectFrom('notifications').select(['key', 'title']).where('user_id', '=', me).execute();
    expect(notes).toContainEqual({
      key: `optimization-neighbours-run-${answer.runId}`,
      title: 'Nbr relations optimisation of ho-week-47.xlsx: 1 to remove, 1 to block, 2 to add.',
    });
  });

  test('Ericsson counter names and relation ids, spread over two files, give the same answer', async () => {
    const rows = statistics((relation) => relation);
    const ids = await upload({
      'pm-day1.xlsx': await workbook(ERICSSON, rows.slice(0, 5)),
      'pm-day2.xlsx': await workbook(
        [' eutrancellfdd ', 'EUtranCellRelation', 'date', 'PMHOEXEATT', 'pmHoExeSucc', 'pmHoPrepAtt'],
        rows.slice(5).map((r) => [...r, 9999]),
      ),
    });
    const res = await run(ids);
    expect(res.statusCode).toBe(200);
    // LX0002_1 → LX0001_1 is written with the cell's name (LX0002_1 has no relation id for it).
    expect(res.json<RunResponse>().summary.map((s) => [s.label, s.count])).toEqual([
      ['Remove', 1],
      ['Block', 1],
      ['Add', 2],
    ]);
    const history = (await get('/api/Optimization/GetNbrRelationsOptimizationHistory')).json<RunHistoryPage>();
    expect(history.rows[0]?.files).toBe('pm-day1.xlsx, pm-day2.xlsx');
  });

  test('the template downloads with its headers, examples and Read me, and runs as it is', async () => {
    const res = await get('/api/Optimization/GetNbrRelationsOptimizationTemplate');
    expect(res.statusCode).toBe(200);
    const book = await readExport(res.json<FileResponse>().file);
    expect(book.worksheets.map((s) => s.name)).toEqual(['Statistics', 'Read me']);
    expect(book.worksheets[0]!.getRow(1).values).toEqual([undefined, 'Source Cell', 'Target Cell', 'Period', 'Attempts', 'Successes']);
    expect(book.worksheets[0]!.rowCount).toBeGreaterThan(1);
    const readMe = JSON.stringify(book.worksheets[1]!.getSheetValues());
    expect(readMe).toContain('pmHoExeAtt');
    expect(readMe).toContain('at least 50 attempts whose success rate is below 90%');

    const buffer = Buffer.from(await book.xlsx.writeBuffer());
    expect((await run(await upload({ 'template.xlsx': buffer }))).statusCode).toBe(200);
  });

  describe('refusals record nothing', () => {
    let before: number;
    beforeEach(async () => {
      before = await runCount();
    });
    afterEach(async () => {
      expect(await runCount()).toBe(before);
    });

    test('a workbook without the needed headers is refused naming them and the file', async () => {
      const ids = await upload({ 'counters.xlsx': await workbook(['Source', 'Target', 'Date', 'pmHoFail'], [['LX0001_1', 'LX0001_2', '2026-11-16', 3]]) });
      const res = await run(ids);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^File counters\.xlsx lacks the columns Attempts \(.*pmHoExeAtt.*\); Successes \(.*pmHoExeSucc.*\)\.$/);
    });

    test('statistics without data rows', async () => {
      const ids = await upload({ 'empty.xlsx': await workbook(PLAIN, []) });
      const res = await run(ids);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'No handover statistics to optimise: empty.xlsx has no data rows.' });
    });

    test('a bad row is named by file and row', async () => {
      const ids = await upload({ 'bad.xlsx': await workbook(PLAIN, [['LX0001_1', 'LX0001_2', '2026-11-16', 5, 7]]) });
      const res = await run(ids);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'File bad.xlsx, row 2: Successes (7) exceed Attempts (5).' });
      const text = await upload({ 'text.xlsx': await workbook(PLAIN, [['LX0001_1', 'LX0001_2', '2026-11-16', 'many', 7]]) });
      expect((await run(text)).json()).toEqual({ message: 'File text.xlsx, row 2: Attempts must be a number ≥ 0 (found many).' });
    });

    test("an unknown upload, another user's upload, or a zip are refused", async () => {
      expect((await run(['0123456789abcdef0123456789abcdef'])).statusCode).toBe(404);
      const theirs = await upload(
        {
          'theirs.xlsx': await workbook(
            PLAIN,
            statistics((_r, c) => c),
          ),
        },
        'CellwiseHQ',
      );
      const res = await run(theirs);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toEqual(expect.any(String));
      const archive = await upload({ 'logs.zip': zip([{ name: 'LX0001.log', data: Buffer.from('LX0001> alt\n') }]) });
      expect((await run(archive)).json()).toEqual({ message: 'File logs.zip is not a .xlsx file.' });
    });

    test('userId must be the caller', async () => {
      const ids = await upload({
        'mine.xlsx': await workbook(
          PLAIN,
          statistics((_r, c) => c),
        ),
      });
      const res = await run(ids, callers.CellwiseHQ.userId!);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'You can only run this as yourself.' });
    });

    test('an unknown run has no export', async () => {
      const res = await get('/api/Optimization/GetNbrRelationsOptimizationExport?nbrRelationsOptimizationId=999999');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Run not found.' });
    });
  });
});
