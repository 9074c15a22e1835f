import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { runUnscoped } from '../src/db/operator-scope';
import { WORKBOOK_LIMITS, type WorkbookLimits } from '../src/files/limits';
import { importDataSet, TrackingImportError } from '../src/tracking';
import { readFirstSheet, readFirstSheetBatches, readFirstSheetTwoPass, WorkbookReadError } from '../src/tracking/workbook';
import { rowXml, sharedStringsXml, sheetXml, xlsx, zip, type ZipPart } from './fixtures/files/zips';
import { PLAN_HEADER, planRow, removeTempDirs, tempDir, workbook } from './fixtures/tracking/workbooks';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

// The import reads each part once, checking the limits as it goes (readFirstSheetBatches); readFirstSheetTwoPass
// checks the whole file first and then lets exceljs read it. Both must give every file the same rows, the
// same row count and the same refusal.

afterAll(removeTempDirs);
const dir = tempDir();
let counter = 0;
function fileOf(content: Buffer): string {
  const file = path.join(dir, `book-${(counter += 1)}.xlsx`);
  fs.writeFileSync(file, content);
  return file;
}

type Outcome = { rows: Array<{ number: number; cells: unknown[] }>; count: number | null } | { refusal: string };

async function twoPass(file: string, limits: WorkbookLimits): Promise<Outcome> {
  let count: number | null = null;
  const rows: Array<{ number: number; cells: unknown[] }> = [];
  try {
    for await (const row of readFirstSheetTwoPass(file, limits, (n) => (count = n))) rows.push(row);
  } catch (error) {
    return { refusal: `${(error as Error).name}: ${(error as Error).message}` };
  }
  return { rows, count };
}

async function onePass(file: string, limits: WorkbookLimits, stopAfter = Infinity): Promise<Outcome> {
  let count: number | null = null;
  const rows: Array<{ number: number; cells: unknown[] }> = [];
  try {
    for await (const batch of readFirstSheetBatches(file, limits, (n) => (count = n))) {
      rows.push(...batch);
      if (rows.length >= stopAfter) break;
    }
  } catch (error) {
    return { refusal: `${(error as Error).name}: ${(error as Error).message}` };
  }
  return { rows, count };
}

async function expectSame(content: Buffer, limits: Partial<WorkbookLimits> = {}): Promise<Outcome> {
  const file = fileOf(content);
  const all = { ...WORKBOOK_LIMITS, ...limits };
  const expected = await twoPass(file, all);
  expect(await onePass(file, all)).toEqual(expected);
  return expected;
}

const rows = (count: number, values: readonly string[] = ['a', 'b']) => Array.from({ length: count }, (_, i) => rowXml(i + 1, values)).join('');
const shared = sharedStringsXml('<si><t>one</t></si><si><t>two</t></si>');
const sharedRow = (n: number) => `<row r="${n}"><c r="A${n}" t="s"><v>0</v></c><c r="B${n}" t="s"><v>1</v></c></row>`;
const CONTENT_TYPES = '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';
const WORKBOOK_XML = `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="A" sheetId="1" r:id="rId1"/><sheet name="B" sheetId="2" r:id="rId2"/></sheets></workbook>`;
const RELS_XML = `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/></Relationships>`;
/** Parts in the given order: which sheet exceljs reads first depends on it. */
const ordered = (names: readonly string[], contents: Record<string, string>): Buffer =>
  zip(
    names.map((name): ZipPart => ({
      name,
      data: contents[name] ?? (name.endsWith('workbook.xml') ? WORKBOOK_XML : name.endsWith('.rels') ? RELS_XML : CONTENT_TYPES),
    })),
  );

async function streamedWorkbook(count: number): Promise<Buffer> {
  const file = path.join(dir, `streamed-${(counter += 1)}.xlsx`);
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet('Plan');
  sheet.addRow([...PLAN_HEADER]).commit();
  for (let i = 1; i <= count; i++) sheet.addRow(planRow(i)).commit();
  sheet.commit();
  await book.commit();
  return fs.readFileSync(file);
}

