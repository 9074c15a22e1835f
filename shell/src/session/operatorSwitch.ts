import type { UserInfo } from 'contracts';
import { api, can, principalOf, sessionStore, setUser } from 'shared-auth';
import { notificationLink, type NotificationItem, type Toasts } from 'shared-ui';

/**
 * Makes `operatorId` the user's current operator, as Settings does (POST Account/UpdateSettings with
 * the profile's values): the server reads the current operator from the user record at each request,
 * so from its answer on every call is that operator's. The profile is read first, so names changed in
 * another tab are not written back stale. Refusals are the API client's to show (a 403 toast).
 */
export async function switchOperator(operatorId: number): Promise<void> {
  const { data: profile } = await api.post<UserInfo>('account/GetUserInfo');
  const { data } = await api.post<UserInfo>('Account/UpdateSettings', { firstname: profile.firstname, lastname: profile.lastname, operatorId });
  // The answer is the reloaded session user: the top bar, the side bar and every keyed page follow it.
  setUser(data);
}

/** Whether the session's user may change their current operator (specification §5: the access policy says who). */
export function mayChooseOperator(): boolean {
  return can(principalOf(sessionStore.getState()), 'canChooseOperator');
}

/**
 * Opens what a notification links to. Its link names a record of the operator it was raised in, so a
 * notification of another operator switches to it first (the user must belong to it: the server
 * refuses otherwise, and then nothing opens). Someone who may not switch is told instead of being
 * sent to a page that would not find the record. Answers whether the link was opened.
 */
export async function openNotificationLink(item: NotificationItem, navigate: (to: string) => void | Promise<void>, toasts: Toasts): Promise<boolean> {
  const link = notificationLink(item.key);
  if (!link) return false;
  const current = sessionStore.getState().user.operator?.id ?? null;
  if (item.operator && item.operator.id !== current) {
    if (!mayChooseOperator()) {
      toasts.warning(`This notification is about ${item.operator.name}, which is not your current operator.`);
      return false;
    }
    try {
      await switchOperator(item.operator.id);
    } catch {
      return false;
    }
  }
  await navigate(link);
  return true;
}
