import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { deflatedZeros, rowXml, sharedStringsXml, sheetXml, xlsx, type ZipPart } from '../../test/fixtures/files/zips';
import { readFirstSheet } from '../tracking/workbook';
import { WORKBOOK_LIMITS, type WorkbookLimits } from './limits';
import { checkWorkbookBounds, columnOf, NOT_A_WORKBOOK, workbookDirectoryProblem } from './workbook-bounds';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-bounds-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let counter = 0;
function fileOf(content: Buffer): string {
  const file = path.join(dir, `book-${(counter += 1)}.xlsx`);
  fs.writeFileSync(file, content);
  return file;
}
const check = (content: Buffer, limits: Partial<WorkbookLimits> = {}) => checkWorkbookBounds(fileOf(content), { ...WORKBOOK_LIMITS, ...limits });
const refusal = async (content: Buffer, limits: Partial<WorkbookLimits> = {}) => {
  try {
    await check(content, limits);
  } catch (error) {
    expect(error).toMatchObject({ statusCode: 400 });
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};
const rows = (count: number, values: readonly string[] = ['a', 'b']) => Array.from({ length: count }, (_, i) => rowXml(i + 1, values)).join('');

describe('workbook bounds', () => {
  it('lets a plain workbook through, which exceljs then reads', async () => {
    const book = xlsx({ sheet: sheetXml(rows(3, ['x', 'y & z'])) });
    // The pre-pass also counts the rows, for the import's progress.
    await expect(check(book)).resolves.toEqual({ sheetRows: new Map([['xl/worksheets/sheet1.xml', 3]]) });
    const read: unknown[][] = [];
    for await (const row of readFirstSheet(fileOf(book))) read.push(row.cells.slice(1));
    expect(read).toEqual([
      ['x', 'y & z'],
      ['x', 'y & z'],
      ['x', 'y & z'],
    ]);
  });

  it('reads parts written with data descriptors, as streaming writers write them', async () => {
    const book = xlsx({ sheet: { name: '', data: sheetXml(rows(2)), descriptor: true } });
    await expect(check(book)).resolves.toHaveProperty('sheetRows');
  });

  it('refuses more rows than the limit, counting every row element (the probe: 1,000,000 rows in a small file)', async () => {
    expect(await refusal(xlsx({ sheet: sheetXml(rows(11)) }), { maxRows: 10 })).toBe('The workbook has more than 10 rows; the limit is 10.');
    await expect(check(xlsx({ sheet: sheetXml(rows(10)) }), { maxRows: 10 })).resolves.toHaveProperty('sheetRows');
    const numbered = xlsx({ sheet: sheetXml(Array.from({ length: 1_000_000 }, (_, i) => `<row r="${i + 1}"/>`).join('')) });
    expect(await refusal(numbered)).toBe('The workbook has more than 250,000 rows; the limit is 250,000.');
    // Identical rows compress past any real sheet: refused from the directory, before inflating.
    const identical = xlsx({ sheet: sheetXml('<row/>'.repeat(1_000_000)) });
    expect(identical.length).toBeLessThan(200_000);
    expect(await refusal(identical)).toMatch(/compressed more than 200 to 1/);
  });

  it('refuses more cells than the limit, and rows wider than the limit however the width is written', async () => {
    expect(await refusal(xlsx({ sheet: sheetXml(rows(6)) }), { maxCells: 11 })).toBe('The workbook has more than 11 cells; the limit is 11.');
    const wide = (cell: string) => xlsx({ sheet: sheetXml(`${rowXml(1, ['a'])}<row r="2">${cell}</row>`) });
    const limits = { maxCellsPerRow: 5 };
    expect(await refusal(xlsx({ sheet: sheetXml(rowXml(7, ['1', '2', '3', '4', '5', '6'])) }), limits)).toBe(
      'Row 7 of the workbook is wider than 5 columns; the limit is 5.',
    );
    for (const cell of [
      '<c r="XFD2"><v>1</v></c>',
      '<c r="$F$2"><v>1</v></c>',
      '<c s="0" r="F2"><v>1</v></c>',
      '<c r="&#70;2"><v>1</v></c>',
      '<c x="a>b" r="F2"><v>1</v></c>',
      `<c x=' r="A2"' r="F2"><v>1</v></c>`,
    ]) {
      expect({ cell, message: await refusal(wide(cell), limits) }).toEqual({ cell, message: 'Row 2 of the workbook is wider than 5 columns; the limit is 5.' });
    }
    await expect(check(wide('<c r="E2"><v>1</v></c>'), limits)).resolves.toHaveProperty('sheetRows');
    expect([columnOf('A1'), columnOf('XFD1048576'), columnOf('$AB$3'), columnOf('a1')]).toEqual([1, 16_384, 28, 0]);
  });

  it('refuses a text longer than the limit: shared, inline, split over elements as exceljs joins them, in CDATA, comments and tags', async () => {
    const limit = WORKBOOK_LIMITS.maxStringBytes;
    const string = (bytes: number) => sharedStringsXml(`<si><t>${'a'.repeat(bytes)}</t></si>`);
    const message = "The workbook holds a text longer than 262,144 bytes; the limit is 262,144 (Excel's own is 32,767 characters).";
    await expect(check(xlsx({ sheet: sheetXml(rows(1)), sharedStrings: string(limit) }))).resolves.toHaveProperty('sheetRows');
    expect(await refusal(xlsx({ sheet: sheetXml(rows(1)), sharedStrings: string(limit + 1) }))).toBe(message);
    const big = 'b'.repeat(limit / 2 + 1);
    const sheets = [
      sheetXml(rowXml(1, ['a'.repeat(limit + 1)])),
      // exceljs keeps appending text after a value to that value: two halves after the last cell make one string.
      `${sheetXml(rows(1)).replace('</worksheet>', '')}<x>${big}</x><x>${big}</x></worksheet>`,
      sheetXml(`<row r="1"><c r="A1" t="str"><v><![CDATA[${'c'.repeat(limit + 1)}]]></v></c></row>`),
      sheetXml(`<!--${'d'.repeat(limit + 1)}-->`),
      sheetXml(`<row r="1" x="${'e'.repeat(limit + 1)}"/>`),
    ];
    for (const sheet of sheets) expect(await refusal(xlsx({ sheet }))).toBe(message);
  });

  it('refuses shared-string tables over the count or size limit', async () => {
    const strings = sharedStringsXml('<si><t>a</t></si>'.repeat(20));
    expect(await refusal(xlsx({ sheet: sheetXml(rows(1)), sharedStrings: strings }), { maxSharedStrings: 19 })).toBe(
      'The workbook has more than 19 shared strings; the limit is 19.',
    );
    expect(await refusal(xlsx({ sheet: sheetXml(rows(1)), sharedStrings: strings }), { maxSharedStringBytes: 300 })).toBe(
      'The shared strings of the workbook take more than 300 bytes; the limit is 300.',
    );
  });

  it('refuses parts and workbooks that inflate past the limits, counting real bytes, not declared ones', async () => {
    const styles: ZipPart = { name: 'xl/styles.xml', data: `<styleSheet>${'<xf/>'.repeat(1000)}</styleSheet>` };
    expect(await refusal(xlsx({ sheet: sheetXml(rows(1)), parts: [styles] }), { maxPartBytes: 4096 })).toBe(
      'The part xl/styles.xml of the workbook inflates to more than 4,096 bytes; the limit is 4,096.',
    );
    expect(await refusal(xlsx({ sheet: sheetXml(rows(100)) }), { maxInflatedBytes: 5_000 })).toBe(
      'The workbook inflates to more than 5,000 bytes; the limit is 5,000.',
    );
    // A directory that understates the sheet: inflation stops at the declared size, whatever follows.
    const liar = xlsx({ sheet: { name: '', data: sheetXml(rows(2_000)), size: 1_000 } });
    expect(await refusal(liar)).toBe(NOT_A_WORKBOOK);
    // An honest bomb is refused from its directory, before anything is inflated.
    const zeros = await deflatedZeros(4);
    const bomb = xlsx({ sheet: sheetXml(rows(1)), parts: [{ name: 'xl/media/image1.png', raw: zeros.raw, size: zeros.size }] });
    expect(await refusal(bomb)).toBe('The part xl/media/image1.png of the workbook is compressed more than 200 to 1, as zip bombs are; the limit is 200 to 1.');
  });

  it('refuses zips a streaming reader would see differently from their directory', async () => {
    const book = xlsx({ sheet: sheetXml(rows(2)) });
    const eocd = book.length - 22;
    const dirOffset = book.readUInt32LE(eocd + 16);
    // The first entry dropped from the directory: still in the file, where a streaming reader finds it.
    const firstRecord = 46 + book.readUInt16LE(dirOffset + 28);
    const hidden = Buffer.from(book);
    hidden.writeUInt16LE(book.readUInt16LE(eocd + 8) - 1, eocd + 8);
    hidden.writeUInt16LE(book.readUInt16LE(eocd + 10) - 1, eocd + 10);
    hidden.writeUInt32LE(book.readUInt32LE(eocd + 12) - firstRecord, eocd + 12);
    hidden.writeUInt32LE(dirOffset + firstRecord, eocd + 16);
    // Two directory entries on the same data (how non-recursive zip bombs multiply their bytes).
    const overlapping = Buffer.from(book);
    overlapping.writeUInt32LE(0, dirOffset + firstRecord + 42);
    // A stored part whose data holds a data-descriptor signature, cutting it short for a streaming reader.
    const cut = xlsx({ sheet: sheetXml(rows(1)), parts: [{ name: 'docProps/app.xml', data: 'x PK\x07\x08 y', method: 0, descriptor: true }] });
    // Bytes after the end of a deflate stream.
    const sheet = sheetXml(rows(1));
    const trailing = xlsx({ sheet: { name: '', raw: Buffer.concat([zlib.deflateRawSync(sheet), Buffer.from('junk')]), size: sheet.length } });
    const text = Buffer.from('just text pretending to be a workbook');
    const truncated = book.subarray(0, book.length - 10);
    for (const [label, content] of Object.entries({ hidden, overlapping, cut, trailing, text, truncated })) {
      expect({ label, message: await refusal(content) }).toEqual({ label, message: NOT_A_WORKBOOK });
    }
  });

  it('judges a directory alone: parts, declared sizes and ratios', () => {
    const entry = (name: string, size: number, compressedSize = size) => ({
      name,
      nameBytes: Buffer.from(name),
      flags: 0,
      method: 8,
      crc: 0,
      compressedSize,
      size,
      offset: 0,
    });
    expect(workbookDirectoryProblem([entry('a', 10)])).toBeNull();
    expect(workbookDirectoryProblem([entry('../../x.xml', 10)])).toMatch(/not a plain relative path/);
    expect(workbookDirectoryProblem(Array.from({ length: 10_001 }, (_, i) => entry(`p${i}`, 1)))).toBe(
      'The workbook has more than 10,000 parts; the limit is 10,000.',
    );
    expect(workbookDirectoryProblem([entry('xl/worksheets/sheet1.xml', 600_000_000, 60_000_000)], 'File a.xlsx')).toBe(
      'File a.xlsx inflates to more than 500,000,000 bytes; the limit is 500,000,000.',
    );
    expect(workbookDirectoryProblem([entry('xl/sharedStrings.xml', 100_000_001, 10_000_000)])).toMatch(/shared strings/);
    expect(workbookDirectoryProblem([entry('xl/worksheets/sheet1.xml', 2_000_001, 10_000)])).toMatch(/compressed more than 200 to 1/);
    expect(workbookDirectoryProblem([entry('xl/worksheets/sheet1.xml', 1_000_000, 10)])).toBeNull();
  });
});
