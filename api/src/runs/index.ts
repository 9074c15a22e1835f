import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import {
  PREVIEW_ROWS,
  RUN_HISTORY_FIELDS,
  type RunFindingRow,
  type RunFindingsPage,
  type RunFindingsQuery,
  type RunHistoryRow,
  type RunKind,
  type RunPreview,
  type RunResponse,
  type RunSheetInfo,
  type RunSummaryItem,
  type RunView,
} from 'contracts';
import { BatchInsert } from '../db/batch-insert';
import { keyedColumns, listFrom, tenantScope, type KeyedTable, type ListQuery, type ListSource } from '../db/list';
import type { Database } from '../db/schema';
import { scopedTo } from '../db/operator-scope';
import { ListQueryError } from '../domain/tracking';
import { sheetNames } from '../domain/monitoring/report';
import { FileServiceError, newExport, recordExport } from '../files';
import { columnWidths, FROZEN_HEADER_VIEWS, layOutSheet } from '../files/sheet-layout';
import { DATE_FORMAT, safeCell } from '../tracking/workbook';
import { distinctNames, rowVerdict, sheetInfoOf, storedValue, verdictKeyOf, verdictRank } from './findings';
import type { RunSheet } from './sheet';

export type { RunCell, RunSheet } from './sheet';

/**
 * The run history every planning, validation and optimisation page shares (docs/engines/planning.md#every-run): a run's
 * engine gives sheets; this module writes them as one workbook, keeps it under files/runs/ (not an
 * expiring export), records the run with its verdict summary and every row of its result sheets
 * (run_findings), lists the history and a run's findings (worst first), and hands the workbook out
 * again as a fresh export for whoever downloads it later.
 */

type Db = Kysely<Database>;

export const RUN_MESSAGES = {
  notFound: 'Run not found.',
  noWorkbook: 'This run has no workbook.',
  unknownSheet: (sheet: string, sheets: readonly string[]) =>
    sheets.length === 0
      ? `This run has no sheet "${sheet.slice(0, 100)}": it has no result sheets.`
      : `This run has no sheet "${sheet.slice(0, 100)}"; it has ${sheets.join(', ')}.`,
  unknownColumn: (column: string, sheet: string) => `Sheet ${sheet} has no column "${column.slice(0, 100)}".`,
} as const;

export function runsDir(dataDir: string): string {
  return path.join(dataDir, 'files', 'runs');
}

/** One workbook, one sheet per RunSheet (unique Excel-safe names), headers bold, frozen and filtered, columns sized to content, text never a formula. */
export async function writeRunWorkbook(file: string, sheets: readonly RunSheet[]): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false });
  const names = sheetNames(sheets.map((s) => ({ TableName: s.name })));
  sheets.forEach((sheet, index) => {
    const ws = workbook.addWorksheet(names[index], { views: FROZEN_HEADER_VIEWS });
    ws.columns = sheet.columns.map((c) => ({ header: c.label, key: c.key }));
    layOutSheet(
      ws,
      columnWidths(
        sheet.columns.map((c) => c.label),
        sheet.rows.map((row) => sheet.columns.map((c) => row[c.key])),
      ),
    );
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    for (const row of sheet.rows) {
      const added = ws.addRow(sheet.columns.map((c) => safeCell(row[c.key])));
      sheet.columns.forEach((c, i) => {
        if (row[c.key] instanceof Date) added.getCell(i + 1).style = { numFmt: DATE_FORMAT };
      });
      added.commit();
    }
    ws.commit();
  });
  await workbook.commit();
}

/** The first rows of a sheet for the page (dates as ISO-8601 text). */
export function previewOf(sheet: RunSheet): RunPreview {
  return {
    title: sheet.name,
    columns: sheet.columns.map((c) => ({ key: c.key, label: c.label })),
    rows: sheet.rows.slice(0, PREVIEW_ROWS).map((row) =>
      Object.fromEntries(
        sheet.columns.map((c) => {
          const value = row[c.key] ?? null;
          return [c.key, value instanceof Date ? value.toISOString() : value];
        }),
      ),
    ),
    total: sheet.rows.length,
  };
}

