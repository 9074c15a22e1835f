// What antd's form hooks get for `scroll-into-view-if-needed`, at build time (tools/webpack, AntdImportsPlugin):
// it is called only by `form.scrollToField` (a form scrolling to its first error), so it loads then, not
// with every page that draws a form (≈ 1.5 KB gz). The scroll comes a moment later the first time; the
// field's focus, which antd gives right after the call, is not held up by it.
import type { StandardBehaviorOptions } from 'scroll-into-view-if-needed';

// webpack loads the chunk once and hands every later import the same module.
const loadScroll = () => import('scroll-into-view-if-needed').then((module) => module.default);

export default function scrollIntoView(target: Element, options?: StandardBehaviorOptions): void {
  void loadScroll().then((scroll) => scroll(target, options));
}
