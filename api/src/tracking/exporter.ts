import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { newExport, recordExport } from '../files';
import { DATE_FIELDS, type TableSpec } from './datasets';
import { allRows } from './queries';
import { openSheetWriter, type SafeCell } from './workbook';

/** 20240305-143000: sortable, and safe in every file system. */
export function fileStamp(now: Date): string {
  return now
    .toISOString()
    .replace(/\.\d{3}Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
}

/**
 * Writes a table to a workbook (streamed from the database a block at a time, streamed into the file):
 * exactly the table's columns, header = field names, so the file re-imports. Records the export for
 * File/Download and answers its id.
 */
export async function exportTable(db: Kysely<Database>, dataDir: string, userId: number, spec: TableSpec, now = new Date()): Promise<string> {
  const pending = newExport(dataDir, spec.exportKind, `${spec.filePrefix}_${fileStamp(now)}.xlsx`);
  const fields = spec.exportFields;
  const dates = new Set(fields.flatMap((f, i) => (DATE_FIELDS.has(f) ? [i] : [])));
  const writer = openSheetWriter(pending.file, spec.sheetName, fields, dates);
  for await (const row of allRows<Record<string, unknown>>(db, spec.table, fields)) {
    const values: SafeCell[] = fields.map((f, i) => {
      const value = row[f];
      if (value === null || value === undefined) return null;
      if (dates.has(i) && typeof value === 'string') return new Date(value);
      return value as SafeCell;
    });
    writer.addRow(values);
  }
  await writer.finish();
  return recordExport(db, userId, pending);
}
