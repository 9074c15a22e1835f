import { App as AntApp, ConfigProvider } from 'antd';
import enGB from 'antd/locale/en_GB';
import type { ReactNode } from 'react';
import { cellwiseTheme } from '../theme';

/**
 * Every provider a page needs. The shell mounts it once around the whole console; a remote's
 * standalone development frame mounts the same one, so pages never create providers themselves.
 */
export function ConsoleProviders({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider theme={cellwiseTheme} locale={enGB}>
      {/* Toasts: at most 3 at once, 4 s, bottom right (specification §9). */}
      <AntApp notification={{ placement: 'bottomRight', maxCount: 3, duration: 4 }} message={{ maxCount: 3, duration: 4 }}>
        {children}
      </AntApp>
    </ConfigProvider>
  );
}
