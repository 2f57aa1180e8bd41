/**
 * What jsdom lacks and the dashboard's code under test needs (react-router 7 reads TextEncoder at import). Import
 * this first in a test file. (The shared test/support/web-setup.ts could take these over.)
 */
import { TextDecoder, TextEncoder } from 'node:util';

const g = globalThis as unknown as Record<string, unknown>;
if (!g.TextEncoder) g.TextEncoder = TextEncoder;
if (!g.TextDecoder) g.TextDecoder = TextDecoder;
// antd's Select schedules macrotasks with MessageChannel; a timer does the same here without keeping jest alive.
if (!g.MessageChannel)
  g.MessageChannel = class {
    port1: { onmessage: ((event: { data: unknown }) => void) | null } = { onmessage: null };
    port2 = { postMessage: (data: unknown) => setTimeout(() => this.port1.onmessage?.({ data }), 0) };
  };
if (typeof window !== 'undefined') {
  if (!window.scrollTo) window.scrollTo = () => undefined;
  if (!URL.createObjectURL) (URL as unknown as Record<string, unknown>).createObjectURL = () => 'blob:stub';
  // jsdom implements getComputedStyle but not its pseudo-element argument (antd's scroll lock passes one).
  const getComputedStyle = window.getComputedStyle.bind(window);
  window.getComputedStyle = ((element: Element) =>
    getComputedStyle(element)) as typeof window.getComputedStyle;
  if (!URL.revokeObjectURL) (URL as unknown as Record<string, unknown>).revokeObjectURL = () => undefined;
}

/** The part of fetch's Response the dashboard reads (jsdom has no fetch). */
export class StubResponse {
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null; has(name: string): boolean };
  constructor(
    private readonly text_: string,
    readonly status: number,
    readonly statusText: string,
    headers: Record<string, string>,
  ) {
    this.ok = status >= 200 && status < 300;
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    this.headers = { get: (n) => lower[n.toLowerCase()] ?? null, has: (n) => n.toLowerCase() in lower };
  }
  async text() {
    return this.text_;
  }
  async json() {
    return JSON.parse(this.text_) as unknown;
  }
  async blob() {
    return new Blob([this.text_]);
  }
}

// antd in jsdom is slow on small CI machines: give async queries room.
// eslint-disable-next-line @typescript-eslint/no-require-imports
(require('@testing-library/react') as typeof import('@testing-library/react')).configure({
  asyncUtilTimeout: 10_000,
});
