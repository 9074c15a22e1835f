import type { FastifyInstance } from 'fastify';
import type { TrackerSyncResponse } from 'contracts';
import type { DataSetKind } from '../domain/tracking';
import { trackerSyncMessage } from '../domain/tracking/sync-changes';
import { newExport, recordExport, resolveUpload } from '../files';
import { JobRefusal, type JobKind, type TaskContext } from '../jobs/model';
import { IMPORTS, TABLES_BY_EXPORT, type TableSpec } from './datasets';
import { exportTable, fileStamp } from './exporter';
import { importDataSet, TrackingImportError, writeErrorWorkbook } from './importer';
import { syncTracker } from './sync';
import { WorkbookReadError } from './workbook';

/**
 * Tracking's long work as jobs (docs/architecture.md#how-a-job-flows): imports, the sync and exports run in worker threads with
 * their own connection, so the console keeps answering; the calls of §7 still answer the result.
 */

export interface ImportParams {
  dataSet: DataSetKind;
  uploadId: string;
  /** The file's name, for the notification. */
  name: string;
  ownerId: number;
}

const count = (n: number) => n.toLocaleString('en-US');

/** Thread task: one import, all or nothing; a refusal carries the row problems and the error workbook. */
export async function importTask(params: ImportParams, context: TaskContext): Promise<{ message: string; rows: number }> {
  const spec = IMPORTS[params.dataSet];
  const upload = await resolveUpload(context.db, context.dataDir, params.uploadId, params.ownerId, 'xlsx');
  try {
    const result = await importDataSet(context.db, params.dataSet, upload.file, new Date(), (read, total, share) =>
      context.progress(
        total > 0 ? (read / total) * 99 : share * 99,
        total > 0 ? `Reading rows ${count(read)} / ${count(total)}` : `Reading rows ${count(read)}`,
      ),
    );
    return { message: spec.successMessage, rows: result.rows };
  } catch (error) {
    if (error instanceof WorkbookReadError) throw new JobRefusal(400, { message: error.message, errors: [] });
    if (!(error instanceof TrackingImportError)) throw error;
    let errorFile: string | undefined;
    if (error.rowProblems) {
      context.progress(99, 'Writing the error workbook');
      // Best effort: the error list is the answer; the workbook is a convenience on top.
      try {
        const pending = newExport(context.dataDir, `${spec.table.exportKind}.errors`, `${spec.table.filePrefix}_errors_${fileStamp(new Date())}.xlsx`);
        await writeErrorWorkbook(upload.file, pending.file, error);
        errorFile = await recordExport(context.db, params.ownerId, pending);
      } catch {
        errorFile = undefined;
      }
    }
    throw new JobRefusal(400, { message: error.message, errors: error.errors, ...(errorFile ? { errorFile } : {}) });
  }
}

export async function syncTask(_params: Record<string, never>, context: TaskContext): Promise<TrackerSyncResponse> {
  context.progress(10, 'Rebuilding the tracker');
  const result = await syncTracker(context.db);
  return { message: trackerSyncMessage(result.sites, result.changes), changes: result.changes };
}

export interface ExportParams {
  /** TableSpec.exportKind of the table to export. */
  table: string;
  ownerId: number;
}

export async function exportTask(params: ExportParams, context: TaskContext): Promise<{ file: string }> {
  const spec: TableSpec | undefined = TABLES_BY_EXPORT[params.table];
  if (!spec) throw new JobRefusal(400, { message: `Unknown table ${params.table}.` });
  context.progress(1, `Writing ${spec.sheetName}`);
  // Rows are most of the work; the last percent is the workbook's closing.
  const file = await exportTable(context.db, context.dataDir, params.ownerId, spec, new Date(), (written, total) =>
    context.progress(total > 0 ? 1 + (written / total) * 98 : 99, `Writing rows ${count(written)} / ${count(total)}`),
  );
  return { file };
}

/** The kinds, registered with the tracking routes; each runs its task in a worker thread. */
export function registerTrackingJobs(app: FastifyInstance): void {
  app.jobs.register<ImportParams>({
    kind: 'tracking.import',
    label: 'Tracking import',
    // Not repeated after a restart: the owner decides whether to import that file again.
    idempotent: false,
    run: ({ params, progress, signal }) => app.runTask('tracking.import', params, progress, signal),
    notificationKey: (params) => `tracking-import-${params.dataSet}`,
    notification: ({ ok, message, body }, params) => {
      const spec = IMPORTS[params.dataSet];
      const rows = (body as { rows?: number } | null)?.rows ?? 0;
      return ok ? `${spec.successMessage} ${rows} rows from ${params.name}.` : `${spec.label} not imported: ${message}`;
    },
  } satisfies JobKind<ImportParams>);
  app.jobs.register<Record<string, never>>({
    kind: 'tracking.sync',
    label: 'Tracker sync',
    idempotent: true,
    run: ({ params, progress, signal }) => app.runTask('tracking.sync', params, progress, signal),
    notificationKey: () => 'tracking-sync',
    notification: ({ ok, message }) => (ok ? message : `Tracker not synced: ${message}`),
  });
  app.jobs.register<ExportParams>({
    kind: 'tracking.export',
    label: 'Tracking export',
    idempotent: true,
    run: ({ params, progress, signal }) => app.runTask('tracking.export', params, progress, signal),
    // The caller downloads it at once; a notification would only repeat that.
    notification: () => null,
  });
}
