import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ErrorResponse, MarkAllAsReadResponse, NotificationIdParams, NotificationList, NotificationPage, NotificationsQuery } from 'contracts';
import { markAllAsRead, markAsRead, notificationPage, recentNotifications } from './store';

export const NOT_FOUND_MESSAGE = 'Notification not found.';

/** The /notifications page's page size when it names only a page (specification §2: tables show 10 rows). */
export const DEFAULT_PAGE_SIZE = 10;

/** Routes declare access 'authenticated', so the access hook has refused anyone without a session. */
function userIdOf(request: FastifyRequest): number {
  if (!request.session) throw Object.assign(new Error('Please sign in to continue.'), { statusCode: 401 });
  return request.session.userId;
}

const tags = ['notifications'];
const security = [{ bearer: [] }];

/** Specification §7 "Notifications", under `/api`. Each caller only ever sees and marks their own. */
export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;

  app.get(
    '/Notification/Notifications',
    {
      schema: {
        summary: "The caller's notifications, newest first: a list, or one page when page or size is given",
        tags,
        security,
        querystring: NotificationsQuery,
        response: { 200: Type.Union([NotificationList, NotificationPage]), 401: ErrorResponse },
      },
      config: { access: 'authenticated' },
    },
    async (request) => {
      const userId = userIdOf(request);
      const { unread = false, page, size } = request.query;
      await app.notifications.storedFor(userId);
      if (page === undefined && size === undefined) return recentNotifications(db, userId, unread);
      return notificationPage(db, userId, { unreadOnly: unread, page: page ?? 1, size: size ?? DEFAULT_PAGE_SIZE });
    },
  );

  app.put(
    '/Notification/MarkAsRead/:id',
    {
      schema: {
        summary: 'Marks one of the caller’s notifications as read',
        tags,
        security,
        params: NotificationIdParams,
        response: { 204: Type.Null(), 401: ErrorResponse, 404: ErrorResponse },
      },
      config: { access: 'authenticated' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      // The notification may have just been sent, its write still under way.
      await app.notifications.storedFor(userId);
      // Someone else's notification is answered exactly like one that does not exist.
      if (!(await markAsRead(db, userId, request.params.id))) return reply.code(404).send({ message: NOT_FOUND_MESSAGE });
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/Notification/MarkAllAsRead',
    {
      schema: {
        summary: 'Marks every notification of the caller as read; answers how many were unread',
        tags,
        security,
        response: { 200: MarkAllAsReadResponse, 401: ErrorResponse },
      },
      config: { access: 'authenticated' },
    },
    async (request) => {
      const userId = userIdOf(request);
      await app.notifications.storedFor(userId);
      return { updated: await markAllAsRead(db, userId) };
    },
  );
};