describe('the one-pass sheet reader', () => {
  it('reads what the two-pass reader reads: dates, shared strings, formulas, whichever order the parts come in', async () => {
    // exceljs' streaming writer puts the sheet before the styles and relationships (exceljs then reads it from a temporary file).
    const streamed = await expectSame(await streamedWorkbook(3000));
    expect(streamed).toMatchObject({ count: 3001 });
    expect((streamed as { rows: Array<{ cells: unknown[] }> }).rows[1]!.cells[7]).toBeInstanceOf(Date);
    await expectSame(await workbook(PLAN_HEADER, [planRow(1), planRow(2, { commDate: 'not a date', week: { formula: '1+1', result: 2 } })]));
    await expectSame(xlsx({ sheet: sheetXml(sharedRow(1) + sharedRow(3)), sharedStrings: shared }));
    const names = {
      'xl/worksheets/sheet1.xml': sheetXml(rowXml(1, ['first'])),
      'xl/worksheets/sheet2.xml': sheetXml(rowXml(1, ['second'])),
      'xl/sharedStrings.xml': shared,
    };
    const [types, book, rels, strings, one, two] = [
      '[Content_Types].xml',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/sharedStrings.xml',
      'xl/worksheets/sheet1.xml',
      'xl/worksheets/sheet2.xml',
    ];
    for (const order of [
      [types, book, rels, strings, two, one],
      [types, two, book, rels, strings, one],
      [types, one, two, book, rels, strings],
      [types, two, one, book, rels],
      [types, book, two, strings, one],
      [types, book, rels],
    ])
      await expectSame(ordered(order, names));
  });

  it('refuses what the two-pass reader refuses, with its message, wherever the problem is', async () => {
    await expectSame(xlsx({ sheet: sheetXml(rows(11)) }), { maxRows: 10 });
    await expectSame(xlsx({ sheet: sheetXml(rows(10)) }), { maxRows: 10 });
    await expectSame(xlsx({ sheet: sheetXml(rows(6)) }), { maxCells: 11 });
    await expectSame(xlsx({ sheet: sheetXml(rowXml(1, ['a'.repeat(300)])) }), { maxStringBytes: 200 });
    await expectSame(xlsx({ sheet: sheetXml(rows(2)), sharedStrings: sharedStringsXml('<si><t>a</t></si>'.repeat(20)) }), { maxSharedStrings: 19 });
    // Problems after the sheet, in the sheet too, in both, before it; broken XML before a limit crossed.
    const styles = (n: number): ZipPart => ({ name: 'xl/styles.xml', data: `<styleSheet>${'<xf/>'.repeat(n)}</styleSheet>` });
    await expectSame(xlsx({ sheet: sheetXml(rows(3)), parts: [styles(1000)] }), { maxPartBytes: 4096 });
    await expectSame(xlsx({ sheet: sheetXml(rows(30)), parts: [styles(1000)] }), { maxPartBytes: 4096, maxRows: 20 });
    await expectSame(xlsx({ sheet: sheetXml(rows(30)), parts: [styles(1000)] }), { maxRows: 20 });
    const second = { name: 'xl/worksheets/sheet2.xml', data: sheetXml(rows(30)) };
    await expectSame(xlsx({ sheet: sheetXml(rows(3)), parts: [second] }), { maxRows: 20 });
    await expectSame(
      ordered(['[Content_Types].xml', 'xl/worksheets/sheet2.xml', 'xl/worksheets/sheet1.xml'], {
        'xl/worksheets/sheet1.xml': sheetXml(rows(3)),
        'xl/worksheets/sheet2.xml': sheetXml(rows(30)),
      }),
      {
        maxRows: 20,
      },
    );
    await expectSame(xlsx({ sheet: `${sheetXml(rows(3)).replace('</sheetData>', '<row><c></row>')}` }));
    await expectSame(xlsx({ sheet: `${sheetXml(rows(30)).replace('<row r="2">', '<row r="2"><c><v>1</c>')}` }), { maxRows: 20 });
    // Broken styles alone: exceljs' own walk refuses the file only now and then (both readers take it), so only with a limit crossed.
    await expectSame(xlsx({ sheet: sheetXml(rows(30)), parts: [{ name: 'xl/styles.xml', data: '<styleSheet><<' }] }), { maxRows: 20 });
    await expectSame(xlsx({ sheet: { name: '', data: sheetXml(rows(2_000)), size: 1_000 } }));
    await expectSame(Buffer.from('not a zip'));
  });

  it("reads a sound workbook row by row without exceljs' own walk of the zip, which now and then refuses one under load", async () => {
    const walk = jest.spyOn(ExcelJS.stream.xlsx.WorkbookReader.prototype, 'parse');
    try {
      // exceljs' own writer puts the sheet before the shared strings: its walk would copy the sheet to a temporary file.
      const file = fileOf(await workbook(['Source Cell', 'Attempts'], [['LX0001_1', 'many']]));
      const shares: number[] = [];
      let count: number | null = null;
      const read: unknown[][] = [];
      for await (const row of readFirstSheet(
        file,
        WORKBOOK_LIMITS,
        (n) => (count = n),
        (share) => shares.push(share),
      ))
        read.push(row.cells.slice(1));
      expect(read).toEqual([
        ['Source Cell', 'Attempts'],
        ['LX0001_1', 'many'],
      ]);
      expect(count).toBe(2);
      expect(shares.at(-1)).toBe(1);
      expect(walk).not.toHaveBeenCalled();
    } finally {
      walk.mockRestore();
    }
  });

  it('still refuses a file that breaks a limit when its reader stops early', async () => {
    const file = fileOf(await streamedWorkbook(3000));
    const limits = { ...WORKBOOK_LIMITS, maxRows: 2500 };
    expect(await onePass(file, limits, 1)).toEqual({ refusal: 'WorkbookReadError: The workbook has more than 2,500 rows; the limit is 2,500.' });
    expect(await onePass(file, WORKBOOK_LIMITS, 1)).toMatchObject({ count: null });
  });
});

