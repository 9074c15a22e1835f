import type { UserNotification } from 'api/contracts';

// Apart from NotificationList so that code that only follows a notification's link (the shell's bell
// and hub, on every page) does not load antd's List with it.

/** A notification as the API stores and pushes it (contract in api/src/contracts/notifications.ts). */
export type NotificationItem = UserNotification;

/**
 * The page a notification opens, from its key: the API names what a job produced in the key (e.g.
 * `monitoring-parse-12` for parse report 12). Null for notifications that only inform.
 */
export function notificationLink(key: string): string | null {
  const parse = /^monitoring-parse-(\d+)$/.exec(key);
  if (parse) return `/monitoring/uploadLogs?report=${parse[1]}`;
  // A run's notification opens its page, where the run is the newest row of the history.
  if (key.startsWith('planning-parameters-')) return '/planning/parameterplanning';
  return RUN_PAGES.get(key) ?? null;
}

const RUN_PAGES: ReadonlyMap<string, string> = new Map([
  ['validation-cpich', '/validation/cpichvalidation'],
  ['validation-neighbours', '/validation/nbrRelationsValidation'],
  ['validation-ranshare', '/validation/ranshareNbrRelationsValidation'],
  ['validation-health-checks', '/validation/healthChecks'],
  ['optimization-neighbours', '/optimization/nbrRelationsOptimization'],
]);
