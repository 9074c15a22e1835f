import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorResponse, MessageResponse } from '../contracts/common';
import { FileResponse } from '../contracts/files';
import { LastImportDate } from '../contracts/network';
import {
  CommissioningPlanPage,
  CommissioningPlanQuery,
  ImportErrorResponse,
  ImportQuery,
  ImportResponse,
  TrackerPage,
  TrackerQuery,
  WorkOrderDeltaPage,
  WorkOrderDeltaQuery,
  type CommissioningPlanRow,
  type TrackerRow,
  type WorkOrderDeltaRow,
} from '../contracts/tracking';
import type { DataSetKind } from '../domain/tracking';
import { FileServiceError, newExport, recordExport, resolveUpload } from '../files';
import {
  COMMISSIONING_PLAN_TABLE,
  DELTA_TABLE,
  exportTable,
  IMPORTS,
  importDataSet,
  listRows,
  readStamp,
  STAMPS,
  syncTracker,
  TRACKER_TABLE,
  TrackingImportError,
  WORK_ORDER_STATUS_TABLE,
  WorkbookReadError,
  writeErrorWorkbook,
  type TableSpec,
} from '../tracking';
import { fileStamp } from '../tracking/exporter';
import { userIdOf } from './support';

export const syncedMessage = (sites: number) => `Tracker synced: ${sites} ${sites === 1 ? 'site' : 'sites'}.`;

function notify(request: FastifyRequest, userId: number, key: string, title: string, ok: boolean): void {
  // The answer already tells the caller; the notification reaches them if they navigated away meanwhile.
  request.server.notifications
    .notify([userId], { key, title, icon: ok ? 'success' : 'error', variant: ok ? 'success' : 'error' })
    .catch((error: unknown) => request.log.error({ err: error, userId }, 'could not notify a tracking event'));
}

