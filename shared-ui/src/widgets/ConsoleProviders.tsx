import { App as AntApp, ConfigProvider } from 'antd';
import enGB from 'antd/es/locale/en_GB';
import type { ReactNode } from 'react';
import { cellwiseTheme } from '../theme';
import { TOAST_DURATION_MS, TOAST_MAX_COUNT, TOAST_PLACEMENT } from '../toasts/toasts';

/**
 * Every provider a page needs. The shell mounts it once around the whole console; a remote's
 * standalone development frame mounts the same one, so pages never create providers themselves.
 */
export function ConsoleProviders({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider theme={cellwiseTheme} locale={enGB}>
      {/* The one place toasts are set up (specification §9); `useToasts` shows them. */}
      <AntApp notification={{ placement: TOAST_PLACEMENT, maxCount: TOAST_MAX_COUNT, duration: TOAST_DURATION_MS / 1000 }}>{children}</AntApp>
    </ConfigProvider>
  );
}
