import ExcelJS from 'exceljs';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { newExport, recordExport } from '../files';
import { FIELD_EXAMPLES, FIELD_LABELS, type HoField } from './statistics';
import { THRESHOLDS } from './run';

/**
 * The handover statistics template: a 'Statistics' sheet with the headers and example rows (read as
 * the first sheet by a run), and a 'Read me' sheet saying what each column holds, which other header
 * names are accepted, and the thresholds of the remove, block and add candidates.
 */

export const TEMPLATE_FILE_NAME = 'NbrRelationsOptimization_template.xlsx';
const FIELDS: readonly HoField[] = ['source', 'target', 'period', 'attempts', 'successes'];

const EXAMPLES: ReadonlyArray<readonly [string, string, string, number, number]> = [
  ['LX0001_L1800_1', 'LX0001_L1800_2', '2026-11-16', 1250, 1238],
  ['LX0001_L1800_1', 'LX0002_L1800_1', '2026-11-16', 0, 0],
  ['LX0001_L1800_1', 'LX0003_L1800_2', '2026-11-16', 140, 96],
  ['LX0001_L1800_1', 'LX0001_L1800_2', '2026-11-17', 1190, 1181],
  ['LX0001_L1800_1', 'LX0002_L1800_1', '2026-11-17', 0, 0],
  ['LX0001_L1800_1', 'LX0003_L1800_2', '2026-11-17', 152, 101],
];

const MEANINGS: Readonly<Record<HoField, string>> = {
  source: 'The cell the handovers start from (a name, or a DN such as …,EUtranCellFDD=LX0001_L1800_1).',
  target: 'The cell they go to: a cell or external cell name, a neighborCellRef DN, or the EUtranCellRelation id of a defined relation.',
  period: 'The day, week or ROP of the counters (optional: without it the file is one period).',
  attempts: 'Handover execution attempts over the period (pmHoExeAtt).',
  successes: 'Successful handover executions over the period (pmHoExeSucc), at most the attempts.',
};

export async function writeTemplate(file: string): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Statistics');
  sheet.columns = FIELDS.map((f) => ({ header: FIELD_LABELS[f], key: f, width: 16 }));
  sheet.getRow(1).font = { bold: true };
  for (const row of EXAMPLES) sheet.addRow([...row]);

  const readMe = workbook.addWorksheet('Read me');
  readMe.columns = [
    { header: 'Column', key: 'column', width: 16 },
    { header: 'What it holds', key: 'meaning', width: 90 },
    { header: 'Also accepted as header', key: 'aliases', width: 60 },
  ];
  readMe.getRow(1).font = { bold: true };
  for (const f of FIELDS) readMe.addRow({ column: FIELD_LABELS[f], meaning: MEANINGS[f], aliases: FIELD_EXAMPLES[f] });
  readMe.addRow({});
  const t = THRESHOLDS;
  const notes = [
    'Headers are matched without regard to case, spaces, "_", "-" or "."; other columns are ignored. Only the first sheet is read.',
    'One row per relation and period; several files may be uploaded at once (their rows add up). The example rows above are to be replaced.',
    'Remove candidate: a defined relation of a source cell in the statistics with no handover attempt over all its periods (no row counts as 0), when isRemoveAllowed is true.',
    `Block candidate: a defined relation with at least ${t.blockMinAttempts} attempts whose success rate is below ${t.blockSuccessRate * 100}% (relations already barred from handover are left out).`,
    `Add candidate: a target with at least ${t.addMinAttempts} attempts from the source that is not one of its defined neighbours.`,
    'The result workbook has the sheets Remove, Block and Add, each row with its evidence, and Inputs (files, periods, thresholds, dump date).',
  ];
  for (const note of notes) readMe.addRow({ column: 'Note', meaning: note });
  await workbook.xlsx.writeFile(file);
}

/** Writes the template as an export of the caller; answers the File/Download id. */
export async function exportTemplate(db: Kysely<Database>, dataDir: string, userId: number): Promise<string> {
  const pending = newExport(dataDir, 'optimization.template', TEMPLATE_FILE_NAME);
  await writeTemplate(pending.file);
  return recordExport(db, userId, pending);
}
