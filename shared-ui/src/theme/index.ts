import type { ThemeConfig } from 'antd';

/** Cellwise brand: a deep network teal with neutral surfaces. */
export const cellwiseTheme: ThemeConfig = {
  token: {
    colorPrimary: '#0b6e79',
    borderRadius: 6,
    fontFamily: "'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  },
  components: {
    Layout: { headerBg: '#ffffff', siderBg: '#0f2a33', headerPadding: '0 16px' },
    Menu: { darkItemBg: '#0f2a33', darkSubMenuItemBg: '#0c222a', darkItemSelectedBg: '#0b6e79' },
  },
};
