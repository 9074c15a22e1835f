import type { ThemeConfig } from 'antd';

/** The brand teal: buttons, links, selections. */
export const BRAND_COLOR = '#0b6e79';
/** The side menu's dark surface (sider, phone drawer). */
export const SIDER_BACKGROUND = '#0f2a33';

/** Cellwise brand: a deep network teal with neutral surfaces. */
export const cellwiseTheme: ThemeConfig = {
  token: {
    colorPrimary: BRAND_COLOR,
    // antd derives links (anchors, link buttons) from the info blue, not from the primary colour.
    colorLink: BRAND_COLOR,
    borderRadius: 6,
    fontFamily: "'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  },
  components: {
    Layout: { headerBg: '#ffffff', siderBg: SIDER_BACKGROUND, headerPadding: '0 16px' },
    Menu: { darkItemBg: SIDER_BACKGROUND, darkSubMenuItemBg: '#0c222a', darkItemSelectedBg: '#0b6e79' },
  },
};
