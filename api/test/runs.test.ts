import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { runInOperator } from '../src/db/operator-scope';
import { findExport } from '../src/files';
import { exportRun, listRunHistory, recordRun, RUN_MESSAGES, writeRunWorkbook, type RunSheet } from '../src/runs';
import type { FastifyInstance } from 'fastify';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { setUpCallers } from './support/principals';

const SHEET: RunSheet = {
  name: 'Relations: planned vs dump',
  columns: [
    { key: 'source', label: 'Source Cell' },
    { key: 'verdict', label: 'Verdict' },
    { key: 'at', label: 'Checked At' },
  ],
  rows: [
    { source: 'LX0001_1', verdict: 'OK', at: new Date('2026-11-20T10:00:00Z') },
    { source: '=HYPERLINK("http://x")', verdict: 'MISSING', at: null },
  ],
};

describe.each(TEST_DATABASES)('the run history on $name', (kind) => {
  let database: TestDatabase;
  let dataDir: string;
  let userId: number;
  let otherId: number;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await kind.open();
    let config;
    ({ app, config } = await testApp(database));
    dataDir = config.dataDir;
    const callers = await setUpCallers(app, database, config);
    userId = callers.CellwiseOS.userId!;
    otherId = callers.CellwiseHQ.userId!;
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  test('a run keeps its workbook, shows in its own history, and anyone downloading later gets a fresh copy', async () => {
    const temp = path.join(dataDir, 'run.xlsx');
    await writeRunWorkbook(temp, [SHEET, { ...SHEET, name: 'Relations: planned vs dump' }]);
    const summary = [
      { label: 'OK', count: 1, tone: 'ok' as const },
      { label: 'MISSING', count: 1, tone: 'error' as const },
    ];
    const answer = await recordRun(database.db, dataDir, {
      kind: 'nbrRelationsValidation',
      userId,
      sites: ['LX0001'],
      files: ['planned.xlsx'],
      parameters: {},
      jobId: null,
      message: null,
      summary,
      findings: [SHEET],
      workbook: { file: temp, fileName: 'NbrRelationsValidation_LX0001.xlsx' },
    });
    expect(answer).toMatchObject({ summary, preview: { title: SHEET.name, total: 2 } });
    expect(answer.preview.rows[0]).toEqual({ source: 'LX0001_1', verdict: 'OK', at: '2026-11-20T10:00:00.000Z' });
    expect(fs.existsSync(temp)).toBe(false);

    const history = await listRunHistory(database.db, 'nbrRelationsValidation', {});
    expect(history).toEqual({
      total: 1,
      rows: [
        expect.objectContaining({
          id: answer.runId,
          user: expect.any(String),
          sites: 'LX0001',
          files: 'planned.xlsx',
          outcome: 'OK 1, MISSING 1',
          hasFile: true,
        }),
      ],
    });
    expect((await listRunHistory(database.db, 'cpichValidation', {})).total).toBe(0);
    expect((await listRunHistory(database.db, 'nbrRelationsValidation', { filters: JSON.stringify({ outcome: 'missing' }) })).total).toBe(1);

    // Another engineer downloads it from the history: a new export of their own, the same workbook.
    const later = await exportRun(database.db, dataDir, 'nbrRelationsValidation', answer.runId, otherId);
    const file = await findExport(database.db, dataDir, later, otherId);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file.file);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Relations planned vs dump', 'Relations planned vs dump (2)']);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Source Cell', 'Verdict', 'Checked At']);
    // Formula-like text stays text.
    expect(sheet.getRow(3).getCell(1).value).toBe('=HYPERLINK("http://x")');
    expect(sheet.getRow(2).getCell(3).value).toEqual(new Date('2026-11-20T10:00:00Z'));

    await expect(exportRun(database.db, dataDir, 'cpichValidation', answer.runId, otherId)).rejects.toThrow(RUN_MESSAGES.notFound);
  });

  test("another operator's runs are not in the history, and their workbooks answer 404", async () => {
    const { id: nos } = await database.db.selectFrom('operators').select('id').where('name', '=', 'NOS').executeTakeFirstOrThrow();
    const temp = path.join(dataDir, 'nos-run.xlsx');
    await writeRunWorkbook(temp, [SHEET]);
    const theirs = await runInOperator(nos, () =>
      recordRun(database.db, dataDir, {
        kind: 'nbrRelationsOptimization',
        userId,
        sites: ['NOS0001'],
        files: [],
        parameters: {},
        jobId: null,
        message: null,
        summary: [],
        findings: [SHEET],
        workbook: { file: temp, fileName: 'NbrRelationsOptimization_NOS0001.xlsx' },
      }),
    );
    expect((await runInOperator(nos, () => listRunHistory(database.db, 'nbrRelationsOptimization', {}))).rows.map((r) => r.id)).toEqual([theirs.runId]);
    expect((await listRunHistory(database.db, 'nbrRelationsOptimization', {})).total).toBe(0);
    await expect(exportRun(database.db, dataDir, 'nbrRelationsOptimization', theirs.runId, userId)).rejects.toThrow(RUN_MESSAGES.notFound);
    expect(await runInOperator(nos, () => exportRun(database.db, dataDir, 'nbrRelationsOptimization', theirs.runId, userId))).toEqual(expect.any(String));
  });

  test('a run without a workbook answers its message and has nothing to download', async () => {
    const answer = await recordRun(database.db, dataDir, {
      kind: 'cpichValidation',
      userId,
      sites: ['LX0002'],
      files: [],
      parameters: {},
      jobId: null,
      message: 'No UTRAN cells on LX0002.',
      summary: [],
      findings: [{ ...SHEET, rows: [] }],
      workbook: null,
    });
    expect(answer.file).toBeUndefined();
    expect(answer.message).toBe('No UTRAN cells on LX0002.');
    await expect(exportRun(database.db, dataDir, 'cpichValidation', answer.runId, userId)).rejects.toThrow(RUN_MESSAGES.noWorkbook);
  });
});
