import { sql, type Kysely } from 'kysely';
import type { RolloutStats } from 'contracts';
import type { Database } from '../db/schema';
import { isClosed } from '../domain/tracking';

/**
 * The native rollout charts' numbers (`Dashboard/GetRollout`), from the data the tracking and monitoring
 * pages show: sites planned per ISO week (commissioning plan, by commDate) against sites done (tracker,
 * by deliveredDate), the tracker's current statuses, the work orders still open per type, and the active
 * alarms per raise week and severity. Weeks are ISO-8601 weeks in UTC; the window is the last `weeks`
 * weeks ending with the current one, every week present even when nothing happened in it.
 *
 * The database groups (a few rows per day, status or type come back, whatever the table sizes); the
 * weeks, the zero-filling and the closed-or-not reading of work orders are the pure functions below.
 */

type Db = Kysely<Database>;

const DAY_MS = 86_400_000;

/** Severities in the order the charts stack them (docs/engines/monitoring.md#dashboards); others found in the data follow, by name. */
export const ALARM_SEVERITIES = ['Critical', 'Major', 'Minor', 'Warning'] as const;
export const NO_STATUS = 'No status';
export const NO_TYPE = 'No type';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Midnight UTC of the Monday of the ISO week holding `ms`. */
function mondayOf(ms: number): number {
  const midnight = Math.floor(ms / DAY_MS) * DAY_MS;
  const weekday = new Date(midnight).getUTCDay() || 7;
  return midnight - (weekday - 1) * DAY_MS;
}

/** The ISO week label (`2026-W47`) of a point in time, in UTC; the year is the ISO week-year (the year of the week's Thursday). */
export function isoWeekLabel(ms: number): string {
  const thursday = new Date(mondayOf(ms) + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY_MS / 7) + 1;
  return `${year}-W${pad(week)}`;
}

/** The ISO week of a stored date (ISO-8601 text, or its first ten characters), or null when it is no date. */
export function isoWeekOfText(text: string | null): string | null {
  if (text === null) return null;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  return Number.isNaN(ms) ? null : isoWeekLabel(ms);
}

export interface WeekWindow {
  /** Oldest first, ending with the current week. */
  weeks: string[];
  /** First day of the window (a Monday), `YYYY-MM-DD`: stored ISO text at or after it is inside. */
  from: string;
  /** The Monday after the current week, `YYYY-MM-DD`: stored ISO text before it is inside. */
  until: string;
}

export function weekWindow(nowMs: number, count: number): WeekWindow {
  const thisMonday = mondayOf(nowMs);
  const first = thisMonday - (count - 1) * 7 * DAY_MS;
  const weeks = Array.from({ length: count }, (_, i) => isoWeekLabel(first + i * 7 * DAY_MS));
  return { weeks, from: dayOf(first), until: dayOf(thisMonday + 7 * DAY_MS) };
}

/** What the database answers, grouped; see loadRollout. */
export interface RolloutInputs {
  /** Plan rows as (site, day of commDate), each pair once. */
  planned: ReadonlyArray<{ siteId: string; day: string }>;
  /** Tracker rows as (site, day of deliveredDate), each pair once. */
  done: ReadonlyArray<{ siteId: string; day: string }>;
  trackerStatus: ReadonlyArray<{ status: string | null; count: number }>;
  /** Work orders grouped by type, status and whether a close date is set. */
  workOrders: ReadonlyArray<{ type: string | null; status: string | null; hasCloseDate: boolean; count: number }>;
  /** Alarms grouped by day raised and severity. */
  alarms: ReadonlyArray<{ day: string; severity: string; count: number }>;
}

