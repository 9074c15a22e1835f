import { theme, type MappingAlgorithm, type ThemeConfig } from 'antd';
import { BRAND_COLOR, MUTED_TEXT, PLACEHOLDER_TEXT, SIDER_BACKGROUND, cellwiseTokens } from './tokens';

export { BRAND_COLOR, MUTED_TEXT, PLACEHOLDER_TEXT, SIDER_BACKGROUND, cellwiseTokens };

/**
 * A preset tag's text is its palette's 7th shade on the 1st: under WCAG's 4.5:1 for green ('OK', 'Online',
 * 3.4:1), gold ('Minor', 'Email not confirmed', 2.8:1), orange ('Major', 3.3:1) and the others below. Each
 * takes the first darker shade of its palette that reads at AA; red, blue, magenta, geekblue and purple pass.
 * Set in the algorithm, not in `token`: antd derives the palettes from the seed colours after `token` is
 * read, so `token.green7` was written over (the tags kept #389e0d).
 */
export const READABLE_TAG_TEXT = {
  volcano7: '#ad2102',
  orange7: '#ad4e00',
  gold7: '#874d00',
  yellow7: '#876800',
  lime7: '#3f6600',
  green7: '#237804',
  cyan7: '#006d75',
} as const;

const readablePalettes: MappingAlgorithm = (seed, map) => ({ ...(map ?? theme.defaultAlgorithm(seed)), ...READABLE_TAG_TEXT });

/** Cellwise brand: a deep network teal with neutral surfaces. */
export const cellwiseTheme: ThemeConfig = {
  algorithm: [theme.defaultAlgorithm, readablePalettes],
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
  },
  components: {
    Layout: { headerBg: '#ffffff', siderBg: SIDER_BACKGROUND, headerPadding: '0 16px' },
    Menu: { darkItemBg: SIDER_BACKGROUND, darkSubMenuItemBg: '#0c222a', darkItemSelectedBg: BRAND_COLOR },
  },
};
