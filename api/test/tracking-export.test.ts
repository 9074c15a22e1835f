import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../src/config';
import { seed } from '../src/seed';
import { COMMISSIONING_PLAN_IMPORT_FIELDS } from 'contracts';
import { COMMISSIONING_PLAN_TABLE, DELTA_TABLE, importDataSet } from '../src/tracking';
import { exportTask } from '../src/tracking/jobs';
import { allRows, RowWriter } from '../src/tracking/queries';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

const ROWS = 2345;

describe.each(TEST_DATABASES)('tracking export progress on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database));
    await seed(database.db, config);
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  test('an export says how many rows it has written of how many, up to the last', async () => {
    await database.db.deleteFrom('tracking_wo_delta').execute();
    const writer = new RowWriter(database.db, DELTA_TABLE.table, DELTA_TABLE.rowFields);
    for (let id = 1; id <= ROWS; id++) await writer.add({ id, siteId: `S${id}`, woType: 'Install', action: 'Update tracker' });
    await writer.flush();
    const owner = (await database.db.selectFrom('users').select('id').where('email', '=', config.adminEmail).executeTakeFirstOrThrow()).id;

    const reports: Array<[number, string | undefined]> = [];
    const { file } = await exportTask(
      { table: DELTA_TABLE.exportKind, ownerId: owner },
      { db: database.db, dialect: database.dialect, dataDir: config.dataDir, progress: (percent, text) => reports.push([percent, text]) },
    );

    expect(reports.map(([, text]) => text)).toEqual([
      'Writing Work Order Delta',
      'Writing rows 0 / 2,345',
      'Writing rows 1,000 / 2,345',
      'Writing rows 2,000 / 2,345',
      'Writing rows 2,345 / 2,345',
    ]);
    const percents = reports.map(([percent]) => percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(99);
    expect(await database.db.selectFrom('file_exports').select('id').where('id', '=', file).executeTakeFirst()).toBeDefined();
  });
});

describe.each(TEST_DATABASES)('tracking import of many rows on $name', (kind) => {
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    database = await kind.open();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-tracking-import-'));
  });
  afterAll(async () => {
    await database.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('every row of a workbook larger than one insert batch is stored, in order, with its values', async () => {
    // Three insert batches and many pieces of the streamed sheet; every 7th row has a blank line after it.
    const rows = 3210;
    const file = path.join(dir, 'plan.xlsx');
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false });
    const sheet = book.addWorksheet('Plan');
    sheet.addRow([...COMMISSIONING_PLAN_IMPORT_FIELDS]).commit();
    const expected: Array<Record<string, unknown>> = [];
    for (let i = 1; i <= rows; i++) {
      const values: Record<string, unknown> = Object.fromEntries(COMMISSIONING_PLAN_IMPORT_FIELDS.map((f) => [f, `${f} ${i}`]));
      values.commDate = new Date(Date.UTC(2024, i % 12, (i % 28) + 1, 10, 30, 0));
      values.week = (i % 52) + 1;
      sheet.addRow(COMMISSIONING_PLAN_IMPORT_FIELDS.map((f) => values[f])).commit();
      if (i % 7 === 0) sheet.addRow([]).commit();
      expected.push({ ...values, id: i, commDate: (values.commDate as Date).toISOString().replace('.000Z', 'Z') });
    }
    sheet.commit();
    await book.commit();

    const now = new Date(Date.UTC(2024, 5, 1, 12, 0, 0));
    const result = await importDataSet(database.db, 'commissioningPlan', file, now);
    expect(result.rows).toBe(rows);
    const stored = await allRowsOf(database, COMMISSIONING_PLAN_TABLE.rowFields);
    expect(stored).toHaveLength(rows);
    expect(stored.map(({ LastUpdate, ...row }) => ({ ...row, LastUpdate }))).toEqual(expected.map((row) => ({ ...row, LastUpdate: result.importedAt })));
  });
});

async function allRowsOf(database: TestDatabase, fields: readonly string[]): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for await (const row of allRows<Record<string, unknown>>(database.db, COMMISSIONING_PLAN_TABLE.table, fields)) out.push(row);
  return out;
}
