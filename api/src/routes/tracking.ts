import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import {
  CommissioningPlanPage,
  CommissioningPlanQuery,
  type CommissioningPlanRow,
  ErrorResponse,
  FileResponse,
  ImportErrorResponse,
  ImportQuery,
  ImportResponse,
  LastImportDate,
  TrackerPage,
  TrackerQuery,
  type TrackerRow,
  TrackerSyncResponse,
  WorkOrderDeltaPage,
  WorkOrderDeltaQuery,
  type WorkOrderDeltaRow,
} from 'contracts';
import type { DataSetKind } from '../domain/tracking';
import { FileServiceError, resolveUpload } from '../files';
import {
  COMMISSIONING_PLAN_TABLE,
  DELTA_TABLE,
  IMPORTS,
  listRows,
  readStamp,
  STAMPS,
  TRACKER_TABLE,
  WORK_ORDER_STATUS_TABLE,
  type TableSpec,
} from '../tracking';
import { registerTrackingJobs, type ExportParams, type ImportParams } from '../tracking/jobs';
import { answerOf, userIdOf } from './support';

export const trackingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  registerTrackingJobs(app);
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
          // Checked here, so a wrong id is answered at once and records no job.
          upload = await resolveUpload(db, dataDir, request.query.filePath, userId, 'xlsx');
        } catch (error) {
          if (error instanceof FileServiceError && error.statusCode === 404) return reply.code(404).send({ message: error.message });
          if (error instanceof FileServiceError) return reply.code(400).send({ message: error.message, errors: [] });
          throw error;
        }
        const job = await app.jobs.run<ImportParams>('tracking.import', userId, { dataSet: kind, uploadId: upload.id, name: upload.name, ownerId: userId });
        request.log.info({ kind, job: job.id, state: job.state, upload: upload.id }, 'tracking import finished');
        return answerOf(reply, job);
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
        response: { 200: TrackerSyncResponse, ...denied },
      },
      config: { access: 'canTrack' },
    },
    async (request, reply) => answerOf(reply, await app.jobs.run('tracking.sync', userIdOf(request), {})),
  );

  const exportRoute = (url: string, summary: string, spec: TableSpec) =>
    app.get(
      url,
      { schema: { summary, tags, security, response: { 200: FileResponse, ...denied } }, config: { access: 'canTrack' } },
      async (request, reply) => {
        const userId = userIdOf(request);
        return answerOf(reply, await app.jobs.run<ExportParams>('tracking.export', userId, { table: spec.exportKind, ownerId: userId }));
      },
    );
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
