/**
 * The route catalogue of the fuzz suite (test/e2e/fuzz.e2e.test.ts): every call of spec section 7, every entry of
 * the gateway's routing table (services/gateway/src/http/routing.ts), the gateway's own auth routes and the
 * services' extra staff routes, as data. Each route says who may call it, what its path parameters, query and body
 * look like, and which field kinds the server must refuse. The suite iterates this list; a test fails when the
 * routing table gains a prefix no entry here covers, or a service gains a route this list does not have.
 */
import type { Upstream } from '../../services/gateway/src/http/routing';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Identity = 'anonymous' | 'technician' | 'admin';
/** Who may call a route: anyone, any signed-in staff member (scoped to their jobs), or an admin only. */
export type Access = 'public' | 'staff' | 'admin';

/** The ids and dates the suite creates before it starts (test/fuzz/fixtures.ts). */
export interface Fixtures {
  adminId: string;
  technicianId: string;
  /** A booked job, assigned to the technician. */
  jobId: string;
  jobNumber: string;
  lineItemId: string;
  invoiceId: string;
  invoiceItemId: string;
  purchaseId: string;
  expenseId: string;
  /** A free slot nobody books: bodies aim at it, so a write that slips through shows in its day. */
  freeDate: string;
  freeSlot: string;
  bookedDate: string;
  bookedSlot: string;
  /** Perth dates. */
  today: string;
  inThirtyDays: string;
}

/**
 * The kinds of value a field holds; each kind has values the server must refuse (test/fuzz/generators.ts).
 * "accountingDate" and "bookingDate" also refuse out-of-range dates (issue 14, item 6: tagged "issue14-6").
 */
export type Kind =
  | 'text'
  | 'email'
  | 'optionalEmail'
  | 'phone'
  | 'postcode'
  | 'registration'
  | 'money'
  | 'positiveMoney'
  | 'lineMoney'
  | 'accountingDate'
  | 'bookingDate'
  | 'rescheduleDate'
  | 'instant'
  | 'enum'
  | 'quantity'
  | 'year'
  | 'flag'
  | 'strictBool'
  | 'jobRef'
  | 'technicianRef'
  | 'tyreSize'
  | 'ignored';

export interface Field {
  /** Dotted path in the body ("customer.name") or the query parameter's name. */
  path: string;
  kind: Kind;
  required?: boolean;
  /** Longest accepted text. */
  max?: number;
  /** Text taken as typed (a password): blanks are a value, not a missing one. */
  untrimmed?: boolean;
  /** Accepted range of a number (quantity, year). */
  min?: number;
  maxValue?: number;
  values?: readonly string[];
}

export interface Param {
  /** The raw (already percent-encoded) value of a real target. */
  valid: (f: Fixtures) => string;
  /** True when the server must refuse anything but a real target (ids, dates, slots): hostile values expect 4xx. */
  strict: boolean;
}

export type Body =
  /** A JSON body validated against `fields`; `base` is a valid body. */
  | { kind: 'json'; base: (f: Fixtures) => Record<string, unknown>; fields: Field[]; requiresObject: boolean }
  /** The route reads no body: only what the parsing layer refuses (malformed JSON, NUL, oversize) can be sent. */
  | { kind: 'ignored' }
  | { kind: 'multipart' }
  /** Raw bytes checked by a signature (the Stripe webhook). */
  | { kind: 'signed' };

export interface QuerySpec {
  fields: Field[];
  /** A valid query string for this route (without "?"). */
  base?: (f: Fixtures) => string;
}

export interface RouteSpec {
  method: Method;
  /** Path template: "/api/dashboard/jobs/{id}". */
  path: string;
  access: Access;
  /** Where it is defined: spec section 7, a service's extra route, or the gateway itself. */
  source: 'spec' | 'service' | 'gateway';
  /** The service behind the gateway (undefined: the gateway answers itself). */
  upstream?: Upstream;
  params?: Record<string, Param>;
  query?: QuerySpec;
  body?: Body;
  /** State-changing: only requests the server must refuse are sent, and stored data is compared around them. */
  writes: boolean;
  /** Identities that may be used (logout with a real session would end it). */
  identities?: Identity[];
  /** Answers that are not JSON on success (images, PDFs, HTML). */
  binary?: boolean;
}

const enc = encodeURIComponent;
export const SLOTS = ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'] as const;
const SERVICE_TYPES = ['new-tyres', 'puncture-repair', 'battery-service', 'emergency-callout'] as const;
const JOB_STATUSES = ['new', 'in-progress', 'completed', 'invoiced', 'paid', 'cancelled'] as const;
const INVOICE_STATUSES = ['draft', 'sent', 'paid', 'overdue', 'cancelled'] as const;
const LINE_CATEGORIES = ['callout', 'tyre', 'labour', 'battery', 'note'] as const;
const EXPENSE_CATEGORIES = [
  'cost-of-goods-sold',
  'fuel',
  'rent',
  'utilities',
  'marketing',
  'insurance',
  'subscriptions',
  'admin',
  'tools',
  'vehicle',
  'misc',
] as const;

const uuidParam = (pick: (f: Fixtures) => string): Param => ({ valid: pick, strict: true });
const jobParam = uuidParam((f) => f.jobId);
const invoiceParam = uuidParam((f) => f.invoiceId);
const randomish = '3b241101-e2bb-4255-8caf-4136c566a962';
const manageToken: Param = { valid: () => 'fuzzNotARealManageToken0123456789abcdefghijk', strict: true };
const unsubscribeToken: Param = { valid: () => 'fuzzNotARealUnsubscribeToken0123456789abcde', strict: true };
const payToken: Param = { valid: () => 'fuzzNotARealPayToken0123456789abcdefghijklmn', strict: true };

// --- bodies ------------------------------------------------------------------------------------------------------

