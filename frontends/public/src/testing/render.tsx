/**
 * Component-test helpers (jest `web` project): the providers the public site runs under, and a fetch stub
 * that answers the API calls the tests declare. Not part of any bundle.
 */
import './polyfills';
import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { createQueryClient } from '@tyres/platform/query-client';
import type { BusinessInfo } from '@tyres/platform';
import { SiteProvider, type SiteInfo } from '../site/context';

export const BUSINESS: BusinessInfo = {
  name: 'Perth Mobile Tyres',
  phone: '+61855501234',
  phoneDisplay: '08 5550 1234',
  abn: '12 345 678 901',
  email: 'bookings@example.com',
};

export const SITE: SiteInfo = {
  business: BUSINESS,
  siteUrl: 'https://www.example.com.au',
  stripePublishableKey: null,
};

export interface StubCall {
  method: string;
  path: string;
  search: string;
  body: unknown;
  headers: Record<string, string>;
}

export interface StubResponse {
  status?: number;
  json?: unknown;
  text?: string;
}
export type StubAnswer = StubResponse | ((call: StubCall) => StubResponse | Promise<StubResponse>);

/** Routes are "METHOD /path" (query ignored); the first match wins. Unknown calls answer 404. */
export function stubFetch(routes: Record<string, StubAnswer>) {
  const calls: StubCall[] = [];
  const fetchMock = jest.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://localhost',
    );
    const method = (init.method ?? 'GET').toUpperCase();
    let body: unknown = init.body;
    if (typeof init.body === 'string') {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    const headers = Object.fromEntries(Object.entries((init.headers as Record<string, string>) ?? {}));
    const call: StubCall = { method, path: url.pathname, search: url.search, body, headers };
    calls.push(call);
    const key = Object.keys(routes).find((route) => {
      const [m, p] = route.split(' ');
      if (m !== method || !p) return false;
      return p.endsWith('*') ? url.pathname.startsWith(p.slice(0, -1)) : url.pathname === p;
    });
    const route: StubAnswer = key ? routes[key]! : { status: 404, json: { message: 'Not found' } };
    const answer = typeof route === 'function' ? await route(call) : route;
    const status = answer.status ?? 200;
    const text = answer.text ?? (answer.json !== undefined ? JSON.stringify(answer.json) : '');
    // A minimal Response (jsdom has none): what @tyres/platform/api reads.
    return {
      ok: status >= 200 && status < 300,
      status,
      statusText: status < 300 ? 'OK' : 'Error',
      text: async () => text,
      json: async () => JSON.parse(text) as unknown,
    } as unknown as Response;
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  return { calls, fetchMock };
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export function renderWithSite(
  ui: ReactElement,
  { path = '/', site = SITE }: { path?: string; site?: SiteInfo } = {},
) {
  const queryClient = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <SiteProvider value={site}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="*" element={children} />
          </Routes>
          <LocationProbe />
        </MemoryRouter>
      </SiteProvider>
    </QueryClientProvider>
  );
  return { queryClient, ...render(ui, { wrapper }) };
}
