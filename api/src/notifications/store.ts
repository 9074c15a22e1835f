import { sql, type Kysely, type Selectable } from 'kysely';
import type { NotificationIcon, UserNotification } from '../contracts/notifications';
import type { Database, NotificationsTable } from '../db/schema';

type Db = Kysely<Database>;

/** What a feature says when it notifies; the recipient, id, date and read flag are the store's. */
export interface NotificationContent {
  /** Stable name of the kind of event ('password-changed', 'import-finished', …), for the client. */
  key: string;
  title: string;
  icon: NotificationIcon;
  variant: string;
}

/** The popover shows every unread notification (the badge counts them) up to this many… */
export const POPOVER_UNREAD_LIMIT = 200;
/** …and this many of the newest read ones, so a long history never travels with every refresh. */
export const POPOVER_READ_LIMIT = 50;

/** Ids in one statement: far below SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 500;

/** Ids are 32-bit integers on PostgreSQL: a bigger number in a query is an error there, not a miss. */
const MAX_ID = 2_147_483_647;

export function isPossibleNotificationId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= MAX_ID;
}

function toNotification(row: Selectable<NotificationsTable>): UserNotification {
  return {
    id: Number(row.id),
    key: row.key,
    title: row.title,
    addedDate: row.added_date,
    icon: row.icon,
    variant: row.variant,
    readed: Number(row.readed) === 1,
  };
}

export interface StoredNotification {
  userId: number;
  notification: UserNotification;
}

/**
 * One row per user. Users that do not exist (deleted meanwhile) are skipped rather than failing the
 * others: the rows are selected from `users`, so no id can break a foreign key.
 */
export async function insertNotifications(db: Db, userIds: readonly number[], content: NotificationContent, addedDate: string): Promise<StoredNotification[]> {
  const ids = [...new Set(userIds)].filter(isPossibleNotificationId);
  const stored: StoredNotification[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const rows = await db
      .insertInto('notifications')
      .columns(['user_id', 'key', 'title', 'added_date', 'icon', 'variant', 'readed'])
      .expression(
        db
          .selectFrom('users')
          .select([
            'users.id',
            sql<string>`${content.key}`.as('key'),
            sql<string>`${content.title}`.as('title'),
            sql<string>`${addedDate}`.as('added_date'),
            sql<string>`${content.icon}`.as('icon'),
            sql<string>`${content.variant}`.as('variant'),
            sql<number>`0`.as('readed'),
          ])
          .where('users.id', 'in', chunk),
      )
      .returningAll()
      .execute();
    for (const row of rows) stored.push({ userId: row.user_id, notification: toNotification(row) });
  }
  // Statement order is not promised by RETURNING; callers and tests get the order they asked for.
  const rank = new Map(ids.map((id, index) => [id, index]));
  return stored.sort((a, b) => (rank.get(a.userId) ?? 0) - (rank.get(b.userId) ?? 0));
}

function ofUser(db: Db, userId: number, unreadOnly: boolean) {
  let query = db.selectFrom('notifications').where('user_id', '=', userId);
  if (unreadOnly) query = query.where('readed', '=', 0);
  return query;
}

/** Newest first; the id breaks ties between notifications raised within the same millisecond. */
function newestFirst(a: UserNotification, b: UserNotification): number {
  if (a.addedDate !== b.addedDate) return a.addedDate < b.addedDate ? 1 : -1;
  return b.id - a.id;
}

/** The popover's list, newest first: every unread one (up to a bound) and the newest read ones. */
export async function recentNotifications(db: Db, userId: number, unreadOnly: boolean): Promise<UserNotification[]> {
  const unread = await ofUser(db, userId, true).selectAll().orderBy('added_date', 'desc').orderBy('id', 'desc').limit(POPOVER_UNREAD_LIMIT).execute();
  const read = unreadOnly
    ? []
    : await ofUser(db, userId, false)
        .where('readed', '=', 1)
        .selectAll()
        .orderBy('added_date', 'desc')
        .orderBy('id', 'desc')
        .limit(POPOVER_READ_LIMIT)
        .execute();
  return [...unread, ...read].map(toNotification).sort(newestFirst);
}

/** One page (1-based) for the /notifications page, newest first, and how many there are in all. */
export async function notificationPage(
  db: Db,
  userId: number,
  options: { unreadOnly: boolean; page: number; size: number },
): Promise<{ rows: UserNotification[]; total: number }> {
  const rows = await ofUser(db, userId, options.unreadOnly)
    .selectAll()
    .orderBy('added_date', 'desc')
    .orderBy('id', 'desc')
    .limit(options.size)
    .offset((options.page - 1) * options.size)
    .execute();
  const { total } = await ofUser(db, userId, options.unreadOnly)
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  return { rows: rows.map(toNotification), total: Number(total) };
}

/** False when the notification does not exist or is someone else's (the caller cannot tell which). */
export async function markAsRead(db: Db, userId: number, id: number): Promise<boolean> {
  if (!isPossibleNotificationId(id)) return false;
  // Matching an already-read row still counts, so reading twice is not "not found".
  const result = await db.updateTable('notifications').set({ readed: 1 }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Answers how many were unread. */
export async function markAllAsRead(db: Db, userId: number): Promise<number> {
  const result = await db.updateTable('notifications').set({ readed: 1 }).where('user_id', '=', userId).where('readed', '=', 0).executeTakeFirst();
  return Number(result.numUpdatedRows);
}
