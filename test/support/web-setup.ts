/// <reference lib="dom" />
// Component tests: DOM matchers, and the browser APIs jsdom lacks that antd relies on.
import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// findBy*/waitFor wait for what a user would eventually see; on a loaded 2-core CI machine a debounce plus a
// render can take more than the library's 1 s default. A wait is not a timing assertion, so be generous.
configure({ asyncUtilTimeout: 10_000 });

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}
if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
