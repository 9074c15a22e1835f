import { Spin } from 'antd';
import { useLayoutEffect } from 'react';

/**
 * The console's start frame: top bar, side bar and the opened page's title (src/boot-frame.html, titled by
 * the server), drawn by the browser with the page, before any script has loaded. It stays while the
 * session starts, so the user sees where they are at once instead of a blank page and a spinner, and
 * goes the moment the shell draws its own layout in the same place.
 */
export const BOOT_FRAME_ID = 'cw-boot';

/** The session is starting: the start frame says so where the page has one (the console's page), else a spinner. */
export function StartPending() {
  return document.getElementById(BOOT_FRAME_ID) ? null : <Spin size="large" fullscreen />;
}

/** Rendered with the shell's first real screen: removes the start frame before that screen is painted. */
export function BootFrameDone() {
  useLayoutEffect(() => document.getElementById(BOOT_FRAME_ID)?.remove(), []);
  return null;
}
