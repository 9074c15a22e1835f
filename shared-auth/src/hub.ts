import type { HubClient } from './hubClient';
import { API_BASE } from './apiClient';
import { ALARMS_CHANGED_EVENT, publishAlarmsChanged } from './alarmsChanged';
import { JOB_PROGRESS_EVENT } from './jobProgress';
import { isTokenLive, sessionStore } from './session';

/** The hub reconnects this long after a close (specification §9), the first time. */
export const HUB_RETRY_DELAY_MS = 5000;
/** Each further attempt waits twice as long, up to this: a console left open through an outage does not hammer the server. */
export const HUB_MAX_RETRY_DELAY_MS = 60_000;

/** The wait before reconnect attempt `retries + 1`: 5 s, 10 s, 20 s, 40 s, then every minute. */
export function hubRetryDelay(retries: number): number {
  return Math.min(HUB_RETRY_DELAY_MS * 2 ** Math.max(0, retries), HUB_MAX_RETRY_DELAY_MS);
}

/**
 * Whether the hub refused the session itself (HTTP 401 on negotiate, on a poll or a stream), as opposed
 * to a network fault. Over Long Polling the server can end a session between two polls: the next poll
 * is refused and the session's SessionEnded message never arrives, so the refusal has to say it.
 */
export function isSessionRefusal(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (error as { statusCode?: unknown }).statusCode === 401 || /status code '?401'?/i.test(error.message);
}

export interface HubHandlers<N> {
  onNotification: (notification: N) => void;
  /** Called after every (re)connection, so the caller can fetch what it missed. */
  onConnected: () => void;
  /**
   * The server ended this user's sessions (deactivated, deleted), or refused the connection's session:
   * the console asks the server whether its session still stands, and signs out if not.
   */
  onSessionEnded?: () => void;
  /** A job of this user moved on (`JobProgress`); the shell republishes it with `publishJobProgress`. */
  onJobProgress?: (event: unknown) => void;
}

/** Hub event of the API's NotificationService.endSessions. */
export const SESSION_ENDED_EVENT = 'SessionEnded';

/**
 * One connection to the notification hub, owned by the shell (one per tab). The client reconnects by
 * itself (5 s, then backing off); a first start that fails, or a connection the server closed for good,
 * is started again on the same schedule, for as long as the session is live, until `stop()`.
 */
export function connectNotificationHub<N>(handlers: HubHandlers<N>): { stop: () => Promise<void> } {
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let failedStarts = 0;
  let connection: HubClient | undefined;
  const live = () => !stopped && isTokenLive(sessionStore.getState().token);

  const schedule = () => {
    if (stopped) return;
    clearTimeout(retry);
    retry = setTimeout(() => void start(), hubRetryDelay(failedStarts++));
  };
  const start = async () => {
    if (!live()) return;
    try {
      // The client arrives with the first connection: a page that never connects (signed out) never loads it.
      const { startHubClient } = await import('./hubClient');
      if (stopped) return;
      const started = await startHubClient({
        url: `${API_BASE}/notificationhub`,
        accessToken: () => sessionStore.getState().token ?? '',
        handlers: {
          NewNotification: (notification) => handlers.onNotification(notification as N),
          [SESSION_ENDED_EVENT]: () => handlers.onSessionEnded?.(),
          [JOB_PROGRESS_EVENT]: (event) => handlers.onJobProgress?.(event),
          // Pages follow it through onAlarmsChanged (alarmsChanged.ts): no shell code in between.
          [ALARMS_CHANGED_EVENT]: () => publishAlarmsChanged(),
        },
        // A signed-out console stops trying; a live one keeps trying however long the outage lasts.
        retryDelay: (retries) => (live() ? hubRetryDelay(retries) : null),
        onReconnected: () => handlers.onConnected(),
        onReconnecting: (error) => {
          if (isSessionRefusal(error)) handlers.onSessionEnded?.();
        },
        onClose: (error) => {
          connection = undefined;
          if (isSessionRefusal(error)) handlers.onSessionEnded?.();
          schedule();
        },
      });
      if (stopped) return started.stop();
      connection = started;
      failedStarts = 0;
      handlers.onConnected();
    } catch (error) {
      if (isSessionRefusal(error)) handlers.onSessionEnded?.();
      schedule();
    }
  };
  void start();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(retry);
      connection?.stop();
      connection = undefined;
    },
  };
}