const bookingFields: Field[] = [
  { path: 'customer.name', kind: 'text', required: true, max: 200 },
  { path: 'customer.phone', kind: 'phone', required: true },
  { path: 'customer.email', kind: 'email', required: true },
  { path: 'vehicle.make', kind: 'text', required: true, max: 100 },
  { path: 'vehicle.model', kind: 'text', required: true, max: 100 },
  { path: 'vehicle.year', kind: 'year', required: true },
  { path: 'vehicle.registration', kind: 'registration', required: true },
  { path: 'vehicle.color', kind: 'ignored' },
  { path: 'job.serviceType', kind: 'enum', required: true, values: SERVICE_TYPES },
  { path: 'job.scheduledDate', kind: 'bookingDate', required: true },
  { path: 'job.timeSlot', kind: 'enum', required: true, values: SLOTS },
  { path: 'job.address', kind: 'text', required: true, max: 500 },
  { path: 'job.suburb', kind: 'text', required: true, max: 100 },
  { path: 'job.postcode', kind: 'postcode', required: true },
  { path: 'job.tyreSize', kind: 'tyreSize' },
  { path: 'job.tyreQuantity', kind: 'quantity', min: 1, maxValue: 4 },
  { path: 'job.tyreBrand', kind: 'text', max: 100 },
  { path: 'job.notes', kind: 'text', max: 2000 },
  { path: 'job.paymentMethod', kind: 'enum', values: ['onsite', 'prepaid'] },
  { path: 'job.customerValue', kind: 'ignored' },
  { path: 'job.status', kind: 'ignored' },
];

const bookingBody = (paymentMethod: 'onsite' | 'prepaid'): Body => ({
  kind: 'json',
  requiresObject: true,
  fields: bookingFields,
  base: (f) => ({
    customer: { name: 'Fuzz Customer', email: 'fuzz@example.com', phone: '0412 345 678' },
    vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, registration: 'FUZZ1' },
    job: {
      serviceType: 'new-tyres',
      scheduledDate: f.freeDate,
      timeSlot: f.freeSlot,
      address: '1 Fuzz Street',
      suburb: 'Rockingham',
      postcode: '6168',
      tyreSize: '205/55R16',
      tyreQuantity: 2,
      notes: 'fuzz',
      paymentMethod,
    },
  }),
});

const userFields: Field[] = [
  { path: 'username', kind: 'text', required: true, max: 50 },
  { path: 'password', kind: 'text', required: true, max: 200 },
  { path: 'email', kind: 'optionalEmail' },
  { path: 'role', kind: 'enum', values: ['admin', 'technician'] },
];
const userBody: Body = {
  kind: 'json',
  requiresObject: true,
  fields: userFields,
  base: () => ({ username: 'fuzzuser', password: 'fuzz-pass-123', email: '', role: 'technician' }),
};

const itemFields = (required: boolean): Field[] => [
  { path: 'description', kind: 'text', required, max: 1000 },
  { path: 'category', kind: 'enum', values: LINE_CATEGORIES },
  { path: 'quantity', kind: 'quantity', min: 1, maxValue: 10_000 },
  { path: 'unitPrice', kind: 'money', required },
  { path: 'gstFree', kind: 'flag' },
  { path: 'totalPrice', kind: 'ignored' },
];

const invoiceFields = (create: boolean): Field[] => [
  ...(create ? [{ path: 'jobId', kind: 'jobRef' as const, required: true }] : []),
  { path: 'status', kind: 'enum', values: INVOICE_STATUSES },
  { path: 'dueDate', kind: 'accountingDate', required: create },
  { path: 'invoiceDate', kind: 'accountingDate' },
  { path: 'amountType', kind: 'enum', values: ['inclusive', 'exclusive'] },
  { path: 'subtotalAmount', kind: 'money' },
  { path: 'gstAmount', kind: 'money' },
  { path: 'totalAmount', kind: 'money' },
];

const purchaseFields = (create: boolean): Field[] => [
  ...(create ? [{ path: 'jobId', kind: 'jobRef' as const, required: true }] : []),
  { path: 'invoiceNumber', kind: 'text', required: create, max: 100 },
  { path: 'supplierName', kind: 'text', required: create, max: 200 },
  { path: 'invoiceDate', kind: 'accountingDate' },
  { path: 'totalAmount', kind: 'positiveMoney', required: create },
  { path: 'totalIncGst', kind: 'ignored' },
  { path: 'gstAmount', kind: 'ignored' },
  { path: 'gstFree', kind: 'flag' },
  { path: 'category', kind: 'ignored' },
  { path: 'dueDate', kind: 'accountingDate' },
  { path: 'isPaid', kind: 'flag' },
  { path: 'paidAt', kind: 'instant' },
  { path: 'notes', kind: 'text', max: 5000 },
];

const expenseFields = (create: boolean): Field[] => [
  { path: 'supplierName', kind: 'text', required: create, max: 200 },
  { path: 'invoiceNumber', kind: 'text', max: 100 },
  { path: 'description', kind: 'text', required: create, max: 1000 },
  { path: 'amount', kind: 'positiveMoney', required: create },
  { path: 'totalIncGst', kind: 'ignored' },
  { path: 'gstAmount', kind: 'ignored' },
  { path: 'gstFree', kind: 'flag' },
  { path: 'category', kind: 'enum', required: create, values: EXPENSE_CATEGORIES },
  { path: 'expenseDate', kind: 'accountingDate', required: create },
  { path: 'dueDate', kind: 'accountingDate' },
  { path: 'isPaid', kind: 'flag' },
  { path: 'notes', kind: 'text', max: 5000 },
];

const jobLineFields = (create: boolean): Field[] => [
  { path: 'type', kind: 'text', max: 50 },
  { path: 'category', kind: 'enum', values: LINE_CATEGORIES },
  { path: 'description', kind: 'text', required: create, max: 1000 },
  { path: 'quantity', kind: 'quantity', min: 1, maxValue: 10_000 },
  { path: 'unitCost', kind: 'lineMoney' },
  { path: 'unitPrice', kind: 'lineMoney', required: create },
];

const json = (
  fields: Field[],
  base: (f: Fixtures) => Record<string, unknown>,
  requiresObject = true,
): Body => ({ kind: 'json', fields, base, requiresObject });

// --- queries -----------------------------------------------------------------------------------------------------