export interface RunRecord {
  kind: RunKind;
  userId: number;
  sites: readonly string[];
  files: readonly string[];
  parameters: Record<string, unknown>;
  jobId: string | null;
  message: string | null;
  summary: RunSummaryItem[];
  /**
   * The result sheets whose every row the page lists, in the order it offers them (the first is shown
   * first): the workbook's findings, not its copies (a verdict's own sheet) nor its inputs.
   */
  findings: readonly RunSheet[];
  /** The answer's `preview` (kept for callers of the run routes): default the first findings sheet. */
  preview?: RunPreview;
  /** The workbook to keep, written by the caller to a temporary file (moved, not copied), with its download name. */
  workbook: { file: string; fileName: string } | null;
}

async function userNameOf(db: Db, userId: number): Promise<string> {
  const user = await db.selectFrom('users').select(['firstname', 'lastname']).where('id', '=', userId).executeTakeFirst();
  return user ? `${user.firstname} ${user.lastname}` : `User ${userId}`;
}

const FINDING_COLUMNS = ['run_id', 'sheet', 'row_no', 'rank', 'verdict', 'data'] as const;

/** Every row of the findings sheets, in one batched insert per 500 rows (a health check of many sites, an optimisation of thousands of relations). */
async function insertFindings(db: Db, runId: number, sheets: readonly RunSheet[]): Promise<RunSheetInfo[]> {
  const names = distinctNames(sheets.map((s) => s.name));
  const insert = new BatchInsert(db, 'run_findings', FINDING_COLUMNS, { fixed: { run_id: runId } });
  const infos: RunSheetInfo[] = [];
  for (const [index, sheet] of sheets.entries()) {
    const info = { ...sheetInfoOf(sheet), name: names[index]! };
    infos.push(info);
    const key = verdictKeyOf(sheet);
    let rowNo = 0;
    for (const row of sheet.rows) {
      rowNo += 1;
      const verdict = rowVerdict(sheet, row, key);
      const data: Record<string, string | number | null> = {};
      for (const c of sheet.columns) data[c.key] = storedValue(row[c.key]);
      await insert.add({ sheet: index, row_no: rowNo, rank: verdictRank(verdict), verdict: verdict?.slice(0, 60) ?? null, data: JSON.stringify(data) });
    }
  }
  await insert.flush();
  return infos;
}

const EMPTY_PREVIEW: RunPreview = { title: 'Result', columns: [], rows: [], total: 0 };

/**
 * Records a finished run and answers what its call answers (docs/architecture.md#api-conventions): with a workbook, a fresh
 * export of it for the caller (`file`); the message when the run has one. The run's row and its
 * findings are written in one transaction: a run is kept whole or not at all.
 */
export async function recordRun(db: Db, dataDir: string, run: RunRecord): Promise<RunResponse> {
  let storedName: string | null = null;
  if (run.workbook) {
    const dir = runsDir(dataDir);
    fs.mkdirSync(dir, { recursive: true });
    storedName = `${randomUUID()}.xlsx`;
    fs.renameSync(run.workbook.file, path.join(dir, storedName));
  }
  const preview = run.preview ?? (run.findings[0] ? previewOf(run.findings[0]) : EMPTY_PREVIEW);
  try {
    const userName = await userNameOf(db, run.userId);
    const runId = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('runs')
        .values({
          kind: run.kind,
          user_id: run.userId,
          user_name: userName,
          sites: run.sites.join(','),
          files: run.files.join(', '),
          parameters: JSON.stringify(run.parameters),
          run_date: new Date().toISOString(),
          job_id: run.jobId,
          message: run.message,
          summary: JSON.stringify(run.summary),
          preview: JSON.stringify(preview),
          stored_name: storedName,
          file_name: run.workbook?.fileName ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const sheets = await insertFindings(trx, inserted.id, run.findings);
      await trx
        .updateTable('runs')
        .set({ sheets: JSON.stringify(sheets) })
        .where('id', '=', inserted.id)
        .execute();
      return inserted.id;
    });
    const answer: RunResponse = { runId, summary: run.summary, preview };
    if (run.message) answer.message = run.message;
    if (storedName) answer.file = await exportRun(db, dataDir, run.kind, runId, run.userId);
    return answer;
  } catch (error) {
    if (storedName) fs.rmSync(path.join(runsDir(dataDir), storedName), { force: true });
    throw error;
  }
}

