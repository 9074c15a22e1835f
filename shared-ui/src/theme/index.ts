import type { ThemeConfig } from 'antd';
import { BRAND_COLOR, SIDER_BACKGROUND, cellwiseTokens } from './tokens';

export { BRAND_COLOR, SIDER_BACKGROUND, cellwiseTokens };

/** Cellwise brand: a deep network teal with neutral surfaces. */
export const cellwiseTheme: ThemeConfig = {
  token: { ...cellwiseTokens },
  components: {
    Layout: { headerBg: '#ffffff', siderBg: SIDER_BACKGROUND, headerPadding: '0 16px' },
    Menu: { darkItemBg: SIDER_BACKGROUND, darkSubMenuItemBg: '#0c222a', darkItemSelectedBg: BRAND_COLOR },
  },
};