const jobListQuery: QuerySpec = {
  fields: [
    { path: 'status', kind: 'enum', values: ['all', ...JOB_STATUSES] },
    {
      path: 'scheduleStatus',
      kind: 'enum',
      values: ['all', 'pending', 'confirmed', 'in_progress', 'completed', 'cancelled'],
    },
    { path: 'page', kind: 'quantity', min: 1, maxValue: 1_000_000 },
    { path: 'pageSize', kind: 'quantity', min: 1, maxValue: 100 },
    // The schedule calendar's date range (Perth dates, both or neither, at most 62 days).
    { path: 'scheduledFrom', kind: 'accountingDate' },
    { path: 'scheduledTo', kind: 'accountingDate' },
  ],
  base: () => 'page=1&pageSize=20',
};
const periodQuery: QuerySpec = {
  fields: [
    { path: 'startDate', kind: 'accountingDate' },
    { path: 'endDate', kind: 'accountingDate' },
  ],
  base: (f) => `startDate=${f.today.slice(0, 4)}-01-01&endDate=${f.today}`,
};
const slotDateQuery: QuerySpec = {
  fields: [{ path: 'date', kind: 'bookingDate', required: true }],
  base: (f) => `date=${f.freeDate}`,
};

const dateParam: Param = { valid: (f) => f.freeDate, strict: true };
const slotParam: Param = { valid: (f) => enc(f.freeSlot), strict: true };

// --- the catalogue -----------------------------------------------------------------------------------------------

