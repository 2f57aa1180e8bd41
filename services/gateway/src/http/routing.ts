/** Which service answers which public path, and who may call it (architecture section 3). */
export type Upstream = 'booking' | 'jobs' | 'billing' | 'reporting' | 'notify';
export type Access = 'public' | 'staff' | 'admin';

export interface Route {
  /** Path prefix matched on whole segments: "/api/bookings" matches "/api/bookings" and "/api/bookings/x". */
  prefix?: string;
  pattern?: RegExp;
  upstream: Upstream;
  access: Access;
  /** Body cap for this route in bytes when larger than the default (photo uploads). */
  upload?: boolean;
}

// Order matters: the first match wins, so specific entries come before their broader prefixes.
export const ROUTES: Route[] = [
  // Staff photo viewer is served by booking, which owns the photo bytes.
  { pattern: /^\/api\/dashboard\/jobs\/[^/]+\/photos\/[^/]+\/?$/, upstream: 'booking', access: 'staff' },
  { prefix: '/api/dashboard/timeslots', upstream: 'booking', access: 'admin' },
  { prefix: '/api/dashboard/jobs-with-details', upstream: 'jobs', access: 'staff' },
  { prefix: '/api/dashboard/jobs', upstream: 'jobs', access: 'staff' },
  { prefix: '/api/dashboard/technicians', upstream: 'jobs', access: 'staff' },
  { prefix: '/api/dashboard/customer-invoices', upstream: 'billing', access: 'staff' },
  { prefix: '/api/dashboard/purchase-invoices', upstream: 'billing', access: 'staff' },
  { prefix: '/api/dashboard/business-expenses', upstream: 'billing', access: 'admin' },
  { prefix: '/api/dashboard/reports', upstream: 'reporting', access: 'admin' },
  { prefix: '/api/dashboard/notifications', upstream: 'notify', access: 'admin' },
  { pattern: /^\/api\/bookings\/[^/]+\/photos\/?$/, upstream: 'booking', access: 'public', upload: true },
  { prefix: '/api/time-slots', upstream: 'booking', access: 'public' },
  { prefix: '/api/tyre-pricing', upstream: 'booking', access: 'public' },
  { prefix: '/api/pricing', upstream: 'booking', access: 'public' },
  { prefix: '/api/bookings', upstream: 'booking', access: 'public' },
  { prefix: '/api/booking-token', upstream: 'booking', access: 'public' },
  { prefix: '/api/suburbs', upstream: 'booking', access: 'public' },
  { prefix: '/api/addresses', upstream: 'booking', access: 'public' },
  { prefix: '/api/create-payment-intent-token', upstream: 'billing', access: 'public' },
  { prefix: '/api/payments', upstream: 'billing', access: 'public' },
];

export const WS_ROUTES: Route[] = [{ prefix: '/ws/notifications', upstream: 'notify', access: 'staff' }];

export function matchRoute(path: string, routes: Route[] = ROUTES): Route | undefined {
  for (const route of routes) {
    if (route.pattern?.test(path)) return route;
    if (route.prefix && (path === route.prefix || path.startsWith(`${route.prefix}/`))) return route;
  }
  return undefined;
}