describe.each(TEST_DATABASES)('an import that reads each part once, on $name', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await kind.open();
  });
  afterAll(async () => {
    await database.dispose();
  });

  it('answers a limit the file breaks before a header problem it has, as when the limits were checked first', async () => {
    const long = rowXml(2, ['x'.repeat(WORKBOOK_LIMITS.maxStringBytes + 1)]);
    const file = fileOf(xlsx({ sheet: sheetXml(rowXml(1, ['not', 'the', 'header']) + long) }));
    await expect(importDataSet(database.db, 'commissioningPlan', file)).rejects.toThrow(
      new WorkbookReadError("The workbook holds a text longer than 262,144 bytes; the limit is 262,144 (Excel's own is 32,767 characters)."),
    );
    const bad = fileOf(xlsx({ sheet: sheetXml(rowXml(1, ['not', 'the', 'header']) + rowXml(2, ['x'])) }));
    await expect(importDataSet(database.db, 'commissioningPlan', bad)).rejects.toBeInstanceOf(TrackingImportError);
  });

  it('leaves the table with the indexes it had, and only the new rows', async () => {
    const indexes = async () =>
      database.dialect === 'sqlite'
        ? (
            await sql<{
              name: string;
              sql: string;
            }>`select name, sql from sqlite_master where type = 'index' and tbl_name = ${'tracking_commissioning_plan'} order by name`.execute(database.db)
          ).rows
        : (
            await sql<{
              name: string;
              sql: string;
            }>`select indexname as name, indexdef as sql from pg_indexes where schemaname = current_schema() and tablename = ${'tracking_commissioning_plan'} order by indexname`.execute(
              database.db,
            )
          ).rows;
    const before = await indexes();
    expect(before.length).toBeGreaterThanOrEqual(4);
    await importDataSet(database.db, 'commissioningPlan', fileOf(await streamedWorkbook(30)));
    await importDataSet(database.db, 'commissioningPlan', fileOf(await streamedWorkbook(20)));
    expect(await indexes()).toEqual(before);
    const rows = await database.db.selectFrom('tracking_commissioning_plan').select(['id', 'equip_code']).orderBy('id').execute();
    expect(rows).toEqual(Array.from({ length: 20 }, (_, i) => ({ id: i + 1, equip_code: `EQ-${i + 1}` })));
  });

  it('reports progress by the share read, and the row count at the end', async () => {
    const file = fileOf(await streamedWorkbook(2500));
    const reports: Array<[number, number, number]> = [];
    await importDataSet(database.db, 'commissioningPlan', file, new Date(), (read, total, share) => reports.push([read, total, share]));
    expect(reports.at(-1)).toEqual([2500, 2500, 1]);
    expect(reports.slice(0, -1).map(([read]) => read)).toEqual([999, 1999]);
    for (const [, , share] of reports) expect(share).toBeGreaterThan(0);
  });

  // db/statistics.ts: without fresh statistics PostgreSQL plans a filtered page as if the table were
  // empty (read every match, then sort), 100 times slower than walking the primary key.
  it('leaves PostgreSQL statistics that know how many rows the table now holds', async () => {
    if (database.dialect !== 'postgres') return;
    await importDataSet(database.db, 'commissioningPlan', fileOf(await streamedWorkbook(3000)));
    const { rows } = await runUnscoped(() =>
      sql<{ reltuples: number }>`select reltuples from pg_class where oid = 'tracking_commissioning_plan'::regclass`.execute(database.db),
    );
    expect(Number(rows[0]!.reltuples)).toBeGreaterThanOrEqual(3000);
  });
});