export const CATALOGUE: RouteSpec[] = [
  // Gateway: sessions and staff accounts (services/gateway/src/http/auth-routes.ts).
  {
    method: 'POST',
    path: '/api/login',
    access: 'public',
    source: 'spec',
    writes: true,
    body: json(
      [
        { path: 'username', kind: 'text', required: true, max: 100 },
        { path: 'password', kind: 'text', required: true, max: 200, untrimmed: true },
      ],
      // Never a real account: a well-formed wrong password would count towards its lock-out.
      () => ({ username: 'fuzz-nobody', password: 'not-the-password' }),
    ),
  },
  {
    method: 'POST',
    path: '/api/logout',
    access: 'public',
    source: 'spec',
    writes: true,
    body: { kind: 'ignored' },
    identities: ['anonymous'],
  },
  { method: 'GET', path: '/api/user', access: 'staff', source: 'spec', writes: false },
  { method: 'POST', path: '/api/register', access: 'admin', source: 'spec', writes: true, body: userBody },
  { method: 'GET', path: '/api/admin/users', access: 'admin', source: 'spec', writes: false },
  { method: 'POST', path: '/api/admin/users', access: 'admin', source: 'spec', writes: true, body: userBody },
  {
    method: 'PATCH',
    path: '/api/admin/users/{userId}/status',
    access: 'admin',
    source: 'spec',
    writes: true,
    params: { userId: uuidParam((f) => f.technicianId) },
    body: json([{ path: 'isActive', kind: 'strictBool', required: true }], () => ({ isActive: true })),
  },

  // Booking: public.
  {
    method: 'GET',
    path: '/api/time-slots',
    access: 'public',
    source: 'spec',
    upstream: 'booking',
    writes: false,
    query: slotDateQuery,
  },
  {
    method: 'GET',
    path: '/api/time-slots/availability',
    access: 'public',
    source: 'spec',
    upstream: 'booking',
    writes: false,
    query: slotDateQuery,
  },
  {
    method: 'GET',
    path: '/api/time-slots/{date}',
    access: 'public',
    source: 'spec',
    upstream: 'booking',
    writes: false,
    params: { date: dateParam },
  },
  {
    method: 'GET',
    path: '/api/tyre-pricing/{tyreSize}',
    access: 'public',
    source: 'spec',
    upstream: 'booking',
    writes: false,
    params: { tyreSize: { valid: () => enc('205/55R16'), strict: false } },
    query: { fields: [{ path: 'brand', kind: 'ignored' }] },
  },
  {
    method: 'GET',
    path: '/api/pricing',
    access: 'public',
    source: 'service',
    upstream: 'booking',
    writes: false,
  },
  {
    method: 'POST',
    path: '/api/pricing/quote',
    access: 'public',
    source: 'spec',
    upstream: 'booking',
    // Computes a price, stores nothing: generated bodies may be valid.
    writes: false,
    body: json(
      [
        { path: 'serviceType', kind: 'enum', required: true, values: SERVICE_TYPES },
        { path: 'tyreSize', kind: 'tyreSize' },
        { path: 'quantity', kind: 'quantity', min: 1, maxValue: 4 },
        { path: 'tyreQuantity', kind: 'quantity', min: 1, maxValue: 4 },
        { path: 'tyreBrand', kind: 'text', max: 100 },
        { path: 'prepaid', kind: 'strictBool' },
        { path: 'paymentMethod', kind: 'enum', values: ['onsite', 'prepaid'] },
      ],
      () => ({ serviceType: 'new-tyres', tyreSize: '205/55R16', quantity: 2, prepaid: true }),
    ),
  },
  {
    method: 'POST',
    path: '/api/bookings',
    access: 'public',
    source: 'spec',
    upstream: 'booking',
    writes: true,
    body: bookingBody('onsite'),
  },
  {
    method: 'POST',
    path: '/api/bookings/quote',
    access: 'public',
    source: 'spec',
    upstream: 'booking',
    writes: true,
    body: bookingBody('prepaid'),
  },
  {
    method: 'POST',
    path: '/api/bookings/{jobId}/photos',
    access: 'public',
    source: 'spec',
    upstream: 'booking',
    writes: true,
    params: { jobId: jobParam },
    body: { kind: 'multipart' },
  },
  {
    method: 'GET',
    path: '/api/booking-token/{token}',
    access: 'public',
    source: 'spec',
    upstream: 'booking',
    writes: false,
    params: { token: { valid: () => 'bt_fuzzNotARealToken0123456789abcdefghijk', strict: true } },
  },
  {
    method: 'GET',
    path: '/api/suburbs',
    access: 'public',
    source: 'service',
    upstream: 'booking',
    writes: false,
  },
  {
    method: 'GET',
    path: '/api/suburbs/search',
    access: 'public',
    source: 'service',
    upstream: 'booking',
    writes: false,
    query: { fields: [{ path: 'q', kind: 'ignored' }], base: () => 'q=rock' },
  },
  {
    method: 'GET',
    path: '/api/suburbs/{slug}',
    access: 'public',
    source: 'spec',
    upstream: 'booking',
    writes: false,
    params: { slug: { valid: () => 'mobile-tyres-rockingham', strict: false } },
  },
  {
    method: 'GET',
    path: '/api/addresses/suggestions',
    access: 'public',
    source: 'spec',
    upstream: 'booking',
    writes: false,
    query: {
      fields: [
        { path: 'q', kind: 'ignored' },
        { path: 'sessionToken', kind: 'ignored' },
      ],
      base: () => 'q=10%20Rockingham&sessionToken=fuzz',
    },
  },

  // Booking: manage my booking (issue 18). The token is never a real one: every request is refused (404), nothing
  // changes; the pages' own behaviour is covered by booking's integration suite and the manage e2e test.
  {
    method: 'GET',
    path: '/api/manage/{token}',
    access: 'public',
    source: 'service',
    upstream: 'booking',
    writes: false,
    params: { token: manageToken },
  },
  {
    method: 'PATCH',
    path: '/api/manage/{token}',
    access: 'public',
    source: 'service',
    upstream: 'booking',
    writes: true,
    params: { token: manageToken },
    body: json([{ path: 'phone', kind: 'phone', required: false }], () => ({ phone: '0412 345 678' })),
  },
  {
    method: 'POST',
    path: '/api/manage/{token}/reschedule',
    access: 'public',
    source: 'service',
    upstream: 'booking',
    writes: true,
    params: { token: manageToken },
    body: json(
      [
        { path: 'scheduledDate', kind: 'bookingDate', required: true },
        { path: 'timeSlot', kind: 'enum', values: SLOTS, required: true },
      ],
      (f) => ({ scheduledDate: f.freeDate, timeSlot: f.freeSlot }),
    ),
  },
  {
    method: 'POST',
    path: '/api/manage/{token}/cancel',
    access: 'public',
    source: 'service',
    upstream: 'booking',
    writes: true,
    params: { token: manageToken },
    body: { kind: 'ignored' },
  },
  {
    method: 'POST',
    path: '/api/manage/{token}/photos',
    access: 'public',
    source: 'service',
    upstream: 'booking',
    writes: true,
    params: { token: manageToken },
    body: { kind: 'multipart' },
  },
  // notify: the review request's unsubscribe link (issue 18). Never a real token: 404, nobody is unsubscribed.
  {
    method: 'GET',
    path: '/api/unsubscribe/{token}',
    access: 'public',
    source: 'service',
    upstream: 'notify',
    writes: false,
    params: { token: unsubscribeToken },
  },
  {
    method: 'POST',
    path: '/api/unsubscribe/{token}',
    access: 'public',
    source: 'service',
    upstream: 'notify',
    writes: true,
    params: { token: unsubscribeToken },
    body: { kind: 'ignored' },
  },
  // Booking: staff cancel (admin) of a job that does not exist, so nothing is cancelled.
  {
    method: 'GET',
    path: '/api/dashboard/bookings/{jobId}/cancellation',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: false,
    params: { jobId: jobParam },
  },
  {
    method: 'POST',
    path: '/api/dashboard/bookings/{jobId}/cancel',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: true,
    params: { jobId: uuidParam(() => randomish) },
    body: json([{ path: 'reason', kind: 'text', required: true }], () => ({ reason: 'Fuzz' })),
  },
  // Erase a customer (admin, issue 18 privacy) of a job that does not exist, so nobody is erased; `confirm` stays true.
  {
    method: 'POST',
    path: '/api/dashboard/bookings/{jobId}/erase-customer',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: true,
    params: { jobId: uuidParam(() => randomish) },
    body: json([{ path: 'reason', kind: 'text', required: true, max: 500 }], () => ({
      reason: 'Fuzz',
      confirm: true,
    })),
  },
  // Mark no-show (admin) of a job that does not exist, so nothing is marked.
  {
    method: 'POST',
    path: '/api/dashboard/bookings/{jobId}/no-show',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: true,
    params: { jobId: uuidParam(() => randomish) },
    body: json([{ path: 'note', kind: 'text', max: 500 }], () => ({ note: 'Fuzz' })),
  },
  // Billing: refunds (issue 18).
  {
    method: 'GET',
    path: '/api/dashboard/refunds',
    access: 'admin',
    source: 'service',
    upstream: 'billing',
    writes: false,
  },
  {
    method: 'POST',
    path: '/api/dashboard/refunds/{id}/retry',
    access: 'admin',
    source: 'service',
    upstream: 'billing',
    writes: true,
    params: { id: uuidParam(() => randomish) },
    body: { kind: 'ignored' },
  },

  // Billing: public payment calls.
  // Billing: an invoice's "Pay now" link (issue 18). Never a real token: 404, no intent is made.
  {
    method: 'GET',
    path: '/api/pay/{token}',
    access: 'public',
    source: 'service',
    upstream: 'billing',
    writes: false,
    params: { token: payToken },
  },
  {
    method: 'POST',
    path: '/api/pay/{token}/payment-intent',
    access: 'public',
    source: 'service',
    upstream: 'billing',
    writes: true,
    params: { token: payToken },
    body: { kind: 'ignored' },
  },
  {
    method: 'POST',
    path: '/api/create-payment-intent-token',
    access: 'public',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    body: json([{ path: 'bookingToken', kind: 'text', required: true, max: 200 }], () => ({
      bookingToken: 'bt_fuzzNotARealToken0123456789abcdefghijk',
    })),
  },
  {
    method: 'GET',
    path: '/api/payments/config',
    access: 'public',
    source: 'service',
    upstream: 'billing',
    writes: false,
  },
  {
    method: 'POST',
    path: '/api/payments/test-mode/confirm',
    access: 'public',
    source: 'service',
    upstream: 'billing',
    writes: true,
    body: json(
      [
        { path: 'clientSecret', kind: 'text', required: true, max: 300 },
        { path: 'cardNumber', kind: 'text', required: true, max: 30 },
      ],
      () => ({ clientSecret: 'pi_fuzz_secret_nothing', cardNumber: '4242424242424242' }),
    ),
  },
  {
    method: 'POST',
    path: '/api/payments/webhook',
    access: 'public',
    source: 'service',
    upstream: 'billing',
    writes: true,
    body: { kind: 'signed' },
  },

  // Booking: dashboard (time slots, photo viewer).
  {
    method: 'GET',
    path: '/api/dashboard/timeslots',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: false,
    query: slotDateQuery,
  },
  {
    method: 'GET',
    path: '/api/dashboard/timeslots/{date}',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: false,
    params: { date: dateParam },
  },
  {
    method: 'PATCH',
    path: '/api/dashboard/timeslots/{date}/{slot}/block',
    access: 'admin',
    source: 'spec',
    upstream: 'booking',
    writes: true,
    params: { date: dateParam, slot: slotParam },
    body: json([{ path: 'reason', kind: 'text', required: true, max: 500 }], () => ({ reason: 'Fuzz' })),
  },
  {
    method: 'PATCH',
    path: '/api/dashboard/timeslots/{date}/{slot}/unblock',
    access: 'admin',
    source: 'spec',
    upstream: 'booking',
    writes: true,
    params: { date: dateParam, slot: slotParam },
    body: { kind: 'ignored' },
  },
  // Booking: the business calendar (issue 19): roster, leave, calendar blocks, public holidays, capacity.
  {
    method: 'GET',
    path: '/api/dashboard/calendar/roster',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: false,
  },
  {
    method: 'PUT',
    path: '/api/dashboard/calendar/roster/{userId}',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: true,
    params: { userId: uuidParam(() => randomish) },
    body: json([], () => ({ weekdays: [1, 2, 3, 4, 5] })),
  },
  {
    method: 'POST',
    path: '/api/dashboard/calendar/roster/{userId}/leave',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: true,
    params: { userId: uuidParam(() => randomish) },
    body: json(
      [
        { path: 'startDate', kind: 'bookingDate', required: true },
        { path: 'endDate', kind: 'bookingDate', required: true },
        { path: 'reason', kind: 'text', required: true, max: 200 },
      ],
      (f) => ({ startDate: f.freeDate, endDate: f.freeDate, reason: 'Fuzz' }),
    ),
  },
  {
    method: 'DELETE',
    path: '/api/dashboard/calendar/roster/{userId}/leave/{leaveId}',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: true,
    params: { userId: uuidParam(() => randomish), leaveId: uuidParam(() => randomish) },
    body: { kind: 'ignored' },
  },
  {
    method: 'GET',
    path: '/api/dashboard/calendar/blocks',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: false,
  },
  {
    method: 'POST',
    path: '/api/dashboard/calendar/blocks',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: true,
    body: json(
      [
        { path: 'kind', kind: 'enum', required: true, values: ['day', 'range', 'recurring'] },
        { path: 'date', kind: 'bookingDate', required: true },
        { path: 'reason', kind: 'text', required: true, max: 200 },
      ],
      (f) => ({ kind: 'day', date: f.freeDate, reason: 'Fuzz' }),
    ),
  },
  {
    method: 'DELETE',
    path: '/api/dashboard/calendar/blocks/{id}',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: true,
    params: { id: uuidParam(() => randomish) },
    body: { kind: 'ignored' },
  },
  {
    method: 'GET',
    path: '/api/dashboard/calendar/holidays',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: false,
  },
  {
    method: 'PUT',
    path: '/api/dashboard/calendar/holidays/{date}/open',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: true,
    params: { date: dateParam },
    body: json([{ path: 'reason', kind: 'text', max: 200 }], () => ({ reason: 'Fuzz' })),
  },
  {
    method: 'DELETE',
    path: '/api/dashboard/calendar/holidays/{date}/open',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: true,
    params: { date: dateParam },
    body: { kind: 'ignored' },
  },
  {
    method: 'GET',
    path: '/api/dashboard/calendar/capacity',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: false,
    // An admin may look up any calendar day's capacity, past ones included (not the booking window the public
    // lists keep): the date is not generated as a booking date; malformed dates are refused by isCalendarDate.
    query: { fields: [{ path: 'date', kind: 'ignored', required: true }], base: (f) => `date=${f.freeDate}` },
  },
  {
    method: 'GET',
    path: '/api/dashboard/calendar/jobs/{jobId}/technician-suggestion',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: false,
    params: { jobId: jobParam },
  },
  // Booking: price list administration (issue 19 item 5): fees and the tyre catalogue, versioned by effective-from.
  {
    method: 'GET',
    path: '/api/dashboard/prices',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: false,
  },
  {
    method: 'GET',
    path: '/api/dashboard/prices/audit',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: false,
  },
  {
    method: 'PUT',
    path: '/api/dashboard/prices/fees',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: true,
    body: json(
      [
        { path: 'calloutFee', kind: 'money', required: true },
        { path: 'punctureRepair', kind: 'money', required: true },
        { path: 'fittingPerTyre', kind: 'money', required: true },
        { path: 'balancingPerTyre', kind: 'money', required: true },
        { path: 'prepaidDiscount', kind: 'money', required: true },
        { path: 'effectiveFrom', kind: 'instant' },
        { path: 'reason', kind: 'text', required: true, max: 500 },
      ],
      () => ({
        calloutFee: '89.80',
        punctureRepair: '40.00',
        fittingPerTyre: '25.00',
        balancingPerTyre: '15.00',
        prepaidDiscount: '30.00',
        reason: 'Fuzz',
      }),
    ),
  },
  {
    method: 'POST',
    path: '/api/dashboard/prices/tyres',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: true,
    body: json(
      [
        { path: 'size', kind: 'tyreSize', required: true },
        { path: 'brand', kind: 'text', required: true, max: 60 },
        { path: 'model', kind: 'text', required: true, max: 80 },
        { path: 'price', kind: 'positiveMoney', required: true },
        { path: 'inStock', kind: 'strictBool' },
        { path: 'effectiveFrom', kind: 'instant' },
        { path: 'reason', kind: 'text', required: true, max: 500 },
      ],
      () => ({
        size: '205/55R16',
        brand: 'Fuzz',
        model: 'Fuzz 1',
        price: '149.00',
        inStock: true,
        reason: 'Fuzz',
      }),
    ),
  },
  {
    method: 'PUT',
    path: '/api/dashboard/prices/tyres/{id}',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: true,
    params: { id: uuidParam(() => randomish) },
    body: json(
      [
        { path: 'price', kind: 'positiveMoney' },
        { path: 'inStock', kind: 'strictBool' },
        { path: 'effectiveFrom', kind: 'instant' },
        { path: 'reason', kind: 'text', required: true, max: 500 },
      ],
      () => ({ price: '149.00', reason: 'Fuzz' }),
    ),
  },
  {
    method: 'DELETE',
    path: '/api/dashboard/prices/changes/{id}',
    access: 'admin',
    source: 'service',
    upstream: 'booking',
    writes: true,
    params: { id: uuidParam(() => randomish) },
    body: json([{ path: 'reason', kind: 'text', required: true, max: 500 }], () => ({ reason: 'Fuzz' })),
  },
  {
    method: 'GET',
    path: '/api/dashboard/jobs/{jobId}/photos/{photoId}',
    access: 'staff',
    source: 'spec',
    upstream: 'booking',
    writes: false,
    binary: true,
    params: { jobId: jobParam, photoId: uuidParam(() => randomish) },
  },

  // Jobs.
  {
    method: 'GET',
    path: '/api/dashboard/jobs',
    access: 'staff',
    source: 'spec',
    upstream: 'jobs',
    writes: false,
    query: jobListQuery,
  },
  {
    method: 'GET',
    path: '/api/dashboard/jobs-with-details',
    access: 'staff',
    source: 'spec',
    upstream: 'jobs',
    writes: false,
    query: jobListQuery,
  },
  {
    method: 'GET',
    path: '/api/dashboard/jobs/{id}',
    access: 'staff',
    source: 'spec',
    upstream: 'jobs',
    writes: false,
    params: { id: jobParam },
  },
  // Issue 19: an admin edits a job after booking (price, address, vehicle, notes, tyre details) with a reason and the
  // edit version the form was opened at (a stale version is 409).
  {
    method: 'PATCH',
    path: '/api/dashboard/jobs/{id}',
    access: 'admin',
    source: 'service',
    upstream: 'jobs',
    writes: true,
    params: { id: jobParam },
    body: json(
      [
        { path: 'customerValue', kind: 'money' },
        { path: 'address', kind: 'text', max: 500 },
        { path: 'suburb', kind: 'text', max: 100 },
        { path: 'postcode', kind: 'postcode' },
        { path: 'vehicle.make', kind: 'text', required: true, max: 100 },
        { path: 'vehicle.model', kind: 'text', required: true, max: 100 },
        { path: 'vehicle.year', kind: 'year', required: true },
        { path: 'vehicle.registration', kind: 'registration', required: true },
        { path: 'notes', kind: 'text', max: 2000 },
        { path: 'tyreSize', kind: 'tyreSize' },
        { path: 'tyreQuantity', kind: 'quantity', min: 1, maxValue: 4 },
        { path: 'tyreBrand', kind: 'text', max: 100 },
        { path: 'reason', kind: 'text', required: true, max: 500 },
        { path: 'version', kind: 'quantity', required: true, min: 0, maxValue: 2_147_483_647 },
      ],
      () => ({
        notes: 'Fuzz edit',
        vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, registration: '1ABC234' },
        reason: 'Fuzz check',
        version: 0,
      }),
    ),
  },
  {
    method: 'GET',
    path: '/api/dashboard/jobs/{id}/history',
    access: 'staff',
    source: 'service',
    upstream: 'jobs',
    writes: false,
    params: { id: jobParam },
  },
  {
    method: 'PATCH',
    path: '/api/dashboard/jobs/{id}/status',
    access: 'staff',
    source: 'spec',
    upstream: 'jobs',
    writes: true,
    params: { id: jobParam },
    body: json(
      [
        { path: 'status', kind: 'enum', required: true, values: JOB_STATUSES },
        { path: 'notifyCustomer', kind: 'strictBool' },
      ],
      () => ({ status: 'new', notifyCustomer: false }),
    ),
  },
  {
    method: 'PATCH',
    path: '/api/dashboard/jobs/{jobId}/assign',
    access: 'admin',
    source: 'spec',
    upstream: 'jobs',
    writes: true,
    params: { jobId: jobParam },
    body: json([{ path: 'technicianId', kind: 'technicianRef', required: true }], (f) => ({
      technicianId: f.technicianId,
    })),
  },
  {
    method: 'PUT',
    path: '/api/dashboard/jobs/{id}/reschedule',
    access: 'admin',
    source: 'spec',
    upstream: 'jobs',
    writes: true,
    params: { id: jobParam },
    body: json(
      [
        { path: 'scheduledDate', kind: 'rescheduleDate', required: true },
        { path: 'timeSlot', kind: 'enum', required: true, values: SLOTS },
      ],
      (f) => ({ scheduledDate: f.freeDate, timeSlot: f.freeSlot }),
      false,
    ),
  },
  {
    method: 'DELETE',
    path: '/api/dashboard/jobs/{id}',
    access: 'admin',
    source: 'spec',
    upstream: 'jobs',
    writes: true,
    params: { id: jobParam },
    body: { kind: 'ignored' },
  },
  {
    method: 'GET',
    path: '/api/dashboard/jobs/{id}/line-items',
    access: 'staff',
    source: 'service',
    upstream: 'jobs',
    writes: false,
    params: { id: jobParam },
  },
  {
    method: 'POST',
    path: '/api/dashboard/jobs/{id}/line-items',
    access: 'admin',
    source: 'service',
    upstream: 'jobs',
    writes: true,
    params: { id: jobParam },
    body: json(jobLineFields(true), () => ({
      type: 'item',
      category: 'labour',
      description: 'Fuzz line',
      quantity: 1,
      unitCost: '1.00',
      unitPrice: '2.00',
    })),
  },
  {
    method: 'PATCH',
    path: '/api/dashboard/jobs/{id}/line-items/{itemId}',
    access: 'admin',
    source: 'service',
    upstream: 'jobs',
    writes: true,
    params: { id: jobParam, itemId: uuidParam((f) => f.lineItemId) },
    body: json(jobLineFields(false), () => ({ description: 'Fuzz line changed' })),
  },
  {
    method: 'DELETE',
    path: '/api/dashboard/jobs/{id}/line-items/{itemId}',
    access: 'admin',
    source: 'service',
    upstream: 'jobs',
    writes: true,
    params: { id: jobParam, itemId: uuidParam((f) => f.lineItemId) },
    body: { kind: 'ignored' },
  },
  {
    method: 'GET',
    path: '/api/dashboard/technicians',
    access: 'staff',
    source: 'spec',
    upstream: 'jobs',
    writes: false,
  },
  {
    method: 'GET',
    path: '/api/dashboard/technicians/{id}/jobs',
    access: 'staff',
    source: 'spec',
    upstream: 'jobs',
    writes: false,
    // A filter for an admin: an id nobody has lists no jobs (200 []).
    params: { id: { valid: (f) => f.technicianId, strict: false } },
    query: jobListQuery,
  },

  // Billing: customer invoices.
  {
    method: 'GET',
    path: '/api/dashboard/customer-invoices',
    access: 'admin',
    source: 'spec',
    upstream: 'billing',
    writes: false,
    query: {
      fields: [
        { path: 'status', kind: 'enum', values: ['all', ...INVOICE_STATUSES] },
        { path: 'search', kind: 'text', max: 200 },
        { path: 'jobId', kind: 'jobRef' },
        { path: 'limit', kind: 'quantity', min: 1, maxValue: 500 },
        { path: 'offset', kind: 'quantity', min: 0, maxValue: Number.MAX_SAFE_INTEGER },
      ],
      base: () => 'status=all&limit=50&offset=0',
    },
  },
  {
    method: 'GET',
    path: '/api/dashboard/customer-invoices/email-log',
    access: 'admin',
    source: 'service',
    upstream: 'billing',
    writes: false,
    query: { fields: [{ path: 'limit', kind: 'ignored' }] },
  },
  {
    method: 'POST',
    path: '/api/dashboard/customer-invoices/generate/{jobId}',
    access: 'staff',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    params: { jobId: jobParam },
    body: { kind: 'ignored' },
  },
  {
    method: 'POST',
    path: '/api/dashboard/customer-invoices',
    access: 'staff',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    body: json(invoiceFields(true), (f) => ({ jobId: f.jobId, status: 'draft', dueDate: f.inThirtyDays })),
  },
  {
    method: 'GET',
    path: '/api/dashboard/customer-invoices/job/{jobId}',
    access: 'staff',
    source: 'spec',
    upstream: 'billing',
    writes: false,
    params: { jobId: jobParam },
  },
  {
    method: 'GET',
    path: '/api/dashboard/customer-invoices/{id}',
    access: 'staff',
    source: 'spec',
    upstream: 'billing',
    writes: false,
    params: { id: invoiceParam },
  },
  {
    method: 'PATCH',
    path: '/api/dashboard/customer-invoices/{id}',
    access: 'admin',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    params: { id: invoiceParam },
    body: json(invoiceFields(false), (f) => ({ status: 'draft', dueDate: f.inThirtyDays })),
  },
  {
    method: 'DELETE',
    path: '/api/dashboard/customer-invoices/{id}',
    access: 'admin',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    params: { id: invoiceParam },
    body: { kind: 'ignored' },
  },
  {
    method: 'GET',
    path: '/api/dashboard/customer-invoices/{id}/items',
    access: 'staff',
    source: 'spec',
    upstream: 'billing',
    writes: false,
    params: { id: invoiceParam },
  },
  {
    method: 'POST',
    path: '/api/dashboard/customer-invoices/{id}/items',
    access: 'staff',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    params: { id: invoiceParam },
    body: json(itemFields(true), () => ({
      description: 'Fuzz labour',
      category: 'labour',
      quantity: 1,
      unitPrice: '10.00',
      totalPrice: '10.00',
    })),
  },
  {
    method: 'PATCH',
    path: '/api/dashboard/customer-invoices/{id}/items/{itemId}',
    access: 'staff',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    params: { id: invoiceParam, itemId: uuidParam((f) => f.invoiceItemId) },
    body: json(itemFields(false), () => ({ description: 'Fuzz labour changed' })),
  },
  {
    method: 'DELETE',
    path: '/api/dashboard/customer-invoices/{id}/items/{itemId}',
    access: 'staff',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    params: { id: invoiceParam, itemId: uuidParam((f) => f.invoiceItemId) },
    body: { kind: 'ignored' },
  },
  {
    method: 'POST',
    path: '/api/dashboard/customer-invoices/{id}/pdf',
    access: 'staff',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    params: { id: invoiceParam },
    body: { kind: 'ignored' },
  },
  {
    method: 'GET',
    path: '/api/dashboard/customer-invoices/{id}/pdf',
    access: 'staff',
    source: 'service',
    upstream: 'billing',
    writes: false,
    binary: true,
    params: { id: invoiceParam },
  },
  {
    method: 'POST',
    path: '/api/dashboard/customer-invoices/{id}/email',
    access: 'staff',
    source: 'service',
    upstream: 'billing',
    writes: true,
    params: { id: invoiceParam },
    body: json([{ path: 'to', kind: 'optionalEmail' }], () => ({ to: 'fuzz@example.com' }), false),
  },
  {
    method: 'GET',
    path: '/api/dashboard/customer-invoices/{id}/emails',
    access: 'staff',
    source: 'service',
    upstream: 'billing',
    writes: false,
    params: { id: invoiceParam },
  },
  {
    method: 'GET',
    path: '/api/dashboard/customer-invoices/{id}/emails/{deliveryId}/message',
    access: 'staff',
    source: 'service',
    upstream: 'billing',
    writes: false,
    binary: true,
    params: { id: invoiceParam, deliveryId: uuidParam(() => randomish) },
  },

  // Billing: purchase invoices.
  {
    method: 'GET',
    path: '/api/dashboard/purchase-invoices/job/{jobId}',
    access: 'staff',
    source: 'spec',
    upstream: 'billing',
    writes: false,
    params: { jobId: jobParam },
  },
  {
    method: 'POST',
    path: '/api/dashboard/purchase-invoices',
    access: 'staff',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    body: json(purchaseFields(true), (f) => ({
      jobId: f.jobId,
      invoiceNumber: 'FUZZ-PI-2',
      supplierName: 'Fuzz Tyres Pty Ltd',
      invoiceDate: f.today,
      totalAmount: '110.00',
      gstAmount: '10.00',
      category: 'cost-of-goods-sold',
      isPaid: false,
    })),
  },
  {
    method: 'PATCH',
    path: '/api/dashboard/purchase-invoices/{id}',
    access: 'staff',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    params: { id: uuidParam((f) => f.purchaseId) },
    body: json(purchaseFields(false), () => ({ supplierName: 'Fuzz Tyres Changed', isPaid: true })),
  },
  {
    method: 'DELETE',
    path: '/api/dashboard/purchase-invoices/{id}',
    access: 'staff',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    params: { id: uuidParam((f) => f.purchaseId) },
    body: { kind: 'ignored' },
  },

  // Billing: business expenses.
  {
    method: 'GET',
    path: '/api/dashboard/business-expenses',
    access: 'admin',
    source: 'spec',
    upstream: 'billing',
    writes: false,
    query: {
      fields: [
        { path: 'category', kind: 'enum', values: ['all', ...EXPENSE_CATEGORIES] },
        { path: 'paid', kind: 'enum', values: ['true', 'false', 'paid', 'unpaid', 'all'] },
        { path: 'isPaid', kind: 'enum', values: ['true', 'false'] },
      ],
      base: () => 'category=all',
    },
  },
  {
    method: 'GET',
    path: '/api/dashboard/business-expenses/{id}',
    access: 'admin',
    source: 'service',
    upstream: 'billing',
    writes: false,
    params: { id: uuidParam((f) => f.expenseId) },
  },
  {
    method: 'POST',
    path: '/api/dashboard/business-expenses',
    access: 'admin',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    body: json(expenseFields(true), (f) => ({
      supplierName: 'Fuzz Fuel',
      invoiceNumber: 'FUZZ-E-2',
      description: 'Fuel',
      amount: '55.00',
      gstAmount: '5.00',
      category: 'fuel',
      expenseDate: f.today,
      dueDate: f.inThirtyDays,
      isPaid: false,
      notes: 'fuzz',
    })),
  },
  {
    method: 'PATCH',
    path: '/api/dashboard/business-expenses/{id}/mark-paid',
    access: 'admin',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    params: { id: uuidParam((f) => f.expenseId) },
    body: { kind: 'ignored' },
  },
  {
    method: 'PATCH',
    path: '/api/dashboard/business-expenses/{id}',
    access: 'admin',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    params: { id: uuidParam((f) => f.expenseId) },
    body: json(expenseFields(false), () => ({ description: 'Fuel changed' })),
  },
  {
    method: 'DELETE',
    path: '/api/dashboard/business-expenses/{id}',
    access: 'admin',
    source: 'spec',
    upstream: 'billing',
    writes: true,
    params: { id: uuidParam((f) => f.expenseId) },
    body: { kind: 'ignored' },
  },

  // Reporting.
  ...(['gst', 'purchases-payables', 'enhanced-pl'] as const).map((report): RouteSpec => ({
    method: 'GET',
    path: `/api/dashboard/reports/${report}`,
    access: 'admin',
    source: 'spec',
    upstream: 'reporting',
    writes: false,
    query: periodQuery,
  })),

  // Notify.
  {
    method: 'GET',
    path: '/api/dashboard/notifications',
    access: 'admin',
    source: 'service',
    upstream: 'notify',
    writes: false,
  },
  {
    method: 'GET',
    path: '/api/dashboard/notifications/deliveries',
    access: 'admin',
    source: 'service',
    upstream: 'notify',
    writes: false,
    query: {
      fields: [
        { path: 'channel', kind: 'enum', values: ['sms', 'email'] },
        { path: 'status', kind: 'enum', values: ['queued', 'sending', 'retrying', 'sent', 'failed'] },
        { path: 'jobId', kind: 'jobRef' },
        { path: 'limit', kind: 'quantity', min: 1, maxValue: 200 },
        { path: 'cursor', kind: 'text', max: 200 },
      ],
      base: () => 'limit=10',
    },
  },
  {
    method: 'GET',
    path: '/api/dashboard/notifications/deliveries/{id}',
    access: 'admin',
    source: 'service',
    upstream: 'notify',
    writes: false,
    params: { id: uuidParam(() => randomish) },
  },
  {
    // The queue dashboard (bull-board, HTML). Its own API changes queues, so only its page is fuzzed.
    method: 'GET',
    path: '/api/dashboard/notifications/queues',
    access: 'admin',
    source: 'service',
    upstream: 'notify',
    writes: false,
    binary: true,
  },
];

/** The WebSocket route of spec section 7 (upgrade requests are probed separately). */
export const WS_CATALOGUE = [{ path: '/ws/notifications', access: 'staff' as Access, upstream: 'notify' }];

export const routeId = (r: Pick<RouteSpec, 'method' | 'path'>) => `${r.method} ${r.path}`;

/** The path with every parameter set to its real target. */
export function samplePath(route: RouteSpec, f: Fixtures): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const param = route.params?.[name];
    if (!param) throw new Error(`${routeId(route)}: no parameter ${name}`);
    return param.valid(f);
  });
}
