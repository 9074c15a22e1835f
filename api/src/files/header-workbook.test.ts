import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { cellInteger, cellText, HeaderedWorkbookError, readHeaderedSheet, type HeaderColumn } from './header-workbook';

const COLUMNS: HeaderColumn[] = [
  { field: 'source', label: 'Source Cell', required: true, aliases: ['EUtranCellFDD'] },
  { field: 'target', label: 'Target Cell', required: true, aliases: ['neighbor cell'] },
  { field: 'pci', label: 'Target PCI' },
];

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-headered-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function workbook(name: string, rows: ReadonlyArray<ReadonlyArray<string | number | null>>): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('First');
  for (const row of rows) sheet.addRow([...row]);
  book.addWorksheet('Second').addRow(['Source Cell', 'Target Cell']);
  const file = path.join(dir, name);
  await book.xlsx.writeFile(file);
  return file;
}

describe('readHeaderedSheet', () => {
  it('finds columns by any accepted name, ignoring case, spaces, _ and -, after blank leading rows', async () => {
    const file = await workbook('a.xlsx', [
      [],
      ['Comment', 'NEIGHBOR_CELL', 'eutran cell-fdd', 'target pci'],
      ['x', 'B1', 'A1', 7],
      [null, null, null, null],
      ['y', 'C1', 'A1', null],
    ]);
    const sheet = await readHeaderedSheet(file, 'a.xlsx', COLUMNS);
    expect(sheet.headers).toEqual({ target: 'NEIGHBOR_CELL', source: 'eutran cell-fdd', pci: 'target pci' });
    expect(sheet.rows).toEqual([
      { number: 3, values: { target: 'B1', source: 'A1', pci: 7 } },
      { number: 5, values: { target: 'C1', source: 'A1', pci: null } },
    ]);
  });

  it('takes the first of two columns naming one field', async () => {
    const file = await workbook('b.xlsx', [
      ['Source Cell', 'EUtranCellFDD', 'Target Cell'],
      ['A1', 'ignored', 'B1'],
    ]);
    expect((await readHeaderedSheet(file, 'b.xlsx', COLUMNS)).rows[0]?.values).toEqual({ source: 'A1', target: 'B1' });
  });

  it('refuses a sheet without the required columns, naming the file and them, and an empty sheet', async () => {
    const missing = await workbook('c.xlsx', [
      ['Cell', 'Other'],
      ['A1', 'B1'],
    ]);
    await expect(readHeaderedSheet(missing, 'c.xlsx', COLUMNS)).rejects.toThrow(
      new HeaderedWorkbookError('c.xlsx has no Source Cell, Target Cell columns: the first row must name them (see the template).'),
    );
    const empty = await workbook('d.xlsx', []);
    await expect(readHeaderedSheet(empty, 'd.xlsx', COLUMNS)).rejects.toThrow('d.xlsx is empty: its first sheet has no header row.');
    const text = path.join(dir, 'e.xlsx');
    fs.writeFileSync(text, 'not a workbook');
    await expect(readHeaderedSheet(text, 'e.xlsx', COLUMNS)).rejects.toBeInstanceOf(HeaderedWorkbookError);
  });

  it('reads identifiers as text and numbers only when whole', () => {
    expect([cellText(41428), cellText('  A1 '), cellText(null), cellText({ error: '#N/A' })]).toEqual(['41428', 'A1', null, null]);
    expect([cellInteger(7), cellInteger(' 12 '), cellInteger(1.5), cellInteger('x'), cellInteger(null)]).toEqual([7, 12, null, null, null]);
  });
});
