import { useEffect, useRef } from 'react';
import { connectNotificationHub, isTokenLive, loadUserInfo, publishJobProgress, useSession } from 'shared-auth';
import { takeShownOutcome, useToasts, type NotificationItem } from 'shared-ui';
import { toastVariant, useNotifications } from './store';

/**
 * Keeps one hub connection while signed in: fetch on connect and on each NewNotification, toast each new
 * one unless the page that started its job already shows the outcome (`takeShownOutcome`), sign out when the server says the session was ended (deactivation, deletion), and republish each
 * JobProgress to the pages and widgets that follow it (`onJobProgress` / `useJobProgress`).
 */
export function NotificationHub() {
  const toasts = useToasts();
  const signedIn = useSession((s) => isTokenLive(s.token));
  const token = useSession((s) => s.token);
  useEffect(() => {
    if (!signedIn) return;
    const { refresh } = useNotifications.getState();
    const hub = connectNotificationHub<NotificationItem>({
      onConnected: () => void refresh(),
      // Asking the server settles it: a refused token clears the session and the guard shows the login page.
      onSessionEnded: () => void loadUserInfo(),
      onJobProgress: publishJobProgress,
      onNotification: (item) => {
        if (!takeShownOutcome(item.key)) toasts.show(item.title, toastVariant(item.icon));
        void refresh();
      },
    });
    return () => void hub.stop();
    // A new token (password change) means a new connection authenticated with it.
  }, [signedIn, token, toasts]);

  // Another current operator: the bell is read again with everything else on screen (the connection
  // stays: notifications are the user's, whichever operator they are in).
  const operatorId = useSession((s) => s.user.operator?.id ?? null);
  const shownOperator = useRef(operatorId);
  useEffect(() => {
    if (shownOperator.current === operatorId) return;
    shownOperator.current = operatorId;
    if (signedIn) void useNotifications.getState().refresh();
  }, [operatorId, signedIn]);
  return null;
}
