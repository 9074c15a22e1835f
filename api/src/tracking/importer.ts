import fs from 'node:fs';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { MAX_REPORTED_PROBLEMS, type ImportProblem } from '../contracts/tracking';
import type { Database } from '../db/schema';
import {
  headerProblem,
  IMPORT_SPECS,
  isBlankRow,
  matchHeaders,
  normalizeCell,
  rowValidator,
  type DataSetKind,
  type HeaderMatch,
  type RowResult,
} from '../domain/tracking';
import { IMPORTS, STAMPS } from './datasets';
import { RowWriter, writeStamp } from './queries';
import { isoNow, recomputeDelta } from './sync';
import { openSheetWriter, readFirstSheet, type SafeCell } from './workbook';

/** A file that cannot be imported: 400 with the problems; nothing was changed. */
export class TrackingImportError extends Error {
  override readonly name = 'TrackingImportError';
  readonly statusCode = 400;
  constructor(
    message: string,
    readonly errors: ImportProblem[] = [],
    /** Sheet row number → its problems, when rows were at fault (for the error workbook). */
    readonly rowProblems: Map<number, string> | null = null,
    readonly header: HeaderMatch | null = null,
  ) {
    super(message);
  }
}

export const IMPORT_MESSAGES = {
  empty: 'The workbook is empty: its first sheet has no rows.',
  noData: 'The workbook has a header row but no data rows.',
  rowsWithProblems: (n: number) => `${n} ${n === 1 ? 'row has' : 'rows have'} problems; nothing was imported.`,
} as const;

export interface ImportResult {
  rows: number;
  importedAt: string;
}

/** Arbitrary but fixed: serialises tracking writers (imports, sync) across API instances on PostgreSQL. */
const TRACKING_LOCK_KEY = 7_316_012;

/**
 * Replaces one tracking data set with a workbook's first sheet, all or nothing, in ONE transaction and
 * ONE streamed pass: the header is matched, the old rows deleted, and each row validated and inserted
 * in batches. The first bad row stops the inserts (validation goes on, so the answer lists every
 * problem) and the transaction rolls back, leaving the previous data set exactly as it was.
 *
 * On SQLite the import holds the single connection until it commits; on PostgreSQL readers keep seeing
 * the previous data set until then.
 */
export async function importDataSet(db: Kysely<Database>, kind: DataSetKind, file: string, now = new Date()): Promise<ImportResult> {
  const spec = IMPORTS[kind];
  const specs = IMPORT_SPECS[kind];
  const importedAt = isoNow(now);
  const rowFields = kind === 'commissioningPlan' ? ['id', ...specs.map((s) => s.field), 'LastUpdate'] : ['id', ...specs.map((s) => s.field)];
  const fields = kind === 'tracker' ? [...rowFields, 'lastUpdate'] : rowFields;

  return db.transaction().execute(async (trx) => {
    if (trx.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_advisory_xact_lock(${TRACKING_LOCK_KEY})`.execute(trx);
    const writer = new RowWriter(trx, spec.table.table, fields);
    let header: HeaderMatch | null = null;
    let validate: ((rowNumber: number, cells: readonly unknown[]) => RowResult<Record<string, unknown>>) | null = null;
    const problems: ImportProblem[] = [];
    const rowProblems = new Map<number, string>();
    let dataRows = 0;

    for await (const { number, cells } of readFirstSheet(file)) {
      if (!header) {
        if (cells.every((c) => normalizeCell(c) === null)) continue;
        header = matchHeaders(
          cells,
          specs.map((s) => s.field),
        );
        const problem = headerProblem(header);
        if (problem) throw new TrackingImportError(problem);
        validate = rowValidator(header, specs);
        await trx.deleteFrom(spec.table.table).execute();
        continue;
      }
      if (isBlankRow(cells, header)) continue;
      dataRows += 1;
      const result = validate!(number, cells);
      if (!result.ok) {
        rowProblems.set(number, result.problems.map((p) => `${p.column}: ${p.problem}`).join('; '));
        for (const p of result.problems) if (problems.length < MAX_REPORTED_PROBLEMS) problems.push(p);
      } else if (rowProblems.size === 0) {
        await writer.add({ ...result.value, id: dataRows, LastUpdate: importedAt, lastUpdate: importedAt });
      }
    }
    if (!header) throw new TrackingImportError(IMPORT_MESSAGES.empty);
    if (dataRows === 0) throw new TrackingImportError(IMPORT_MESSAGES.noData);
    if (rowProblems.size > 0) throw new TrackingImportError(IMPORT_MESSAGES.rowsWithProblems(rowProblems.size), problems, rowProblems, header);
    await writer.flush();
    if (kind !== 'commissioningPlan') await recomputeDelta(trx);
    await writeStamp(trx, STAMPS[kind], importedAt);
    return { rows: writer.written, importedAt };
  });
}

/**
 * The error workbook: every row of the original sheet as it was (values, not formulas or styles) plus an
 * 'Error' column naming what is wrong with each bad row, so a user fixes the file where it points.
 */
export async function writeErrorWorkbook(source: string, target: string, error: TrackingImportError): Promise<void> {
  const rowProblems = error.rowProblems ?? new Map<number, string>();
  let writer: ReturnType<typeof openSheetWriter> | null = null;
  let width = 0;
  try {
    for await (const { number, cells } of readFirstSheet(source)) {
      const values: SafeCell[] = [];
      for (let i = 1; i < cells.length; i += 1) {
        const value = normalizeCell(cells[i]);
        values.push(
          typeof value === 'boolean'
            ? String(value).toUpperCase()
            : value !== null && typeof value === 'object' && !(value instanceof Date)
              ? value.error
              : value,
        );
      }
      if (!writer) {
        if (values.every((v) => v === null)) continue;
        width = values.length;
        const headers = Array.from({ length: width }, (_, i) => String(values[i] ?? ''));
        writer = openSheetWriter(target, 'Errors', [...headers, 'Error'], new Set());
        continue;
      }
      // Cells right of the header have no column to go in; the Error column stays last.
      const row = Array.from({ length: width }, (_, i) => values[i] ?? null);
      writer.addRow([...row, rowProblems.get(number) ?? null]);
    }
  } finally {
    if (writer) await writer.finish();
  }
  if (!writer) fs.rmSync(target, { force: true });
}
