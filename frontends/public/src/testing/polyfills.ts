// jsdom lacks what react-router needs at import time; imported first by the test helpers.
import { TextDecoder, TextEncoder } from 'node:util';

const g = globalThis as unknown as Record<string, unknown>;
g.TextEncoder ??= TextEncoder;
g.TextDecoder ??= TextDecoder;

// jsdom implements neither (it logs "Not implemented"): navigation scrolls, which tests do not look at.
if (typeof window !== 'undefined') {
  window.scrollTo = () => undefined;
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
}

// The booking dialog keeps a draft in sessionStorage (booking/draft.ts): every test starts without one.
if (typeof afterEach === 'function' && typeof window !== 'undefined') {
  afterEach(() => window.sessionStorage.clear());
}
