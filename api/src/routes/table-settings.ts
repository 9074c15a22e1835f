import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isoTime } from '../auth/clock';
import {
  DeleteFilterRequest,
  ErrorResponse,
  SaveColumnsRequest,
  SaveFilterRequest,
  TABLE_SETTINGS_MESSAGES,
  TableSettings,
  TableSettingsQuery,
} from 'contracts';
import { deleteFilter, loadTableSettings, saveColumns, saveFilter, TableSettingsRefusal } from '../table-settings';
import { fail, userIdOf } from './support';

/**
 * Each user's column settings and saved filters of the shared tables (contracts/table-settings.ts).
 * Any session; the user is always the caller, so nobody reads or changes another user's settings.
 */
export const tableSettingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['table settings'];
  const { db } = app.services;
  const security = [{ bearer: [] }];
  const answers = { 200: TableSettings, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };

  app.get(
    '/TableSettings/GetSettings',
    {
      schema: {
        summary: 'Your columns (order, hidden, widths) and saved filters of one table; empty lists when you saved none',
        tags,
        security,
        querystring: TableSettingsQuery,
        response: answers,
      },
      config: { access: 'authenticated' },
    },
    async (request, reply) => {
      try {
        return await loadTableSettings(db, userIdOf(request), request.query.tableKey);
      } catch (error) {
        if (error instanceof TableSettingsRefusal) return fail(reply, 400, error.message);
        throw error;
      }
    },
  );

  app.put(
    '/TableSettings/SaveColumns',
    {
      schema: {
        summary: "Replace your columns of one table (in order; each key once); an empty list goes back to the table's own columns",
        tags,
        security,
        body: SaveColumnsRequest,
        response: answers,
      },
      config: { access: 'authenticated' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      try {
        await saveColumns(db, userId, request.body.tableKey, request.body.columns, isoTime(app.auth.clock()));
      } catch (error) {
        if (error instanceof TableSettingsRefusal) return fail(reply, 400, error.message);
        throw error;
      }
      return loadTableSettings(db, userId, request.body.tableKey);
    },
  );

  app.put(
    '/TableSettings/SaveFilter',
    {
      schema: { summary: 'Save the filters of one table under a name (a saved name is replaced)', tags, security, body: SaveFilterRequest, response: answers },
      config: { access: 'authenticated' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      const { tableKey, name, filters } = request.body;
      try {
        await saveFilter(db, userId, tableKey, name, filters, isoTime(app.auth.clock()));
      } catch (error) {
        if (error instanceof TableSettingsRefusal) return fail(reply, 400, error.message);
        throw error;
      }
      return loadTableSettings(db, userId, tableKey);
    },
  );

  app.delete(
    '/TableSettings/DeleteFilter',
    {
      schema: {
        summary: 'Delete one of your saved filters of a table',
        tags,
        security,
        body: DeleteFilterRequest,
        response: { ...answers, 404: ErrorResponse },
      },
      config: { access: 'authenticated' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      try {
        if (!(await deleteFilter(db, userId, request.body.tableKey, request.body.name))) return fail(reply, 404, TABLE_SETTINGS_MESSAGES.noSuchFilter);
      } catch (error) {
        if (error instanceof TableSettingsRefusal) return fail(reply, 400, error.message);
        throw error;
      }
      return loadTableSettings(db, userId, request.body.tableKey);
    },
  );
};
