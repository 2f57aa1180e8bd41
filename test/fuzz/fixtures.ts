/**
 * What the fuzz suite creates before it starts (a booked job assigned to a technician, its line item, a customer
 * invoice with an item, a purchase invoice, an expense, a free slot that stays free) and what it compares around
 * every batch of refused requests: everything staff can list.
 */
import { isDeepStrictEqual } from 'node:util';
import { SLOTS, type Fixtures } from './catalogue';
import { anonymous, call, login, send, type Session } from './http';

export function perthDate(offsetDays = 0): string {
  return new Date(Date.now() + 8 * 3600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

const SLOT_START: Record<string, string> = {
  '8-10 AM': '08:00',
  '10-12 AM': '10:00',
  '12-2 PM': '12:00',
  '2-4 PM': '14:00',
};

/** Free slots on weekdays, from a random day 3-40 ahead so other specs on this database rarely meet them. */
async function freeSlots(count: number): Promise<{ date: string; slot: string }[]> {
  const found: { date: string; slot: string }[] = [];
  const start = 3 + Math.floor(Math.random() * 38);
  for (let offset = start; offset < start + 50 && found.length < count; offset++) {
    const date = perthDate(offset);
    const day = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (day === 0 || day === 6) continue;
    const { data } = await call<{ slot: string; isAvailable: boolean }[]>(
      anonymous,
      'GET',
      `/api/time-slots?date=${date}`,
    );
    // One slot per day: the booked job's day and the free day stay apart.
    const free = data.find((s) => s.isAvailable && (SLOTS as readonly string[]).includes(s.slot));
    if (free) found.push({ date, slot: free.slot });
  }
  if (found.length < count) throw new Error('not enough free slots for the fuzz fixtures');
  return found;
}

async function retry<T>(what: string, fn: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`${what}: ${(err as Error).message}`, { cause: err });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

export interface Stack {
  admin: Session;
  technician: Session;
  fixtures: Fixtures;
}

export async function createFixtures(adminUser: string, adminPassword: string): Promise<Stack> {
  const admin = await login('admin', adminUser, adminPassword);
  const me = await call<{ id: string }>(admin, 'GET', '/api/user');
  const techName = `fuzztech${Date.now().toString(36)}`;
  const tech = await call<{ id: string }>(admin, 'POST', '/api/admin/users', {
    username: techName,
    password: 'fuzz-tech-pass-1',
    role: 'technician',
  });
  const technician = await login('technician', techName, 'fuzz-tech-pass-1');

  const [booked, free] = (await freeSlots(2)) as [
    { date: string; slot: string },
    { date: string; slot: string },
  ];
  const booking = await call<{ jobId: string; jobNumber: string }>(anonymous, 'POST', '/api/bookings', {
    customer: { name: 'Fuzz Fixture', email: 'fuzz-fixture@example.com', phone: '0412 345 678' },
    vehicle: { make: 'Toyota', model: 'Hilux', year: 2019, registration: 'FUZZFIX' },
    job: {
      serviceType: 'puncture-repair',
      scheduledDate: `${booked.date}T${SLOT_START[booked.slot]}:00+08:00`,
      timeSlot: booked.slot,
      address: '12 Fuzz Road',
      suburb: 'Joondalup',
      postcode: '6027',
      paymentMethod: 'onsite',
    },
  });
  const jobId = booking.data.jobId;
  await retry('the booked job reaching the jobs service', () =>
    call(admin, 'GET', `/api/dashboard/jobs/${jobId}`),
  );
  await call(admin, 'PATCH', `/api/dashboard/jobs/${jobId}/assign`, { technicianId: tech.data.id });
  const line = await call<{ id: string }>(admin, 'POST', `/api/dashboard/jobs/${jobId}/line-items`, {
    description: 'Fuzz fixture line',
    category: 'labour',
    quantity: 1,
    unitCost: '5.00',
    unitPrice: '20.00',
  });
  const inThirtyDays = perthDate(30);
  const invoice = await retry('the job reaching billing', () =>
    call<{ customerInvoice: { id: string } }>(admin, 'POST', '/api/dashboard/customer-invoices', {
      jobId,
      status: 'draft',
      dueDate: inThirtyDays,
    }),
  );
  const invoiceId = invoice.data.customerInvoice.id;
  const item = await call<{ item: { id: string } }>(
    admin,
    'POST',
    `/api/dashboard/customer-invoices/${invoiceId}/items`,
    { description: 'Fuzz fixture labour', category: 'labour', quantity: 1, unitPrice: '50.00' },
  );
  const purchase = await call<{ purchaseInvoice: { id: string } }>(
    admin,
    'POST',
    '/api/dashboard/purchase-invoices',
    { jobId, invoiceNumber: 'FUZZ-PI-1', supplierName: 'Fuzz Tyres Pty Ltd', totalAmount: '110.00' },
  );
  const expense = await call<{ expense: { id: string } }>(admin, 'POST', '/api/dashboard/business-expenses', {
    supplierName: 'Fuzz Fuel',
    description: 'Fixture fuel',
    amount: '55.00',
    category: 'fuel',
    expenseDate: perthDate(),
  });

  return {
    admin,
    technician,
    fixtures: {
      adminId: me.data.id,
      technicianId: tech.data.id,
      jobId,
      jobNumber: booking.data.jobNumber,
      lineItemId: line.data.id,
      invoiceId,
      invoiceItemId: item.data.item.id,
      purchaseId: purchase.data.purchaseInvoice.id,
      expenseId: expense.data.expense.id,
      freeDate: free.date,
      freeSlot: free.slot,
      bookedDate: booked.date,
      bookedSlot: booked.slot,
      today: perthDate(),
      inThirtyDays,
    },
  };
}

// --- snapshots ---------------------------------------------------------------------------------------------------

export type Snapshot = Record<string, unknown>;

async function pages(admin: Session, path: (page: number) => string, totalPages: (h: Headers) => number) {
  const out: unknown[] = [];
  for (let page = 1; ; page++) {
    const { data, headers } = await call<unknown[]>(admin, 'GET', path(page));
    out.push(...data);
    if (page >= totalPages(new Headers(headers as Record<string, string>)) || data.length === 0) return out;
  }
}

/**
 * Everything staff can list that a request could have written: jobs (and the fixture job with its line items and
 * photos), customer invoices (and the fixture's items), the fixture job's purchase invoices, expenses, users, the
 * slots of the days the requests named; with `reports`, the three reports too (they follow by events).
 */
export async function snapshot(stack: Stack, days: Iterable<string>, reports = false): Promise<Snapshot> {
  const { admin, fixtures: f } = stack;
  const snap: Snapshot = {};
  snap.users = (await call(admin, 'GET', '/api/admin/users')).data;
  snap.jobs = await pages(
    admin,
    (p) => `/api/dashboard/jobs-with-details?page=${p}&pageSize=100`,
    (h) => Number(h.get('x-total-pages') ?? 1),
  );
  snap.fixtureJob = await call(admin, 'GET', `/api/dashboard/jobs/${f.jobId}`)
    .then((r) => r.data)
    .catch((e: Error) => `gone: ${e.message}`);
  const invoices: unknown[] = [];
  for (let offset = 0; ; offset += 500) {
    const { data, headers } = await call<unknown[]>(
      admin,
      'GET',
      `/api/dashboard/customer-invoices?status=all&limit=500&offset=${offset}`,
    );
    invoices.push(...data);
    if (offset + 500 >= Number(headers['x-total-count'] ?? 0) || data.length === 0) break;
  }
  snap.invoices = invoices;
  snap.fixtureInvoice = await call(admin, 'GET', `/api/dashboard/customer-invoices/${f.invoiceId}`)
    .then((r) => r.data)
    .catch((e: Error) => `gone: ${e.message}`);
  snap.purchases = (await call(admin, 'GET', `/api/dashboard/purchase-invoices/job/${f.jobId}`)).data;
  snap.expenses = (await call(admin, 'GET', '/api/dashboard/business-expenses')).data;
  for (const day of [...new Set(days)].sort())
    snap[`slots ${day}`] = (await call(admin, 'GET', `/api/dashboard/timeslots/${day}`)).data;
  if (reports) {
    for (const r of ['gst', 'purchases-payables', 'enhanced-pl'])
      snap[`report ${r}`] = (await call(admin, 'GET', `/api/dashboard/reports/${r}`)).data;
  }
  return snap;
}

/** The first difference of each collection that changed, in words ([] when nothing changed). */
export function differences(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (isDeepStrictEqual(before[key], after[key])) continue;
    out.push(`${key}: ${firstDifference(before[key], after[key], '')}`);
  }
  return out;
}

function firstDifference(a: unknown, b: unknown, path: string): string {
  if (Array.isArray(a) && Array.isArray(b) && a.length !== b.length)
    return `${path || '(list)'} had ${a.length} entries, now ${b.length}`;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const x = (a as Record<string, unknown>)[k];
      const y = (b as Record<string, unknown>)[k];
      if (!isDeepStrictEqual(x, y)) return firstDifference(x, y, `${path}.${k}`);
    }
  }
  const show = (v: unknown) => JSON.stringify(v)?.slice(0, 120);
  return `${path || '(value)'} was ${show(a)}, now ${show(b)}`;
}

/** Waits until two snapshots a second apart are equal (events of the set-up have settled). */
export async function settledSnapshot(stack: Stack, days: string[], timeoutMs = 15_000): Promise<Snapshot> {
  const deadline = Date.now() + timeoutMs;
  let last = await snapshot(stack, days, true);
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const next = await snapshot(stack, days, true);
    if (!differences(last, next).length) return next;
    if (Date.now() > deadline)
      throw new Error(`stored data kept changing before the fuzz run: ${differences(last, next).join('; ')}`);
    last = next;
  }
}

/** Dates (YYYY-MM-DD) a request names that have a slot list: from tomorrow to two years ahead. */
export function touchedDays(text: string, today: string): string[] {
  const limit = perthDate(730);
  return [...new Set(text.match(/\b\d{4}-\d{2}-\d{2}\b/g) ?? [])].filter((d) => {
    if (d <= today || d > limit) return false;
    const t = new Date(`${d}T00:00:00Z`);
    return !Number.isNaN(t.getTime()) && t.toISOString().startsWith(d);
  });
}

export { send };