export const trackingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['tracking'];
  const { db } = app.services;
  const dataDir = app.services.config.dataDir;
  const security = [{ bearer: [] }];
  const denied = { 401: ErrorResponse, 403: ErrorResponse };

  const listHelp = '; page (1-based), size (≤ 100), sort (a field), order (ascend | descend), filters (JSON { field: text }, contains, any case)';
  const listResponse = { 400: ErrorResponse, ...denied };
  app.get(
    '/Tracker/GetCommissioningPlan',
    {
      schema: {
        summary: `Commissioning plan rows${listHelp}`,
        tags,
        security,
        querystring: CommissioningPlanQuery,
        response: { 200: CommissioningPlanPage, ...listResponse },
      },
      config: { access: 'canTrack' },
    },
    async (request) => listRows<CommissioningPlanRow>(db, COMMISSIONING_PLAN_TABLE, request.query),
  );
  app.get(
    '/Tracker/GetTracker',
    {
      schema: { summary: `Tracker rows${listHelp}`, tags, security, querystring: TrackerQuery, response: { 200: TrackerPage, ...listResponse } },
      config: { access: 'canTrack' },
    },
    async (request) => listRows<TrackerRow>(db, TRACKER_TABLE, request.query),
  );
  app.get(
    '/Tracker/GetWorkOrderStatusDelta',
    {
      schema: {
        summary: `Work order delta rows${listHelp}`,
        tags,
        security,
        querystring: WorkOrderDeltaQuery,
        response: { 200: WorkOrderDeltaPage, ...listResponse },
      },
      config: { access: 'canTrack' },
    },
    async (request) => listRows<WorkOrderDeltaRow>(db, DELTA_TABLE, request.query),
  );

  const stamp = (url: string, summary: string, key: string) =>
    app.get(
      url,
      { schema: { summary, tags, security, response: { 200: LastImportDate, ...denied } }, config: { access: 'canTrack' } },
      async (_request, reply: FastifyReply) =>
        // A bare string would go out as text/plain; the contract is a JSON string.
        reply.type('application/json; charset=utf-8').send(JSON.stringify((await readStamp(db, key)) ?? '')),
    );
  stamp('/Tracker/GetCommissioningPlanLastImport', 'Date of the last commissioning plan import (ISO-8601), or an empty string', STAMPS.commissioningPlan);
  stamp('/Tracker/GetTrackerLastUpdate', 'Date the tracker was last synced or imported (ISO-8601), or an empty string', STAMPS.tracker);
  stamp('/Tracker/GetWorkOrderStatusLastImport', 'Date of the last work order status import (ISO-8601), or an empty string', STAMPS.workOrderStatus);

  const importRoute = (url: string, kind: DataSetKind) => {
    const spec = IMPORTS[kind];
    app.get(
      url,
      {
        schema: {
          summary: `Replace the ${spec.label.toLowerCase()} with an uploaded workbook (filePath = upload id from File/Upload), all or nothing`,
          tags,
          security,
          querystring: ImportQuery,
          response: { 200: ImportResponse, 400: ImportErrorResponse, 404: ErrorResponse, ...denied },
        },
        config: { access: 'canTrack' },
      },
      async (request, reply) => {
        const userId = userIdOf(request);
        let upload: Awaited<ReturnType<typeof resolveUpload>>;
        try {
          upload = await resolveUpload(db, dataDir, request.query.filePath, userId, 'xlsx');
        } catch (error) {
          if (error instanceof FileServiceError && error.statusCode === 404) return reply.code(404).send({ message: error.message });
          if (error instanceof FileServiceError) return reply.code(400).send({ message: error.message, errors: [] });
          throw error;
        }
        try {
          const result = await importDataSet(db, kind, upload.file);
          request.log.info({ kind, rows: result.rows, upload: upload.id }, 'tracking data set imported');
          notify(request, userId, `tracking-import-${kind}`, `${spec.successMessage} ${result.rows} rows from ${upload.name}.`, true);
          return { message: spec.successMessage, rows: result.rows };
        } catch (error) {
          if (error instanceof WorkbookReadError) {
            notify(request, userId, `tracking-import-${kind}`, `${spec.label} not imported: ${error.message}`, false);
            return reply.code(400).send({ message: error.message, errors: [] });
          }
          if (!(error instanceof TrackingImportError)) throw error;
          let errorFile: string | undefined;
          if (error.rowProblems) {
            // Best effort: the error list is the answer; the workbook is a convenience on top.
            try {
              const pending = newExport(dataDir, `${spec.table.exportKind}.errors`, `${spec.table.filePrefix}_errors_${fileStamp(new Date())}.xlsx`);
              await writeErrorWorkbook(upload.file, pending.file, error);
              errorFile = await recordExport(db, userId, pending);
            } catch (writeError) {
              request.log.warn({ err: writeError }, 'could not write an import error workbook');
            }
          }
          notify(request, userId, `tracking-import-${kind}`, `${spec.label} not imported: ${error.message}`, false);
          return reply.code(400).send({ message: error.message, errors: error.errors, ...(errorFile ? { errorFile } : {}) });
        }
      },
    );
  };
  importRoute('/Tracker/CommissioningPlanUpload', 'commissioningPlan');
  importRoute('/Tracker/ImportTracker', 'tracker');
  importRoute('/Tracker/WorkOrderStatusUpload', 'workOrderStatus');

  app.get(
    '/Tracker/TrackerUpload',
    {
      schema: {
        summary: 'Sync: rebuild the tracker from the commissioning plan and the work order status, then the delta',
        tags,
        security,
        response: { 200: MessageResponse, ...denied },
      },
      config: { access: 'canTrack' },
    },
    async (request) => {
      const result = await syncTracker(db);
      const message = syncedMessage(result.sites);
      notify(request, userIdOf(request), 'tracking-sync', message, true);
      return { message };
    },
  );

  const exportRoute = (url: string, summary: string, spec: TableSpec) =>
    app.get(url, { schema: { summary, tags, security, response: { 200: FileResponse, ...denied } }, config: { access: 'canTrack' } }, async (request) => ({
      file: await exportTable(db, dataDir, userIdOf(request), spec),
    }));
  exportRoute(
    '/Tracker/GetCommissioningPlanExcel',
    'Export the commissioning plan (re-importable workbook); download with File/Download',
    COMMISSIONING_PLAN_TABLE,
  );
  exportRoute('/Tracker/DownloadTracker', 'Export the tracker (re-importable workbook); download with File/Download', TRACKER_TABLE);
  exportRoute(
    '/Tracker/GetWorkOrderStatusExcel',
    'Export the work order status (the WOW import columns); download with File/Download',
    WORK_ORDER_STATUS_TABLE,
  );
  exportRoute('/Tracker/GetWorkOrderStatusDeltaExcel', 'Export the work order delta; download with File/Download', DELTA_TABLE);
};
