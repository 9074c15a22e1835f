import { Type, type Static } from '@sinclair/typebox';
import { Id, PageNumber } from './common';

/** Specification §3: a notification as the bell, the page and the hub's `NewNotification` carry it. */
export const NotificationIcon = Type.Union([Type.Literal('info'), Type.Literal('warning'), Type.Literal('success'), Type.Literal('error')]);
export type NotificationIcon = Static<typeof NotificationIcon>;

export const UserNotification = Type.Object(
  {
    id: Type.Integer(),
    key: Type.String(),
    title: Type.String(),
    /** ISO-8601 UTC. */
    addedDate: Type.String(),
    icon: NotificationIcon,
    variant: Type.String(),
    readed: Type.Boolean(),
    /**
     * The operator it was raised in (its link opens a record of that operator); null for notifications
     * about the account itself. The console switches to it before opening the link.
     */
    operator: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }, { additionalProperties: false }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type UserNotification = Static<typeof UserNotification>;

/**
 * `Notification/Notifications`: without `page`/`size` the popover's plain list (every unread one and the
 * newest read ones); with either, one page of `{ rows, total }` for the /notifications page.
 */
export const NotificationsQuery = Type.Object(
  {
    unread: Type.Optional(Type.Boolean()),
    page: Type.Optional(PageNumber()),
    size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);
export type NotificationsQuery = Static<typeof NotificationsQuery>;

export const NotificationList = Type.Array(UserNotification);
export type NotificationList = Static<typeof NotificationList>;

export const NotificationPage = Type.Object({ rows: Type.Array(UserNotification), total: Type.Integer() }, { additionalProperties: false });
export type NotificationPage = Static<typeof NotificationPage>;

export const NotificationIdParams = Type.Object({ id: Id }, { additionalProperties: false });
export type NotificationIdParams = Static<typeof NotificationIdParams>;

export const MarkAllAsReadResponse = Type.Object({ updated: Type.Integer() }, { additionalProperties: false });
export type MarkAllAsReadResponse = Static<typeof MarkAllAsReadResponse>;

/** SignalR negotiate, as the official client sends it (`access_token` for browsers, which cannot set headers there). */
export const NegotiateQuery = Type.Object(
  {
    negotiateVersion: Type.Optional(Type.Integer({ minimum: 0 })),
    access_token: Type.Optional(Type.String()),
    // Sent by clients built with `withStatefulReconnect()`; this server does not offer it, which they accept.
    useStatefulReconnect: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type NegotiateQuery = Static<typeof NegotiateQuery>;

export const NegotiateResponse = Type.Object(
  {
    negotiateVersion: Type.Literal(1),
    connectionId: Type.String(),
    connectionToken: Type.String(),
    availableTransports: Type.Array(
      Type.Object(
        {
          transport: Type.Union([Type.Literal('WebSockets'), Type.Literal('ServerSentEvents'), Type.Literal('LongPolling')]),
          transferFormats: Type.Array(Type.Union([Type.Literal('Text'), Type.Literal('Binary')])),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type NegotiateResponse = Static<typeof NegotiateResponse>;

/**
 * The hub's own requests over HTTP (Server-Sent Events, long polls, the POSTs carrying what the client
 * sends, the DELETE ending a long-polling connection): `id` is the connection token negotiate gave;
 * `_` is the official client's cache-buster on polls; `access_token` as for negotiate.
 */
export const HubTransportQuery = Type.Object(
  {
    id: Type.String({ maxLength: 1024 }),
    access_token: Type.Optional(Type.String()),
    _: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { additionalProperties: false },
);
export type HubTransportQuery = Static<typeof HubTransportQuery>;
