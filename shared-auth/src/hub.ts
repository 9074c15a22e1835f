import type { HubClient } from './hubClient';
import { API_BASE } from './apiClient';
import { JOB_PROGRESS_EVENT } from './jobProgress';
import { isTokenLive, sessionStore } from './session';

/** The hub reconnects this long after a close (specification §9). */
export const HUB_RETRY_DELAY_MS = 5000;

export interface HubHandlers<N> {
  onNotification: (notification: N) => void;
  /** Called after every (re)connection, so the caller can fetch what it missed. */
  onConnected: () => void;
  /** The server ended this user's sessions (deactivated, deleted): the console should sign out. */
  onSessionEnded?: () => void;
  /** A job of this user moved on (`JobProgress`); the shell republishes it with `publishJobProgress`. */
  onJobProgress?: (event: unknown) => void;
}

/** Hub event of the API's NotificationService.endSessions. */
export const SESSION_ENDED_EVENT = 'SessionEnded';

/**
 * One connection to the notification hub, owned by the shell (one per tab). It retries 5 s after
 * any close for as long as the session is live, and stops for good on `stop()`.
 */
export function connectNotificationHub<N>(handlers: HubHandlers<N>): { stop: () => Promise<void> } {
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let connection: HubClient | undefined;

  const schedule = () => {
    if (stopped) return;
    clearTimeout(retry);
    retry = setTimeout(() => void start(), HUB_RETRY_DELAY_MS);
  };
  const start = async () => {
    if (stopped || !isTokenLive(sessionStore.getState().token)) return;
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
        },
        onClose: () => {
          connection = undefined;
          schedule();
        },
      });
      if (stopped) return started.stop();
      connection = started;
      handlers.onConnected();
    } catch {
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
