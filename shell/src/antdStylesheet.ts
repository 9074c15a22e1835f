/** The id tools/webpack/antd-stylesheet.js gives the link to antd's stylesheet in the console's page (a test keeps the two equal). */
export const ANTD_STYLESHEET_ID = 'cw-antd-styles';

/**
 * Switches on antd's stylesheet, linked as media="print" so that the browser downloads it without holding
 * the start frame's first paint, and resolves once its rules apply: the console must not draw antd's
 * components unstyled. Normally the file is in long before the scripts; if it fails to load, the console
 * is drawn anyway rather than never. A page without the link (tests) resolves at once.
 */
export function applyAntdStylesheet(doc: Document = document): Promise<void> {
  const link = doc.getElementById(ANTD_STYLESHEET_ID);
  if (!(link instanceof HTMLLinkElement)) return Promise.resolve();
  const apply = () => {
    link.media = 'all';
  };
  // Loaded already (a print sheet has its rules too): nothing to wait for.
  if (link.sheet) {
    apply();
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const settle = () => {
      apply();
      resolve();
    };
    link.addEventListener('load', settle, { once: true });
    link.addEventListener('error', settle, { once: true });
  });
}
