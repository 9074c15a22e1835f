import { PostgresAdapter, sql, type Kysely, type Selectable } from 'kysely';
import type { NotificationIcon, UserNotification } from 'contracts';
import { currentOperatorId } from '../db/operator-scope';
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

/**
 * Rows in one statement: two bound values each, far below SQLite's (32,766) and PostgreSQL's (65,535)
 * limits, so a notification to a few thousand users is one write.
 */
const CHUNK = 10_000;

/** Ids are 32-bit integers on PostgreSQL: a bigger number in a query is an error there, not a miss. */
const MAX_ID = 2_147_483_647;

export function isPossibleNotificationId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= MAX_ID;
}

type NotificationRow = Selectable<NotificationsTable> & { operator_name: string | null };

function toNotification(row: NotificationRow): UserNotification {
  return {
    id: Number(row.id),
    key: row.key,
    title: row.title,
    addedDate: row.added_date,
    icon: row.icon,
    variant: row.variant,
    readed: Number(row.readed) === 1,
    // An operator deleted since keeps its id on the row but no longer names anything to switch to.
    operator: row.operator_id === null || row.operator_name === null ? null : { id: Number(row.operator_id), name: row.operator_name },
  };
}

export interface StoredNotification {
  userId: number;
  notification: UserNotification;
}

/** One notify's notifications, ids taken, not yet written. */
export interface PreparedNotifications {
  content: NotificationContent;
  addedDate: string;
  /** The operator of the work that notifies: its records are what the notification's link opens. */
  operator: UserNotification['operator'];
  notifications: StoredNotification[];
}

/**
 * The notifications about to be stored, one per distinct existing user, in the order asked, with their
 * ids already taken: the hub can send them before the write that stores them. PostgreSQL draws the ids
 * from the table's own sequence; SQLite's AUTOINCREMENT keeps its high-water mark in `sqlite_sequence`,
 * so a block is taken by raising that mark (what an insert does itself), in one short write
 * transaction, so no other connection (a worker thread's) can take the same ids.
 */
export async function prepareNotifications(
  db: Db,
  userIds: readonly number[],
  content: NotificationContent,
  addedDate: string,
): Promise<PreparedNotifications> {
  const asked = [...new Set(userIds)].filter(isPossibleNotificationId);
  const operator = await operatorOfWork(db);
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const found = new Map<number, number>();
  for (let i = 0; i < asked.length; i += CHUNK) {
    const chunk = asked.slice(i, i + CHUNK);
    if (postgres) {
      const { rows } = await sql<{ user_id: number; id: number | string }>`select u.id as user_id, nextval(pg_get_serial_sequence('notifications', 'id')) as id
        from users u where u.id in (${sql.join(chunk)})`.execute(db);
      for (const row of rows) found.set(row.user_id, Number(row.id));
    } else {
      const rows = await db.selectFrom('users').select('id').where('id', 'in', chunk).execute();
      for (const row of rows) found.set(row.id, 0);
    }
  }
  const users = asked.filter((id) => found.has(id));
  if (users.length === 0) return { content, addedDate, operator, notifications: [] };
  if (!postgres) {
    const last = await db.transaction().execute(async (trx) => {
      // The mark exists from the table's first insert on; until then it starts from the rows there are.
      await sql`insert into sqlite_sequence (name, seq) select 'notifications', coalesce((select max(id) from notifications), 0)
        where not exists (select 1 from sqlite_sequence where name = 'notifications')`.execute(trx);
      const { rows } = await sql<{ seq: number }>`update sqlite_sequence set seq = seq + ${users.length} where name = 'notifications' returning seq`.execute(
        trx,
      );
      return Number(rows[0]?.seq);
    });
    users.forEach((userId, index) => found.set(userId, last - users.length + 1 + index));
  }
  const notifications = users.map((userId) => ({
    userId,
    notification: {
      id: must(found.get(userId)),
      key: content.key,
      title: content.title,
      addedDate,
      icon: content.icon,
      variant: content.variant,
      readed: false,
      operator,
    },
  }));
  return { content, addedDate, operator, notifications };
}

/** The operator the notifying work runs in (a request's user's current one, a job's own), with its name. */
async function operatorOfWork(db: Db): Promise<UserNotification['operator']> {
  const id = currentOperatorId() ?? null;
  if (id === null) return null;
  const row = await db.selectFrom('operators').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  return row ? { id: row.id, name: row.name } : null;
}

function must(id: number | undefined): number {
  if (id === undefined || !isPossibleNotificationId(id)) throw new RangeError(`no notification id was taken (${String(id)})`);
  return id;
}

/**
 * Writes prepared notifications, one statement per few thousand. A user deleted since they were
 * prepared is skipped (the rows are joined to `users`, so no id can break a foreign key); answers the
 * ones stored, in the order given.
 */
export async function saveNotifications(db: Db, prepared: PreparedNotifications): Promise<StoredNotification[]> {
  const { content, addedDate, operator, notifications } = prepared;
  const operatorId = operator?.id ?? null;
  const saved = new Set<number>();
  for (let i = 0; i < notifications.length; i += CHUNK) {
    const chunk = notifications.slice(i, i + CHUNK);
    // The content is bound once; only the id and the user differ from row to row.
    const values = sql.join(chunk.map(({ userId, notification }) => sql`(cast(${notification.id} as integer), cast(${userId} as integer))`));
    const { rows } = await sql<{ id: number }>`insert into notifications (id, user_id, key, title, added_date, icon, variant, readed, operator_id)
      select v.column1, v.column2, ${content.key}, ${content.title}, ${addedDate}, ${content.icon}, ${content.variant}, 0, cast(${operatorId} as integer)
      from (values ${values}) as v join users u on u.id = v.column2
      returning id`.execute(db);
    for (const row of rows) saved.add(Number(row.id));
  }
  return notifications.filter((n) => saved.has(n.notification.id));
}

function ofUser(db: Db, userId: number, unreadOnly: boolean) {
  let query = db.selectFrom('notifications').where('notifications.user_id', '=', userId);
  if (unreadOnly) query = query.where('notifications.readed', '=', 0);
  return query;
}

/** With the name of the operator each was raised in (a few operators: one index seek per row). */
function withOperator(db: Db, userId: number, unreadOnly: boolean) {
  return ofUser(db, userId, unreadOnly)
    .leftJoin('operators', 'operators.id', 'notifications.operator_id')
    .selectAll('notifications')
    .select('operators.name as operator_name');
}

/** Newest first; the id breaks ties between notifications raised within the same millisecond. */
function newestFirst(a: UserNotification, b: UserNotification): number {
  if (a.addedDate !== b.addedDate) return a.addedDate < b.addedDate ? 1 : -1;
  return b.id - a.id;
}

/** The popover's list, newest first: every unread one (up to a bound) and the newest read ones. */
export async function recentNotifications(db: Db, userId: number, unreadOnly: boolean): Promise<UserNotification[]> {
  const unread = await withOperator(db, userId, true)
    .orderBy('notifications.added_date', 'desc')
    .orderBy('notifications.id', 'desc')
    .limit(POPOVER_UNREAD_LIMIT)
    .execute();
  const read = unreadOnly
    ? []
    : await withOperator(db, userId, false)
        .where('notifications.readed', '=', 1)
        .orderBy('notifications.added_date', 'desc')
        .orderBy('notifications.id', 'desc')
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
  const rows = await withOperator(db, userId, options.unreadOnly)
    .orderBy('notifications.added_date', 'desc')
    .orderBy('notifications.id', 'desc')
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
