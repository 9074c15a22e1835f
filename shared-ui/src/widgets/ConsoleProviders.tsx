import { App as AntApp, ConfigProvider, type ThemeConfig } from 'antd';
import enGB from 'antd/es/locale/en_GB';
import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { cellwiseTheme } from '../theme';
import { TOAST_DURATION_MS, TOAST_MAX_COUNT, TOAST_PLACEMENT } from '../toasts/toasts';
import { wrapTabInDialogs } from './dialogTabWrap';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/**
 * Zero-runtime antd: components do not generate their CSS while React renders; the page links antd's
 * stylesheet instead (tools/webpack/antd-stylesheet.js), whose rules read the theme from the CSS
 * variables antd still writes at run time (the tokens, and each component's own, such as the side bar's
 * colours). Generating the styles cost a fifth of a table page's main-thread time on a phone.
 */
const consoleTheme: Readonly<ThemeConfig> = { ...cellwiseTheme, zeroRuntime: true };

/**
 * For a user whose system asks for less motion (WCAG 2.3.3): antd's zooms, slides and fades are off,
 * dialogs and toasts appear where they stay, and widgets that animate on their own read `token.motion`.
 */
const stillTheme: Readonly<ThemeConfig> = { ...consoleTheme, token: { ...consoleTheme.token, motion: false } };

function watchMotionPreference(onChange: () => void): () => void {
  const query = globalThis.matchMedia?.(REDUCED_MOTION);
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

const prefersReducedMotion = (): boolean => globalThis.matchMedia?.(REDUCED_MOTION).matches ?? false;

/**
 * Every provider a page needs. The shell mounts it once around the whole console; a remote's
 * standalone development frame mounts the same one, so pages never create providers themselves.
 */
export function ConsoleProviders({ children }: { children: ReactNode }) {
  // Followed live: the preference can change while the console is open.
  const reducedMotion = useSyncExternalStore(watchMotionPreference, prefersReducedMotion, () => false);
  useEffect(() => wrapTabInDialogs(), []);
  return (
    <ConfigProvider theme={reducedMotion ? stillTheme : consoleTheme} locale={enGB}>
      {/* The one place toasts are set up (specification §9); `useToasts` shows them. */}
      <AntApp notification={{ placement: TOAST_PLACEMENT, maxCount: TOAST_MAX_COUNT, duration: TOAST_DURATION_MS / 1000 }}>{children}</AntApp>
    </ConfigProvider>
  );
}