/** Sites per week: a site counts once in a week, however many rows (technologies) it has there. */
function sitesPerWeek(rows: ReadonlyArray<{ siteId: string; day: string }>, inWindow: ReadonlySet<string>): Map<string, number> {
  const seen = new Set<string>();
  const counts = new Map<string, number>();
  for (const { siteId, day } of rows) {
    const week = isoWeekOfText(day);
    if (week === null || !inWindow.has(week)) continue;
    const key = `${week}\u0000${siteId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    counts.set(week, (counts.get(week) ?? 0) + 1);
  }
  return counts;
}

const byCountThenName =
  <T extends { count: number }>(name: (item: T) => string) =>
  (a: T, b: T) =>
    b.count - a.count || name(a).localeCompare(name(b));

export function buildRollout(window: WeekWindow, inputs: RolloutInputs): RolloutStats {
  const inWindow = new Set(window.weeks);
  const planned = sitesPerWeek(inputs.planned, inWindow);
  const done = sitesPerWeek(inputs.done, inWindow);

  const statuses = new Map<string, number>();
  for (const { status, count } of inputs.trackerStatus) {
    const label = status === null || status.trim() === '' ? NO_STATUS : status;
    statuses.set(label, (statuses.get(label) ?? 0) + count);
  }

  const open = new Map<string, number>();
  for (const { type, status, hasCloseDate, count } of inputs.workOrders) {
    const label = type === null || type.trim() === '' ? NO_TYPE : type;
    const closed = isClosed({ wowStatus: status ?? '', wowCloseDate: hasCloseDate ? 'set' : null });
    open.set(label, (open.get(label) ?? 0) + (closed ? 0 : count));
  }

  const alarms = new Map<string, number>();
  const extraSeverities = new Set<string>();
  for (const { day, severity, count } of inputs.alarms) {
    const week = isoWeekOfText(day);
    if (week === null || !inWindow.has(week)) continue;
    if (!(ALARM_SEVERITIES as readonly string[]).includes(severity)) extraSeverities.add(severity);
    const key = `${week}\u0000${severity}`;
    alarms.set(key, (alarms.get(key) ?? 0) + count);
  }
  const severities = [...ALARM_SEVERITIES, ...[...extraSeverities].sort()];

  return {
    weeks: window.weeks,
    commissionedPerWeek: window.weeks.map((week) => ({ week, planned: planned.get(week) ?? 0, done: done.get(week) ?? 0 })),
    trackerStatus: [...statuses].map(([status, count]) => ({ status, count })).sort(byCountThenName((s) => s.status)),
    openWorkOrdersByType: [...open].map(([type, count]) => ({ type, count })).sort(byCountThenName((t) => t.type)),
    alarmsBySeverityPerWeek: window.weeks.flatMap((week) =>
      severities.map((severity) => ({ week, severity, count: alarms.get(`${week}\u0000${severity}`) ?? 0 })),
    ),
  };
}

/** Five grouped queries, whatever the table sizes; see buildRollout for the rest. */
export async function loadRollout(db: Db, nowMs: number, weeks: number): Promise<RolloutStats> {
  const window = weekWindow(nowMs, weeks);
  const day = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`;
  const [planned, done, trackerStatus, workOrders, alarms] = await Promise.all([
    db
      .selectFrom('tracking_commissioning_plan')
      .select(['local_id as siteId', day('comm_date').as('day')])
      .distinct()
      .where('comm_date', '>=', window.from)
      .where('comm_date', '<', window.until)
      .execute(),
    db
      .selectFrom('tracking_tracker')
      .select(['local_id as siteId', day('delivered_date').as('day')])
      .distinct()
      .where('delivered_date', '>=', window.from)
      .where('delivered_date', '<', window.until)
      .execute(),
    db
      .selectFrom('tracking_tracker')
      .select(['current_status as status', (eb) => eb.fn.countAll<number | string>().as('count')])
      .groupBy('current_status')
      .execute(),
    db
      .selectFrom('tracking_work_orders')
      .select([
        'wo_type as type',
        'wow_status as status',
        sql<number>`case when wow_close_date is null then 0 else 1 end`.as('closeDate'),
        (eb) => eb.fn.countAll<number | string>().as('count'),
      ])
      .groupBy(['wo_type', 'wow_status', sql`case when wow_close_date is null then 0 else 1 end`])
      .execute(),
    db
      .selectFrom('monitoring_alarms')
      .select([day('alarm_at').as('day'), 'severity', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('alarm_at', '>=', window.from)
      .where('alarm_at', '<', window.until)
      .groupBy([day('alarm_at'), 'severity'])
      .execute(),
  ]);
  return buildRollout(window, {
    planned: planned.filter((r): r is { siteId: string; day: string } => r.day !== null),
    done: done.filter((r): r is { siteId: string; day: string } => r.day !== null),
    trackerStatus: trackerStatus.map((r) => ({ status: r.status, count: Number(r.count) })),
    workOrders: workOrders.map((r) => ({ type: r.type, status: r.status, hasCloseDate: Number(r.closeDate) === 1, count: Number(r.count) })),
    alarms: alarms.map((r) => ({ day: r.day, severity: r.severity, count: Number(r.count) })),
  });
}
