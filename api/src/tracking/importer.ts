import fs from 'node:fs';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { MAX_REPORTED_PROBLEMS, type ImportProblem } from 'contracts';
import { OPERATOR_COLUMN, requireOperatorId, runUnscoped, scopedTo } from '../db/operator-scope';
import type { Database } from '../db/schema';
import { refreshStatistics } from '../db/statistics';
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
import type { TableName } from './datasets';
import { isoNow, recomputeDelta } from './sync';
import { openSheetWriter, readFirstSheet, readFirstSheetBatches, type SafeCell } from './workbook';

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
 * Progress of an import: rows read so far, the sheet's row count when known (0 = unknown: it is counted
 * on the way, so known at the end), and the share of the sheet read (0 to 1).
 */
export type ImportProgress = (rowsRead: number, rowsInSheet: number, share: number) => void;

/**
 * Replaces one tracking data set with a workbook's first sheet, all or nothing, in one streamed pass.
 *
 * Rows are validated and written to a TEMPORARY table of the import's own connection (invisible to
 * everyone else, and gone if the process dies), in batches that take no lock on the real tables. Only
 * when every row is good does one short transaction swap them in: delete the old rows, copy the new
 * ones, rebuild the delta, stamp the date. So readers and other writers never wait for the reading (on
 * SQLite the swap holds the write lock for a fraction of a second), and a crash at any point leaves the
 * previous data set exactly as it was. The first bad row stops the writes (validation goes on, so the
 * answer lists every problem).
 */
export async function importDataSet(
  db: Kysely<Database>,
  kind: DataSetKind,
  file: string,
  now = new Date(),
  onProgress: ImportProgress = () => undefined,
): Promise<ImportResult> {
  const spec = IMPORTS[kind];
  const specs = IMPORT_SPECS[kind];
  const importedAt = isoNow(now);
  const rowFields = kind === 'commissioningPlan' ? ['id', ...specs.map((s) => s.field), 'LastUpdate'] : ['id', ...specs.map((s) => s.field)];
  const fields = kind === 'tracker' ? [...rowFields, 'lastUpdate'] : rowFields;
  const live = spec.table.table;
  const staging = `import_${live}`;

  return db.connection().execute(async (conn) => {
    await sql`drop table if exists ${sql.table(staging)}`.execute(conn);
    await sql`create temporary table ${sql.table(staging)} as select * from ${sql.table(live)} where ${scopedTo(live)} and 1 = 0`.execute(conn);
    try {
      // The staging table has the live one's columns; the writer only needs their names. The stamps and
      // the operator are the same on every row, so the writer adds them instead of each row carrying them.
      // The staging table is no tenant table, so the operator is named here, not by the operator scope.
      const operatorId = requireOperatorId();
      const writer = new RowWriter(conn, staging as TableName, [...fields, OPERATOR_COLUMN], {
        LastUpdate: importedAt,
        lastUpdate: importedAt,
        [OPERATOR_COLUMN]: operatorId,
      });
      let header: HeaderMatch | null = null;
      let validate: ((rowNumber: number, cells: readonly unknown[]) => RowResult<Record<string, unknown>>) | null = null;
      const problems: ImportProblem[] = [];
      const rowProblems = new Map<number, string>();
      let dataRows = 0;
      let rowsInSheet = 0;
      let rowsRead = 0;
      let share = 0;
      let headerRefusal: string | null = null;

      const batches = readFirstSheetBatches(
        file,
        undefined,
        (rows) => (rowsInSheet = rows),
        (read) => (share = read),
      );
      reading: for await (const batch of batches) {
        for (const { number, cells } of batch) {
          rowsRead += 1;
          // Counted as a person counts them: data rows, without the header row.
          if (rowsRead % 1000 === 0) onProgress(rowsRead - 1, Math.max(0, rowsInSheet - 1), share);
          if (!header) {
            if (cells.every((c) => normalizeCell(c) === null)) continue;
            header = matchHeaders(
              cells,
              specs.map((s) => s.field),
            );
            headerRefusal = headerProblem(header);
            // Left by break, not by throwing: the reader then checks the rest of the sheet, and a limit
            // it breaks is the answer, as when the limits were checked before the first row.
            if (headerRefusal) break reading;
            validate = rowValidator(header, specs);
            continue;
          }
          if (isBlankRow(cells, header)) continue;
          dataRows += 1;
          const result = validate!(number, cells);
          if (!result.ok) {
            rowProblems.set(number, result.problems.map((p) => `${p.column}: ${p.problem}`).join('; '));
            for (const p of result.problems) if (problems.length < MAX_REPORTED_PROBLEMS) problems.push(p);
          } else if (rowProblems.size === 0) {
            // The validator's own object, not a spread copy: 100,000 copies of a 20-field object cost more than the reading.
            result.value.id = dataRows;
            await writer.add(result.value);
          }
        }
      }
      if (headerRefusal) throw new TrackingImportError(headerRefusal);
      onProgress(Math.max(0, rowsRead - 1), Math.max(0, rowsInSheet - 1), 1);
      if (!header) throw new TrackingImportError(IMPORT_MESSAGES.empty);
      if (dataRows === 0) throw new TrackingImportError(IMPORT_MESSAGES.noData);
      if (rowProblems.size > 0) throw new TrackingImportError(IMPORT_MESSAGES.rowsWithProblems(rowProblems.size), problems, rowProblems, header);
      await writer.flush();

      await conn.transaction().execute(async (trx) => {
        const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
        if (postgres) await sql`select pg_advisory_xact_lock(${TRACKING_LOCK_KEY})`.execute(trx);
        // On SQLite, building an index from all the rows costs less than keeping it up to date row by row,
        // and readers on other connections keep their snapshot meanwhile. Not on PostgreSQL: dropping an
        // index locks every reader of the table out until the commit.
        const indexes = postgres ? [] : await sqliteIndexes(trx, live);
        for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(trx);
        // Only the current operator's rows are replaced: the delete is scoped, and so is the copy.
        await trx.deleteFrom(live).execute();
        await sql`insert into ${sql.table(live)} select * from ${sql.table(staging)} where ${scopedTo(staging)}`.execute(trx);
        // DDL, not a read of anyone's rows: the index covers every operator's, as it did before the drop.
        for (const index of indexes) await runUnscoped(() => sql.raw(index.sql).execute(trx));
        if (kind !== 'commissioningPlan') await recomputeDelta(trx);
        await writeStamp(trx, STAMPS[kind], importedAt);
      });
      await refreshStatistics(conn, kind === 'commissioningPlan' ? [live] : [live, 'tracking_wo_delta']);
      return { rows: writer.written, importedAt };
    } finally {
      await sql`drop table if exists ${sql.table(staging)}`.execute(conn);
    }
  });
}

/** A SQLite table's own indexes (not those of its constraints), with the statements that made them. */
async function sqliteIndexes(db: Kysely<Database>, table: string): Promise<Array<{ name: string; sql: string }>> {
  const { rows } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
    where type = 'index' and tbl_name = ${table} and sql is not null`.execute(db);
  return rows;
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
