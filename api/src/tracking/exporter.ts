import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { scopedTo } from '../db/operator-scope';
import { newExport, recordExport } from '../files';
import { DATE_FIELDS, titleOf, type TableSpec } from './datasets';
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

/** Rows written so far and the table's rows when the export started (rows added meanwhile may pass it). */
export type ExportProgress = (written: number, total: number) => void;

/** How often (in rows) an export says how far it is: cheap next to writing them. */
export const EXPORT_PROGRESS_EVERY = 1000;

/**
 * Writes a table to a workbook (streamed from the database a block at a time, streamed into the file):
 * exactly the table's columns, header = the page's column titles, which the import reads as it reads the
 * field names, so the file re-imports. Records the export for
 * File/Download and answers its id. `onProgress` hears every EXPORT_PROGRESS_EVERY rows and at the end.
 */
export async function exportTable(
  db: Kysely<Database>,
  dataDir: string,
  userId: number,
  spec: TableSpec,
  now = new Date(),
  onProgress?: ExportProgress,
): Promise<string> {
  const pending = newExport(dataDir, spec.exportKind, `${spec.filePrefix}_${fileStamp(now)}.xlsx`);
  const total = onProgress
    ? Number(
        (await sql<{ total: number | string }>`select count(*) as total from ${sql.table(spec.table)} where ${scopedTo(spec.table)}`.execute(db)).rows[0]
          ?.total ?? 0,
      )
    : 0;
  let written = 0;
  onProgress?.(0, total);
  const fields = spec.exportFields;
  const dates = new Set(fields.flatMap((f, i) => (DATE_FIELDS.has(f) ? [i] : [])));
  const writer = openSheetWriter(pending.file, spec.sheetName, fields.map(titleOf), dates);
  for await (const row of allRows<Record<string, unknown>>(db, spec.table, fields)) {
    const values: SafeCell[] = fields.map((f, i) => {
      const value = row[f];
      if (value === null || value === undefined) return null;
      if (dates.has(i) && typeof value === 'string') return new Date(value);
      return value as SafeCell;
    });
    writer.addRow(values);
    written++;
    if (onProgress && written % EXPORT_PROGRESS_EVERY === 0) onProgress(written, Math.max(total, written));
  }
  await writer.finish();
  onProgress?.(written, Math.max(total, written));
  return recordExport(db, userId, pending);
}
