import { useEffect, useRef, useState } from 'react';
import { connectNotificationHub, isTokenLive, loadUserInfo, publishJobProgress, sessionStore, useSession } from 'shared-auth';
import { takeShownOutcome, useToasts, type NotificationItem } from 'shared-ui';
import { toastVariant, useNotifications } from './store';

/** How long a connection outlives the token it was opened with, when a new token replaces it. */
export const TOKEN_CHANGE_OVERLAP_MS = 5_000;

/**
 * Keeps one hub connection while signed in: fetch on connect and on each NewNotification, toast each new
 * one unless the page that started its job already shows the outcome (`takeShownOutcome`), sign out when the server says the session was ended (deactivation, deletion), and republish each
 * JobProgress to the pages and widgets that follow it (`onJobProgress` / `useJobProgress`).
 */
export function NotificationHub() {
  const toasts = useToasts();
  const signedIn = useSession((s) => isTokenLive(s.token));
  const token = useSession((s) => s.token);
  // Ids of the notifications already toasted while this console is mounted.
  const [toasted] = useState(() => new Set<number>());
  useEffect(() => {
    if (!signedIn) return;
    const { refresh } = useNotifications.getState();
    const hub = connectNotificationHub<NotificationItem>({
      onConnected: () => void refresh(),
      // Asking the server settles it: a refused token clears the session and the guard shows the login page.
      onSessionEnded: () => void loadUserInfo(),
      onJobProgress: publishJobProgress,
      onNotification: (item) => {
        // Two connections overlap for a moment after a token change (below): each notification is told once.
        if (!toasted.has(item.id) && !takeShownOutcome(item.key)) toasts.show(item.title, toastVariant(item));
        toasted.add(item.id);
        void refresh();
      },
    });
    return () => {
      // A new token (password change) while signed in: the old connection stays a moment, so what was
      // pushed to it while the new one connects (the password change's own notice) still arrives.
      if (isTokenLive(sessionStore.getState().token)) setTimeout(() => void hub.stop(), TOKEN_CHANGE_OVERLAP_MS);
      else void hub.stop();
    };
    // A new token (password change) means a new connection authenticated with it.
  }, [signedIn, token, toasts, toasted]);

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
