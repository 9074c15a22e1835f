// What antd's tables, dialogs and ellipsis need from a browser and jsdom leaves out. Loaded by the
// jest projects that render those widgets (shared-ui, and remotes rendering their pages).
class NoopResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

if (typeof window !== 'undefined') {
  if (!('ResizeObserver' in window)) Object.assign(window, { ResizeObserver: NoopResizeObserver });
  // jsdom throws "not implemented" for pseudo-elements (antd measures the scrollbar with one).
  const computed = window.getComputedStyle.bind(window);
  window.getComputedStyle = (element: Element) => computed(element);
}
