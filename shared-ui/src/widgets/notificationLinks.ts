import type { UserNotification } from 'contracts';

// Apart from NotificationList so that code that only follows a notification's link (the shell's bell
// and hub, on every page) does not load antd's List with it.

/** A notification as the API stores and pushes it (contract in contracts/src/notifications.ts). */
export type NotificationItem = UserNotification;

/** The run pages, by the key prefix of their runs' notifications (the API's `runNotificationKey`). */
const RUN_PAGES: ReadonlyMap<string, string> = new Map([
  ['planning-parameters', '/planning/parameterplanning'],
  ['validation-cpich', '/validation/cpichvalidation'],
  ['validation-neighbours', '/validation/nbrRelationsValidation'],
  ['validation-ranshare', '/validation/ranshareNbrRelationsValidation'],
  ['validation-health-checks', '/validation/healthChecks'],
  ['optimization-neighbours', '/optimization/nbrRelationsOptimization'],
]);

/** Pages where an import's (or the sync's) outcome shows, by its notification key. */
const IMPORT_PAGES: ReadonlyMap<string, string> = new Map([
  ['tracking-import-commissioningPlan', '/tracking/commissioningplan'],
  ['tracking-import-tracker', '/tracking/tracker'],
  ['tracking-import-workOrderStatus', '/tracking/workorderstatus'],
  ['tracking-sync', '/tracking/tracker'],
  ['monitoring-performance-import', '/monitoring/overallSiteSummary'],
]);

/**
 * The page a notification opens, from its key: the API names what a job produced in the key. A run's
 * (`validation-cpich-run-42`) opens its page on that run's result (`?run=42`); a parse's
 * (`monitoring-parse-12`) its report; an import's the page of what it imported. Keys stored before runs
 * named theirs (`validation-cpich`, `planning-parameters-LX0001`) open the run's page, where it heads the
 * history. Null for notifications that only inform.
 */
export function notificationLink(key: string): string | null {
  const parse = /^monitoring-parse-(\d+)$/.exec(key);
  if (parse) return `/monitoring/uploadLogs?report=${parse[1]}`;
  const run = /^(.+)-run-(\d+)$/.exec(key);
  const runPage = run ? RUN_PAGES.get(run[1]!) : undefined;
  if (run && runPage) return `${runPage}?run=${run[2]}`;
  // Planning's keys once named the site (`planning-parameters-LX0001`).
  if (key.startsWith('planning-parameters-')) return RUN_PAGES.get('planning-parameters')!;
  return RUN_PAGES.get(key) ?? IMPORT_PAGES.get(key) ?? null;
}