/** A fresh export of a run's workbook for `userId` (the File/Download id). */
export async function exportRun(db: Db, dataDir: string, kind: RunKind, runId: number, userId: number): Promise<string> {
  const run = await db.selectFrom('runs').select(['stored_name', 'file_name']).where('id', '=', runId).where('kind', '=', kind).executeTakeFirst();
  if (!run) throw new FileServiceError(404, RUN_MESSAGES.notFound);
  if (!run.stored_name || !run.file_name) throw new FileServiceError(404, RUN_MESSAGES.noWorkbook);
  const source = path.join(runsDir(dataDir), run.stored_name);
  if (!fs.existsSync(source)) throw new FileServiceError(404, RUN_MESSAGES.noWorkbook);
  const pending = newExport(dataDir, `runs.${kind}`, run.file_name);
  fs.copyFileSync(source, pending.file);
  return recordExport(db, userId, pending);
}

function historySource(kind: RunKind): ListSource {
  return {
    from: sql`select r.id as "id", r.user_name as "user", r.sites as "sites", r.sites as "site", r.files as "files",
        r.parameters as "parameters", r.run_date as "runDate", r.message as "message", r.summary as "outcome",
        case when r.stored_name is null then 0 else 1 end as "hasFile",
        -- Filters and sorts on these read the parameters' JSON (e.g. "antenna":"AIR6488"); the rows show the values.
        r.parameters as "antenna", r.parameters as "lteBands"
      from runs r where r.kind = ${kind} and ${scopedTo('r')}`,
    fields: [...RUN_HISTORY_FIELDS, 'parameters', 'hasFile'],
    dateFields: new Set(['runDate']),
    numberFields: new Set(['id', 'hasFile']),
    defaultSort: 'runDate',
    defaultOrder: 'descend',
    tieBreak: ['id'],
  };
}

interface HistoryRecord extends Omit<RunHistoryRow, 'hasFile' | 'outcome'> {
  parameters: string;
  outcome: string;
  hasFile: number | string;
}

function parsed<T>(json: string, fallback: T): T {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

/** One page of a kind's history, newest first unless asked otherwise. */
export async function listRunHistory(db: Db, kind: RunKind, query: ListQuery): Promise<{ rows: RunHistoryRow[]; total: number }> {
  const page = await listFrom<HistoryRecord>(db, historySource(kind), query);
  return {
    total: page.total,
    rows: page.rows.map((r) => {
      const parameters = parsed<Record<string, unknown>>(r.parameters, {});
      const summary = parsed<RunSummaryItem[]>(r.outcome, []);
      return {
        id: Number(r.id),
        user: r.user,
        sites: r.sites,
        site: r.site,
        files: r.files,
        antenna: typeof parameters.antenna === 'string' ? parameters.antenna : null,
        lteBands: Array.isArray(parameters.lteBands) ? parameters.lteBands.join(', ') : null,
        runDate: r.runDate,
        message: r.message,
        outcome: summary.map((s) => `${s.label} ${s.count}`).join(', '),
        hasFile: Number(r.hasFile) === 1,
      };
    }),
  };
}

/** A recorded run of `kind` as its result shows it, or null (unknown, another kind, another operator's). */
export async function runView(db: Db, kind: RunKind, runId: number): Promise<RunView | null> {
  const run = await db
    .selectFrom('runs')
    .select(['id', 'user_name', 'sites', 'files', 'run_date', 'message', 'summary', 'sheets', 'stored_name'])
    .where('id', '=', runId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  if (!run) return null;
  return {
    runId: run.id,
    user: run.user_name,
    sites: run.sites,
    files: run.files,
    runDate: run.run_date,
    message: run.message,
    summary: parsed<RunSummaryItem[]>(run.summary, []),
    sheets: run.sheets === null ? [] : parsed<RunSheetInfo[]>(run.sheets, []),
    hasFile: run.stored_name !== null,
  };
}

/** A cell of the findings' JSON as SQL: numbers as numbers (so they sort as numbers), the rest as text. */
function cellSql(db: Db, key: string, kind: RunSheetInfo['columns'][number]['kind']) {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    return kind === 'number' ? sql`(f.data::jsonb ->> ${key})::double precision` : sql`(f.data::jsonb ->> ${key})`;
  }
  return sql`json_extract(f.data, ${`$."${key.replace(/"/g, '""')}"`})`;
}

