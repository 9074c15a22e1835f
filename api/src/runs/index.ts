import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { sql, type Kysely } from 'kysely';
import { PREVIEW_ROWS, RUN_HISTORY_FIELDS, type RunHistoryRow, type RunKind, type RunPreview, type RunResponse, type RunSummaryItem } from '../contracts/runs';
import { listFrom, type ListQuery, type ListSource } from '../db/list';
import type { Database } from '../db/schema';
import { scopedTo } from '../db/operator-scope';
import { sheetNames } from '../domain/monitoring/report';
import { FileServiceError, newExport, recordExport } from '../files';
import { DATE_FORMAT, safeCell } from '../tracking/workbook';

/**
 * The run history every planning, validation and optimisation page shares (DESIGN §7.4): a run's
 * engine gives sheets; this module writes them as one workbook, keeps it under files/runs/ (not an
 * expiring export), records the run with its verdict summary and first rows, lists the history and
 * hands the workbook out again as a fresh export for whoever downloads it later.
 */

type Db = Kysely<Database>;

export const RUN_MESSAGES = {
  notFound: 'Run not found.',
  noWorkbook: 'This run has no workbook.',
} as const;

/** A value a sheet cell may hold. */
export type RunCell = string | number | Date | null;

export interface RunSheet {
  name: string;
  columns: ReadonlyArray<{ key: string; label: string }>;
  rows: ReadonlyArray<Record<string, RunCell>>;
}

export function runsDir(dataDir: string): string {
  return path.join(dataDir, 'files', 'runs');
}

/** One workbook, one sheet per RunSheet (unique Excel-safe names), headers bold, text never a formula. */
export async function writeRunWorkbook(file: string, sheets: readonly RunSheet[]): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false });
  const names = sheetNames(sheets.map((s) => ({ TableName: s.name })));
  sheets.forEach((sheet, index) => {
    const ws = workbook.addWorksheet(names[index]);
    ws.columns = sheet.columns.map((c) => ({ header: c.label, key: c.key, width: Math.max(12, Math.min(40, c.label.length + 4)) }));
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
  preview: RunPreview;
  /** The workbook to keep, written by the caller to a temporary file (moved, not copied), with its download name. */
  workbook: { file: string; fileName: string } | null;
}

async function userNameOf(db: Db, userId: number): Promise<string> {
  const user = await db.selectFrom('users').select(['firstname', 'lastname']).where('id', '=', userId).executeTakeFirst();
  return user ? `${user.firstname} ${user.lastname}` : `User ${userId}`;
}

/**
 * Records a finished run and answers what its call answers (DESIGN §3): with a workbook, a fresh
 * export of it for the caller (`file`); the message when the run has one.
 */
export async function recordRun(db: Db, dataDir: string, run: RunRecord): Promise<RunResponse> {
  let storedName: string | null = null;
  if (run.workbook) {
    const dir = runsDir(dataDir);
    fs.mkdirSync(dir, { recursive: true });
    storedName = `${randomUUID()}.xlsx`;
    fs.renameSync(run.workbook.file, path.join(dir, storedName));
  }
  try {
    const inserted = await db
      .insertInto('runs')
      .values({
        kind: run.kind,
        user_id: run.userId,
        user_name: await userNameOf(db, run.userId),
        sites: run.sites.join(','),
        files: run.files.join(', '),
        parameters: JSON.stringify(run.parameters),
        run_date: new Date().toISOString(),
        job_id: run.jobId,
        message: run.message,
        summary: JSON.stringify(run.summary),
        preview: JSON.stringify(run.preview),
        stored_name: storedName,
        file_name: run.workbook?.fileName ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const answer: RunResponse = { runId: inserted.id, summary: run.summary, preview: run.preview };
    if (run.message) answer.message = run.message;
    if (storedName) answer.file = await exportRun(db, dataDir, run.kind, inserted.id, run.userId);
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
