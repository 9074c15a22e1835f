import type { NotificationConfig, NotificationInstance } from 'antd/es/notification/interface';
import { useHookOnDemand, type WhenReady } from './hookOnDemand';
import { onDemand } from './onDemand';

const NotificationHolder = onDemand(() => import('./holders').then((holders) => ({ default: holders.NotificationHolder })));

function proxy(whenReady: WhenReady<NotificationInstance>): NotificationInstance {
  return {
    open: (args) => whenReady((api) => api.open(args)),
    success: (args) => whenReady((api) => api.success(args)),
    info: (args) => whenReady((api) => api.info(args)),
    warning: (args) => whenReady((api) => api.warning(args)),
    error: (args) => whenReady((api) => api.error(args)),
    destroy: (key) => whenReady((api) => api.destroy(key)),
  };
}

/**
 * What antd's App gets for its `useNotification` import, at build time (tools/webpack,
 * AntdImportsPlugin): antd's notifications (the console's toasts, ≈ 8.5 KB gz) load with a page's first
 * toast instead of with every page.
 */
export default function useNotificationOnDemand(config?: NotificationConfig) {
  return useHookOnDemand<NotificationInstance, NotificationConfig | undefined>(NotificationHolder, config, proxy);
}
