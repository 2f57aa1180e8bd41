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
  // The business calendar (issue 19): roster, leave, calendar blocks, public holidays, capacity.
  { prefix: '/api/dashboard/calendar', upstream: 'booking', access: 'admin' },
  { prefix: '/api/dashboard/prices', upstream: 'booking', access: 'admin' }, // price list administration (issue 19)
  // Cancelling a job's booking under the cancellation policy (issue 18): booking owns the slot and the terms.
  { prefix: '/api/dashboard/bookings', upstream: 'booking', access: 'admin' },
  { prefix: '/api/dashboard/jobs-with-details', upstream: 'jobs', access: 'staff' },
  { prefix: '/api/dashboard/jobs', upstream: 'jobs', access: 'staff' },
  { prefix: '/api/dashboard/technicians', upstream: 'jobs', access: 'staff' },
  { prefix: '/api/dashboard/customer-invoices', upstream: 'billing', access: 'staff' },
  { prefix: '/api/dashboard/purchase-invoices', upstream: 'billing', access: 'staff' },
  { prefix: '/api/dashboard/business-expenses', upstream: 'billing', access: 'admin' },
  { prefix: '/api/dashboard/refunds', upstream: 'billing', access: 'admin' },
  { prefix: '/api/dashboard/reports', upstream: 'reporting', access: 'admin' },
  { prefix: '/api/dashboard/notifications', upstream: 'notify', access: 'admin' },
  { pattern: /^\/api\/bookings\/[^/]+\/photos\/?$/, upstream: 'booking', access: 'public', upload: true },
  // "Manage my booking" (issue 18): the customer's page, by the token in its link; photos as at booking time.
  { pattern: /^\/api\/manage\/[^/]+\/photos\/?$/, upstream: 'booking', access: 'public', upload: true },
  { prefix: '/api/manage', upstream: 'booking', access: 'public' },
  { prefix: '/api/time-slots', upstream: 'booking', access: 'public' },
  { prefix: '/api/tyre-pricing', upstream: 'booking', access: 'public' },
  { prefix: '/api/pricing', upstream: 'booking', access: 'public' },
  { prefix: '/api/bookings', upstream: 'booking', access: 'public' },
  { prefix: '/api/booking-token', upstream: 'booking', access: 'public' },
  { prefix: '/api/suburbs', upstream: 'booking', access: 'public' },
  { prefix: '/api/addresses', upstream: 'booking', access: 'public' },
  { prefix: '/api/create-payment-intent-token', upstream: 'billing', access: 'public' },
  { prefix: '/api/payments', upstream: 'billing', access: 'public' },
  // "Pay now" (issue 18): an invoice's pay link, by the token in its link.
  { prefix: '/api/pay', upstream: 'billing', access: 'public' },
  // The review request's unsubscribe link (issue 18, Spam Act 2003): the token in the link is the credential.
  { prefix: '/api/unsubscribe', upstream: 'notify', access: 'public' },
];

export const WS_ROUTES: Route[] = [{ prefix: '/ws/notifications', upstream: 'notify', access: 'staff' }];

/** A route the gateway answers itself (auth-routes.ts). */
export interface OwnRoute {
  method: 'GET' | 'POST' | 'PATCH';
  /** Express path syntax (":userId" is one segment): the edge and the express router read the same string. */
  path: string;
  access: Access;
}

/** The gateway's own API: sessions and staff accounts. */
export const OWN_ROUTES = {
  login: { method: 'POST', path: '/api/login', access: 'public' },
  logout: { method: 'POST', path: '/api/logout', access: 'public' },
  currentUser: { method: 'GET', path: '/api/user', access: 'staff' },
  // Staff accounts are never self-service: registering is an admin action (docs/decisions.md).
  register: { method: 'POST', path: '/api/register', access: 'admin' },
  listUsers: { method: 'GET', path: '/api/admin/users', access: 'admin' },
  createUser: { method: 'POST', path: '/api/admin/users', access: 'admin' },
  setUserStatus: { method: 'PATCH', path: '/api/admin/users/:userId/status', access: 'admin' },
} as const satisfies Record<string, OwnRoute>;

export type OwnRouteName = keyof typeof OWN_ROUTES;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Matched the way express matches the same path (case-insensitive, optional trailing slash), so the access
// rule the edge applies is always the rule of the handler express then runs.
const OWN_PATTERNS = Object.values(OWN_ROUTES).map((route: OwnRoute) => ({
  route,
  pattern: new RegExp(
    `^${route.path
      .split('/')
      .map((s) => (s.startsWith(':') ? '[^/]+' : escapeRegExp(s)))
      .join('/')}/?$`,
    'i',
  ),
}));

/** The own route for this method and path; a GET route also answers HEAD, as in express. */
export function matchOwnRoute(method: string, path: string): OwnRoute | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  return OWN_PATTERNS.find((p) => p.route.method === m && p.pattern.test(path))?.route;
}

export function matchRoute(path: string, routes: Route[] = ROUTES): Route | undefined {
  for (const route of routes) {
    if (route.pattern?.test(path)) return route;
    if (route.prefix && (path === route.prefix || path.startsWith(`${route.prefix}/`))) return route;
  }
  return undefined;
}
