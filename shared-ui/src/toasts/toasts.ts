import { App } from 'antd';
import { useMemo } from 'react';
import type { Variant } from 'shared-auth';

/** Toasts (specification §9): at most 3 at once, hidden after 4000 ms, bottom right. ConsoleProviders applies them. */
export const TOAST_PLACEMENT = 'bottomRight';
export const TOAST_MAX_COUNT = 3;
export const TOAST_DURATION_MS = 4000;

export interface Toasts {
  show: (title: string, variant: Variant) => void;
  success: (title: string) => void;
  info: (title: string) => void;
  warning: (title: string) => void;
  error: (title: string) => void;
}

/**
 * The one way anything in the console shows a toast, wherever it runs (shell or remote): through the
 * shell's antd App, so every toast takes the same place, count and duration. antd's `message` sits
 * top centre and must not be used for toasts.
 */
export function useToasts(): Toasts {
  const { notification } = App.useApp();
  return useMemo(() => {
    const show = (title: string, variant: Variant) => {
      notification[variant]({ title });
    };
    return {
      show,
      success: (title) => show(title, 'success'),
      info: (title) => show(title, 'info'),
      warning: (title) => show(title, 'warning'),
      error: (title) => show(title, 'error'),
    };
  }, [notification]);
}
