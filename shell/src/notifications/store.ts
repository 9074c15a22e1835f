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

export function toastVariant(icon: NotificationItem['icon']): Variant {
  return icon;
}
