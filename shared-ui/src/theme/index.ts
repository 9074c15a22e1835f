import type { ThemeConfig } from 'antd';
import { BRAND_COLOR, MUTED_TEXT, PLACEHOLDER_TEXT, SIDER_BACKGROUND, cellwiseTokens } from './tokens';

export { BRAND_COLOR, MUTED_TEXT, PLACEHOLDER_TEXT, SIDER_BACKGROUND, cellwiseTokens };

/** Cellwise brand: a deep network teal with neutral surfaces. */
export const cellwiseTheme: ThemeConfig = {
  token: {
    ...cellwiseTokens,
    // antd's secondary text (descriptions, statistic titles, notes) is rgba(0, 0, 0, 0.45): 3.4:1 on white,
    // under WCAG's 4.5:1 for body text (issue 47, axe color-contrast). 0.6 is 5.7:1 on white, 5.2:1 on #f5f5f5.
    colorTextTertiary: MUTED_TEXT,
    colorTextDescription: MUTED_TEXT,
    // Placeholders (#bfbfbf, 1.8:1) are text a user must read to know what to type or choose.
    colorTextPlaceholder: PLACEHOLDER_TEXT,
    // antd's #ff4d4f is 3.3:1 on white: a danger link ('Delete') could not be read at AA. Red 7 is 5.6:1.
    colorError: '#cf1322',
    // A green tag's text (green 7, #389e0d) is 3.4:1 on its own background ('Online', 'OK'); green 8 is 6:1.
    // A gold tag's (gold 7, 'Email not confirmed') is 2.8:1; gold 9 is 6:1. Red and blue tags pass as they are.
    green7: '#237804',
    gold7: '#874d00',
  },
  components: {
    Layout: { headerBg: '#ffffff', siderBg: SIDER_BACKGROUND, headerPadding: '0 16px' },
    Menu: { darkItemBg: SIDER_BACKGROUND, darkSubMenuItemBg: '#0c222a', darkItemSelectedBg: BRAND_COLOR },
  },
};
