import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { MONITORING_MESSAGES, type ReportTable, type SiteReport } from 'contracts';
import { buildSiteReport, sheetNames } from '../domain/monitoring/report';
import { findExport, newExport, recordExport } from '../files';
import { columnWidths, FROZEN_HEADER_VIEWS, layOutSheet } from '../files/sheet-layout';
import { JobRefusal, type JobKind, type TaskContext } from '../jobs/model';
import { escapeHtml } from '../lib/html';
import { fileStamp } from '../tracking/exporter';
import { DATE_FORMAT, safeCell } from '../tracking/workbook';
import { loadSiteData, siteNotFound } from './report';

/**
 * The site report's workbook (docs/engines/monitoring.md#the-site-report): one sheet per table, header row = the column labels, dates
 * as dates, text always as text (a note typed as `=HYPERLINK(…)` stays those characters). Written in a
 * worker thread; the email kind mails the same workbook from the main process (which owns the mailer).
 */

export interface SiteReportParams {
  siteId: string;
  ownerId: number;
}

export interface SiteReportEmailParams extends SiteReportParams {
  email: string;
}

export const REPORT_KIND = 'monitoring.report';
export const REPORT_EMAIL_KIND = 'monitoring.reportEmail';
export const REPORT_EXPORT_KIND = 'monitoring.siteReport';

/** `SiteReport_LX0001_20240305-143000.xlsx`, the site id kept to safe characters. */
export function reportFileName(siteId: string, now = new Date()): string {
  return `SiteReport_${siteId.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60)}_${fileStamp(now)}.xlsx`;
}

function cellOf(value: unknown, kind: string): ReturnType<typeof safeCell> {
  if (kind === 'date' && typeof value === 'string' && value !== '') {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return safeCell(value);
}

export async function writeReportWorkbook(file: string, report: SiteReport): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Cellwise';
  const names = sheetNames(report.tables);
  report.tables.forEach((table: ReportTable, t) => {
    const sheet = workbook.addWorksheet(names[t], { views: FROZEN_HEADER_VIEWS });
    const columns = table.TableStructure;
    sheet.columns = columns.map((c, i) => ({ header: c.label, key: String(i) }));
    layOutSheet(
      sheet,
      columnWidths(
        columns.map((c) => c.label),
        table.TableData.map((data) => columns.map((c) => cellOf(data[c.name], c.options.kind))),
      ),
    );
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    for (const data of table.TableData) {
      const row = sheet.addRow(columns.map((c) => cellOf(data[c.name], c.options.kind)));
      columns.forEach((c, i) => {
        if (c.options.kind === 'date' && row.getCell(i + 1).value instanceof Date) row.getCell(i + 1).numFmt = DATE_FORMAT;
      });
      row.commit();
    }
    sheet.commit();
  });
  await workbook.commit();
}

/** Thread task: the workbook of a site's report, recorded for File/Download. */
export async function siteReportTask(params: SiteReportParams, context: TaskContext): Promise<{ file: string }> {
  context.progress(5, 'Reading the site');
  const data = await loadSiteData(context.db, params.siteId);
  if (!data) throw new JobRefusal(404, { message: siteNotFound(params.siteId) });
  if (data.nodes.length === 0) throw new JobRefusal(599, { message: MONITORING_MESSAGES.noLogsForSite(params.siteId) });
  const report = buildSiteReport(data);
  context.progress(40, 'Writing the workbook');
  const pending = newExport(context.dataDir, REPORT_EXPORT_KIND, reportFileName(params.siteId));
  try {
    await writeReportWorkbook(pending.file, report);
  } catch (error) {
    fs.rmSync(pending.file, { force: true });
    throw error;
  }
  return { file: await recordExport(context.db, params.ownerId, pending) };
}

export function registerReportJobs(app: FastifyInstance): void {
  app.jobs.register<SiteReportParams>({
    kind: REPORT_KIND,
    label: 'Site report',
    idempotent: true,
    run: ({ params, progress, signal }) => app.runTask(REPORT_KIND, params, progress, signal),
    // The caller downloads it at once; a notification would only repeat that.
    notification: () => null,
  } satisfies JobKind<SiteReportParams>);
  app.jobs.register<SiteReportEmailParams>({
    kind: REPORT_EMAIL_KIND,
    label: 'Site report by e-mail',
    // Not repeated after a restart: the mail may already have left.
    idempotent: false,
    run: async ({ params, progress, signal }) => {
      const { file } = (await app.runTask(REPORT_KIND, { siteId: params.siteId, ownerId: params.ownerId }, progress, signal)) as { file: string };
      progress(90, 'Sending the mail');
      const workbook = await findExport(app.services.db, app.services.config.dataDir, file, params.ownerId);
      const content = await fs.promises.readFile(workbook.file);
      await app.mailer.sendMail({
        to: params.email,
        subject: `Cellwise site report ${params.siteId}`,
        text: `The site report of ${params.siteId} is attached (${workbook.fileName}).\n\nCellwise`,
        html: `<p>The site report of <b>${escapeHtml(params.siteId)}</b> is attached (${escapeHtml(workbook.fileName)}).</p><p>Cellwise</p>`,
        attachments: [{ filename: workbook.fileName, content, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }],
      });
      return { message: MONITORING_MESSAGES.reportSent(params.email) };
    },
    notification: () => null,
  } satisfies JobKind<SiteReportEmailParams>);
}
