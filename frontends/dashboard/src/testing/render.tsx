/**
 * Component-test helpers (jest `web` project only; nothing in the app imports this file): the providers the shell
 * gives a remote (QueryClient, router, antd App for toasts), the dashboard context and its mutation toasts, a fetch stand-in that answers
 * by route, and a WebSocket stand-in that never connects unless a test drives it.
 */
import { StubResponse as FetchResponse } from './polyfills';
import type { ReactElement } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { App as AntApp } from 'antd';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createQueryClient, TOAST_CONFIG } from '@tyres/platform';
import type { SessionUser } from '../auth/user';
import { useMutationToasts } from '../api/mutation-toasts';
import { DashboardProvider } from '../context';

export const ADMIN: SessionUser = {
  id: 'u-admin',
  username: 'boss',
  email: 'boss@example.com',
  role: 'admin',
  isActive: true,
  createdAt: '2026-01-05T00:00:00.000Z',
};
export const TECH: SessionUser = {
  id: 'u-tech',
  username: 'sam',
  email: null,
  role: 'technician',
  isActive: true,
  createdAt: '2026-02-09T00:00:00.000Z',
};
export const BUSINESS = { name: 'Perth Mobile Tyres', phone: null, phoneDisplay: null };

export interface StubResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}
/** `{ status?, body?, headers? }` and nothing else (a job also has a `status`, but it is a body). */
function isStubResponse(value: unknown): value is StubResponse {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const v = value as StubResponse;
  return (
    keys.length > 0 &&
    keys.every((k) => k === 'status' || k === 'body' || k === 'headers') &&
    (v.status === undefined || typeof v.status === 'number')
  );
}
/** Answers a request; may answer later (a Promise), to hold a request open while the test does something else. */
export type Handler = (request: { url: URL; method: string; body: unknown }) => StubResponse | unknown;
export interface Call {
  method: string;
  path: string;
  search: string;
  body: unknown;
}

/**
 * Replaces global fetch. Routes are "METHOD /path" (exact) or "METHOD /path*" (prefix); a handler answers a
 * StubResponse or a plain body (200). Unmatched requests answer 404 so a missing stub is visible in the test.
 */
export function stubFetch(routes: Record<string, Handler | unknown>): Call[] {
  const calls: Call[] = [];
  const impl = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path: url.pathname, search: url.search, body });
    const key = Object.keys(routes).find((route) => {
      const [m, p] = route.split(' ') as [string, string];
      if (m !== method) return false;
      return p.endsWith('*') ? url.pathname.startsWith(p.slice(0, -1)) : url.pathname === p;
    });
    let answer: StubResponse = { status: 404, body: { message: `no stub for ${method} ${url.pathname}` } };
    if (key) {
      const route = routes[key];
      const result: unknown =
        typeof route === 'function' ? await (route as Handler)({ url, method, body }) : route;
      answer = isStubResponse(result) ? result : { body: result };
    }
    const status = answer.status ?? 200;
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return new FetchResponse(text, status, status >= 400 ? 'Error' : 'OK', {
      'Content-Type': 'application/json',
      ...answer.headers,
    });
  };
  (globalThis as { fetch: typeof fetch }).fetch = jest.fn(impl) as unknown as typeof fetch;
  return calls;
}

/** A WebSocket that records what it is sent and opens/receives/closes only when the test says so. */
export class FakeSocket {
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: ((e: unknown) => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  constructor(public url: string) {
    FakeSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code = 1000) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

export function installFakeWebSocket(): void {
  FakeSocket.instances = [];
  (globalThis as unknown as { WebSocket: unknown }).WebSocket = FakeSocket;
}

/** The dashboard root mounts the mutation failure toasts; a component rendered alone needs them too. */
function MutationToasts() {
  useMutationToasts();
  return null;
}

/** Renders the current location into the DOM so tests can assert navigation. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

export interface RenderOptions {
  user?: SessionUser;
  path?: string;
  /** Route pattern the element is mounted at (default: any path). */
  route?: string;
  queryClient?: QueryClient;
  homePath?: string;
}

/** Emulates a phone (cards) or a desktop (tables) for useIsMobile. jsdom's default here is a phone. */
export function setViewport(kind: 'phone' | 'desktop'): void {
  const width = kind === 'phone' ? 390 : 1366;
  window.matchMedia = ((query: string) => {
    const min = /min-width:\s*(\d+)px/.exec(query);
    const max = /max-width:\s*(\d+)px/.exec(query);
    const matches = (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
    return {
      matches,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    };
  }) as typeof window.matchMedia;
}

export function renderWithApp(
  element: ReactElement,
  options: RenderOptions = {},
): RenderResult & { queryClient: QueryClient } {
  installFakeWebSocket();
  // Toasts live in one DOM region that outlives a test's render: start each test without old ones.
  document.getElementById('tyres-toasts')?.remove();
  const queryClient = options.queryClient ?? createQueryClient();
  const user = options.user ?? ADMIN;
  const result = render(
    <AntApp notification={TOAST_CONFIG}>
      <QueryClientProvider client={queryClient}>
        <MutationToasts />
        <MemoryRouter initialEntries={[options.path ?? '/dashboard']}>
          <DashboardProvider value={{ user, business: BUSINESS, homePath: options.homePath ?? '/dashboard' }}>
            <Routes>
              <Route path={options.route ?? '*'} element={element} />
            </Routes>
            <LocationProbe />
          </DashboardProvider>
        </MemoryRouter>
      </QueryClientProvider>
    </AntApp>,
  );
  return { ...result, queryClient };
}

/** The answers the tests stub, typed and checked against the services' documents (./fixtures). */
export * from './fixtures';
