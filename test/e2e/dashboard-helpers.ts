/**
 * Helpers for the staff dashboard's end-to-end specs: an API session (cookie jar) for arranging data through the
 * gateway, free-slot search, bookings, staff accounts, and signing in through the Staff Login page.
 */
import type { Page } from 'playwright-core';
import { BASE_URL } from './browser';

export const ADMIN_USERNAME = process.env.E2E_ADMIN_USERNAME ?? 'admin';
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? '';

/** A logged-in API client (the session cookie kept between calls). */
export class ApiSession {
  private cookie = '';

  static async login(username: string, password: string): Promise<ApiSession> {
    const session = new ApiSession();
    await session.call('POST', '/api/login', { username, password });
    return session;
  }

  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${BASE_URL}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(this.cookie ? { Cookie: this.cookie } : {}),
        Origin: BASE_URL,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : null) as T;
  }
}

export const unique = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

export interface StaffAccount {
  id: string;
  username: string;
  password: string;
}

export async function createTechnician(admin: ApiSession, name = unique('e2etech')): Promise<StaffAccount> {
  const password = 'tech-pass-123';
  const user = await admin.call<{ id: string; username: string }>('POST', '/api/admin/users', {
    username: name,
    password,
    role: 'technician',
  });
  return { id: user.id, username: user.username, password };
}

function perthDate(offsetDays: number): string {
  return new Date(Date.now() + 8 * 3600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** Bookings open this many days ahead (the booking service's BOOKING_HORIZON_DAYS default): search inside it. */
const HORIZON_DAYS = 90;

/**
 * A free (date, slot) on a weekday within the booking horizon (from tomorrow to day 89), searched from a random day
 * and round the window, so repeated runs on one database rarely meet.
 */
export async function findFreeSlot(
  session: ApiSession = new ApiSession(),
): Promise<{ date: string; slot: string }> {
  const first = 1;
  const days = HORIZON_DAYS - 1 - first;
  const start = Math.floor(Math.random() * days);
  for (let i = 0; i < days; i++) {
    const date = perthDate(first + ((start + i) % days));
    const day = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (day === 0 || day === 6) continue;
    const slots = await session.call<{ slot: string; isAvailable: boolean }[]>(
      'GET',
      `/api/time-slots/availability?date=${date}`,
    );
    const free = slots.find((s) => s.isAvailable);
    if (free) return { date, slot: free.slot };
  }
  throw new Error(`no free slot in the next ${HORIZON_DAYS} days`);
}

const SLOT_START: Record<string, string> = {
  '8-10 AM': '08:00',
  '10-12 AM': '10:00',
  '12-2 PM': '12:00',
  '2-4 PM': '14:00',
};

export interface Booking {
  jobId: string;
  jobNumber: string;
  date: string;
  slot: string;
  customerName: string;
}

/** A customer booking (public POST /api/bookings, pay on site) in a free slot. */
export async function createBooking(
  overrides: { suburb?: string; customerName?: string; serviceType?: string } = {},
): Promise<Booking> {
  const { date, slot } = await findFreeSlot();
  const customerName = overrides.customerName ?? `E2E ${unique('Customer')}`;
  const answer = await new ApiSession().call<{ jobId: string; jobNumber: string }>('POST', '/api/bookings', {
    customer: { name: customerName, email: `${unique('e2e')}@example.com`, phone: '0412345678' },
    vehicle: {
      make: 'Toyota',
      model: 'Hilux',
      year: 2019,
      registration: unique('E').slice(0, 8).toUpperCase(),
    },
    job: {
      serviceType: overrides.serviceType ?? 'puncture-repair',
      scheduledDate: `${date}T${SLOT_START[slot]}:00+08:00`,
      timeSlot: slot,
      address: '12 Ocean Reef Road',
      suburb: overrides.suburb ?? 'Joondalup',
      postcode: '6027',
      paymentMethod: 'onsite',
    },
  });
  return { jobId: answer.jobId, jobNumber: answer.jobNumber, date, slot, customerName };
}

/** Waits until the jobs service has the booking (it arrives as an event). */
export async function waitForJob(admin: ApiSession, jobId: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await admin.call('GET', `/api/dashboard/jobs/${jobId}`);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Signs in through the Staff Login page and waits for the dashboard. */
export async function signIn(page: Page, username: string, password: string, path = '/auth'): Promise<void> {
  await page.goto(`${BASE_URL}${path}`);
  await page.getByRole('heading', { name: 'Staff Login' }).waitFor();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
}

/** Console errors other than the expected 401 of the session check before signing in. */
export function unexpectedErrors(errors: string[]): string[] {
  return errors.filter((e) => !/status of 401/.test(e));
}