interface FindingRecord {
  rowNo: number | string;
  verdict: string | null;
  [column: string]: unknown;
}

/**
 * One page of a run's findings, one sheet at a time (the first unless `sheet` names another): worst
 * verdict first, then the sheet's own order, unless the query sorts by a column (the verdict column
 * sorts worst-first). Columns are addressed as c0, c1… inside the query, so no column key the run
 * stored ever reaches the SQL text; filters and sort name the sheet's column keys. Null when the run
 * is not one of this operator's runs of `kind`.
 */
export async function listRunFindings(db: Db, kind: RunKind, runId: number, query: RunFindingsQuery): Promise<RunFindingsPage | null> {
  const run = await runView(db, kind, runId);
  if (!run) return null;
  const names = run.sheets.map((s) => s.name);
  const index = query.sheet === undefined ? 0 : names.indexOf(query.sheet);
  if (query.sheet !== undefined && index < 0) throw new ListQueryError(RUN_MESSAGES.unknownSheet(query.sheet, names));
  const sheet = run.sheets[index];
  if (!sheet) return { run, sheet: '', rows: [], total: 0 };

  const alias = new Map(sheet.columns.map((c, i) => [c.key, `c${i}`]));
  const fieldOf = (key: string) => {
    const field = alias.get(key);
    if (field === undefined) throw new ListQueryError(RUN_MESSAGES.unknownColumn(key, sheet.name));
    return field;
  };
  let filters: string | undefined;
  if (query.filters !== undefined && query.filters.trim() !== '') {
    let given: unknown;
    try {
      given = JSON.parse(query.filters);
    } catch {
      throw new ListQueryError('filters must be JSON text of an object { field: text }.');
    }
    if (given === null || typeof given !== 'object' || Array.isArray(given))
      throw new ListQueryError('filters must be JSON text of an object { field: text }.');
    filters = JSON.stringify(Object.fromEntries(Object.entries(given as Record<string, unknown>).map(([key, text]) => [fieldOf(key), text])));
  }
  // The verdict column sorts by rank, so 'ascend' is worst first there too.
  const sort = query.sort === undefined ? undefined : query.sort === sheet.verdictKey ? 'rank' : fieldOf(query.sort);

  const columns: Record<string, ReturnType<typeof sql>> = { rowNo: sql`f.row_no`, rank: sql`f.rank`, verdict: sql`f.verdict` };
  sheet.columns.forEach((c, i) => {
    columns[`c${i}`] = cellSql(db, c.key, c.kind);
  });
  const where = sql<boolean>`f.run_id = ${runId} and f.sheet = ${index} and ${tenantScope('f')}`;
  const keyed: KeyedTable = { table: sql`run_findings f`, key: 'rowNo', columns, where };
  const source: ListSource = {
    from: sql`select ${keyedColumns(columns)} from run_findings f where ${where}`,
    fields: Object.keys(columns),
    dateFields: new Set(sheet.columns.flatMap((c, i) => (c.kind === 'date' ? [`c${i}`] : []))),
    numberFields: new Set(['rowNo', 'rank', ...sheet.columns.flatMap((c, i) => (c.kind === 'number' ? [`c${i}`] : []))]),
    defaultSort: 'rank',
    defaultOrder: 'ascend',
    tieBreak: ['rank', 'rowNo'],
    keyed,
  };
  const listed: ListQuery = { ...(query.page ? { page: query.page } : {}), ...(query.size ? { size: query.size } : {}) };
  if (sort !== undefined) listed.sort = sort;
  if (query.order !== undefined) listed.order = query.order;
  if (filters !== undefined) listed.filters = filters;
  const page = await listFrom<FindingRecord>(db, source, listed);
  const rows: RunFindingRow[] = page.rows.map((r) => ({
    rowNo: Number(r.rowNo),
    verdict: r.verdict,
    values: Object.fromEntries(
      sheet.columns.map((c, i) => {
        const value = r[`c${i}`];
        return [c.key, value === null || value === undefined ? null : c.kind === 'number' ? Number(value) : typeof value === 'number' ? value : String(value)];
      }),
    ),
  }));
  return { run, sheet: sheet.name, rows, total: page.total };
}
