/**
 * The brand's design tokens as plain values, with no antd import: the antd theme (./index.ts) is built
 * from them, and the signed-out pages (shell/src/signin, no antd) read them directly (`shared-ui/theme`).
 */

/** The brand teal: buttons, links, selections. */
export const BRAND_COLOR = '#0b6e79';
/** Secondary text that still reads at WCAG AA (4.5:1) on white and on antd's grey surfaces. */
export const MUTED_TEXT = 'rgba(0, 0, 0, 0.6)';
/** Placeholder text: lighter than a value, still 4.5:1 on white (#717171). */
export const PLACEHOLDER_TEXT = 'rgba(0, 0, 0, 0.56)';
/** The side menu's dark surface (sider, phone drawer). */
export const SIDER_BACKGROUND = '#0f2a33';

/** antd seed tokens of the Cellwise brand: a deep network teal with neutral surfaces. */
export const cellwiseTokens = {
  colorPrimary: BRAND_COLOR,
  // antd derives links (anchors, link buttons) from the info blue, not from the primary colour.
  colorLink: BRAND_COLOR,
  borderRadius: 6,
  fontFamily: "'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
} as const;
