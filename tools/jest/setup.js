require('@testing-library/jest-dom');
// Every suite runs at once on CI's two cores: antd's first render of a table, a lazy panel or a drawer can
// take more than Testing Library's default second there (flaky failures in a DataTable filter and the fault
// management hint drawer). A test that should fail still fails, five seconds later.
if (typeof globalThis.window !== 'undefined') require('@testing-library/react').configure({ asyncUtilTimeout: 5000 });
// antd reads matchMedia for responsive grids; jsdom does not implement it.
if (typeof globalThis.window !== 'undefined' && !globalThis.window.matchMedia) {
  globalThis.window.matchMedia = (query) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  });
}
// react-router encodes URLs with TextEncoder, which jsdom leaves out.
if (typeof globalThis.TextEncoder === 'undefined') {
  const { TextEncoder, TextDecoder } = require('node:util');
  globalThis.TextEncoder = TextEncoder;
  globalThis.TextDecoder = TextDecoder;
}
if (typeof globalThis.window !== 'undefined') {
  // antd tables and tabs measure themselves with ResizeObserver; jsdom has no layout, so nothing ever resizes.
  if (!globalThis.window.ResizeObserver) {
    globalThis.window.ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
    globalThis.ResizeObserver = globalThis.window.ResizeObserver;
  }
  // rc-table asks for a pseudo-element's style (scrollbar size), which jsdom reports as "not implemented".
  const computedStyle = globalThis.window.getComputedStyle.bind(globalThis.window);
  globalThis.window.getComputedStyle = (element) => computedStyle(element);
}
// antd's Select schedules through MessageChannel, which the jsdom environment does not expose; timers do the same job here.
if (typeof globalThis.MessageChannel === 'undefined') {
  globalThis.MessageChannel = class {
    constructor() {
      const port = () => ({ onmessage: null, close() {}, start() {} });
      this.port1 = port();
      this.port2 = port();
      this.port1.postMessage = (data) => setTimeout(() => this.port2.onmessage?.({ data }));
      this.port2.postMessage = (data) => setTimeout(() => this.port1.onmessage?.({ data }));
    }
  };
}
// A table writes its view into the address (shared-ui urlView.ts) and jsdom keeps one address per file:
// each test starts at the page the environment opened, so one test's filters never open the next one's table.
if (typeof globalThis.window !== 'undefined') {
  const start = globalThis.window.location.href;
  globalThis.afterEach(() => globalThis.window.history.replaceState(null, '', start));
}
