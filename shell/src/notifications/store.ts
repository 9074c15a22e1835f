import { api, type Variant } from 'shared-auth';
import type { NotificationItem } from 'shared-ui';
import { create } from 'zustand';

interface NotificationsState {
  items: NotificationItem[];
  unread: number;
  /** Reloads the list; a background call, so no loading overlay and failures are ignored (specification §4, §8). */
  refresh: () => Promise<void>;
  markAsRead: (id: number) => Promise<void>;
}

/** The bell's list. Owned by the shell; the hub connection feeds it. */
export const useNotifications = create<NotificationsState>()((set, get) => ({
  items: [],
  unread: 0,
  refresh: async () => {
    try {
      const { data } = await api.get<NotificationItem[]>('Notification/Notifications', { skipLoading: true, skipErrorHandling: true, outlivesPage: true });
      set({ items: data, unread: data.filter((n) => !n.readed).length });
    } catch {
      /* background fetch: the next event or reconnection tries again */
    }
  },
  markAsRead: async (id) => {
    try {
      await api.put(`Notification/MarkAsRead/${id}`, undefined, { skipLoading: true, skipErrorHandling: true });
    } finally {
      await get().refresh();
    }
  },
}));

const VARIANTS: ReadonlySet<string> = new Set<Variant>(['success', 'info', 'warning', 'error']);

/**
 * The toast of a notification tells its outcome as the bell does: its variant (specification §3), else
 * its icon. What the hub pushes is data from the network: anything else is shown as info, never thrown on.
 */
export function toastVariant(item: Pick<NotificationItem, 'icon' | 'variant'>): Variant {
  for (const value of [item.variant, item.icon] as unknown[]) if (typeof value === 'string' && VARIANTS.has(value)) return value as Variant;
  return 'info';
}
