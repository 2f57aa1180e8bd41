/**
 * End-to-end: the schedule (issue 19), in Chromium against the whole stack.
 *
 * 1. A technician on a phone (390x844) opens the Schedule tab: Today is the default view and lists their jobs of
 *    the day in visit order (slot by slot), each with a directions link to the address and a tap-to-call link.
 *    "Today" is the browser's Perth date: the page's clock is set to 07:00 on a future weekday that has room for
 *    two bookings, so the run does not depend on the hour it runs at.
 * 2. An admin at a desk (1366x900) opens the week calendar and drags an unassigned job to a technician's lane and
 *    another slot; the job is rescheduled and assigned (the API says so), and after a reload it is still there.
 *
 * Screenshots: /tmp/schedule-*.png (SCHEDULE_SHOTS=0 to skip).
 */
import type { Browser, Page } from 'playwright-core';
import { assertStackIsUp, BASE_URL, launchBrowser, openPage, type PageHandle } from './browser';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  ApiSession,
  createTechnician,
  signIn,
  unexpectedErrors,
  unique,
  waitForJob,
  type StaffAccount,
} from './dashboard-helpers';

jest.setTimeout(180_000);

const SLOTS = ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'] as const;
const SLOT_START: Record<string, string> = {
  '8-10 AM': '08:00',
  '10-12 AM': '10:00',
  '12-2 PM': '12:00',
  '2-4 PM': '14:00',
};
const SHOTS = process.env.SCHEDULE_SHOTS !== '0';

let browser: Browser | undefined;
let admin: ApiSession;
let technician: StaffAccount;
const pages: PageHandle[] = [];

beforeAll(async () => {
  await assertStackIsUp();
  browser = await launchBrowser();
  admin = await ApiSession.login(ADMIN_USERNAME, ADMIN_PASSWORD);
  technician = await createTechnician(admin, unique('sched'));
});

afterAll(async () => {
  for (const p of pages) await p.context.close();
  await browser?.close();
});

function requireBrowser(): Browser {
  if (!browser) throw new Error('Chromium was not launched (see the beforeAll error above)');
  return browser;
}

/** A Perth calendar date `days` from now (the stack's own "today" is Perth's). */
function perthDate(days: number): string {
  return new Date(Date.now() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

const dayMonth = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const weekday = new Intl.DateTimeFormat('en-AU', { weekday: 'short', timeZone: 'UTC' });
/** How the calendar names a day ("Wed 25 Nov"). */
function dayLabel(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return `${weekday.format(d)} ${dayMonth.format(d)}`;
}

/** A weekday from `fromDay` on (within the booking horizon) with at least `n` free slots, and those slots. */
async function dayWithFreeSlots(n: number, fromDay: number): Promise<{ date: string; free: string[] }> {
  for (let i = fromDay; i < 85; i++) {
    const date = perthDate(i);
    const day = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (day === 0 || day === 6) continue;
    const slots = await admin.call<{ slot: string; isAvailable: boolean }[]>(
      'GET',
      `/api/time-slots/availability?date=${date}`,
    );
    const free = slots.filter((s) => s.isAvailable).map((s) => s.slot);
    if (free.length >= n) return { date, free };
  }
  throw new Error(`no weekday with ${n} free slots`);
}

async function book(
  date: string,
  slot: string,
  name: string,
  address: string,
  suburb: string,
  postcode: string,
) {
  const answer = await new ApiSession().call<{ jobId: string; jobNumber: string }>('POST', '/api/bookings', {
    customer: { name, email: `${unique('sched')}@example.com`, phone: '0412 345 678' },
    vehicle: {
      make: 'Toyota',
      model: 'Hilux',
      year: 2019,
      registration: unique('S').slice(0, 8).toUpperCase(),
    },
    job: {
      serviceType: 'new-tyres',
      scheduledDate: `${date}T${SLOT_START[slot]}:00+08:00`,
      timeSlot: slot,
      address,
      suburb,
      postcode,
      tyreSize: '205/55R16',
      tyreQuantity: 2,
      paymentMethod: 'onsite',
    },
  });
  await waitForJob(admin, answer.jobId);
  return answer;
}

const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** axe-core's WCAG 2.1 AA violations on the page as it is (after antd's animations have finished). */
async function axe(page: Page, where: string): Promise<string[]> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  const violations = await page.evaluate(async (tags) => {
    type Result = { violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] };
    const axeCore = (window as unknown as { axe: { run: (c: Document, o: object) => Promise<Result> } }).axe;
    const result = await axeCore.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return result.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
  }, WCAG_AA);
  return violations.map((v) => `${where}: ${v}`);
}

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `/tmp/schedule-${name}.png`, fullPage: true });
}

interface JobView {
  scheduledDate: string;
  timeSlot: string;
  assignedTechnicianId: string | null;
}

test("technician (phone): Today lists the day's jobs in visit order with directions and call links", async () => {
  const { date, free } = await dayWithFreeSlots(2, 14);
  const [early, late] = [free[0]!, free.at(-1)!].sort(
    (a, b) => SLOTS.indexOf(a as (typeof SLOTS)[number]) - SLOTS.indexOf(b as (typeof SLOTS)[number]),
  );
  // Booked late slot first, so the list's own order (newest first) is not the visit order.
  const second = await book(date, late!, `Late Visit ${unique('')}`, '9 Beach Road', 'Scarborough', '6019');
  const first = await book(date, early!, `Early Visit ${unique('')}`, '12 Hay Street', 'Perth', '6000');
  for (const job of [first, second])
    await admin.call('PATCH', `/api/dashboard/jobs/${job.jobId}/assign`, { technicianId: technician.id });

  const handle = await openPage(requireBrowser(), 'phone');
  pages.push(handle);
  const { page, context } = handle;
  await context.addInitScript({ path: require.resolve('axe-core') });
  // The phone's clock: 07:00 in Perth on that day (the server keeps its own time).
  await context.clock.setFixedTime(new Date(`${date}T07:00:00+08:00`));
  await signIn(page, technician.username, technician.password);
  await page.goto(`${BASE_URL}/dashboard?tab=schedule`);
  await page.getByRole('heading', { name: 'My Assigned Jobs' }).waitFor();
  await page.getByRole('radio', { name: 'Today' }).waitFor({ state: 'attached' });
  expect(await page.getByRole('radio', { name: 'Today' }).isChecked()).toBe(true);
  await page.getByRole('heading', { name: `Today, ${dayLabel(date)}` }).waitFor();

  const list = page.getByRole('list', { name: "Today's jobs in visit order" });
  await list.waitFor();
  const visits = list.getByRole('listitem');
  await expect(visits.count()).resolves.toBe(2);
  const headings = await visits.getByRole('heading').allTextContents();
  expect(headings[0]).toContain(`1. ${early}${first.jobNumber}`);
  expect(headings[1]).toContain(`2. ${late}${second.jobNumber}`);

  const navigate = visits.nth(0).getByRole('link', { name: /Navigate to 12 Hay Street, Perth/ });
  expect(await navigate.getAttribute('href')).toBe(
    `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent('12 Hay Street, Perth, WA 6000')}`,
  );
  expect(await navigate.getAttribute('target')).toBe('_blank');
  const call = visits.nth(0).getByRole('link', { name: /^Call Early Visit/ });
  expect(await call.getAttribute('href')).toBe('tel:0412345678');
  await visits.nth(0).getByText('2 × 205/55R16').waitFor();
  await visits
    .nth(0)
    .getByRole('button', { name: /Start Work/ })
    .waitFor();
  // Tap targets are finger-sized.
  const box = await navigate.boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  await shot(page, 'today-390');
  expect(await axe(page, 'Today @390')).toEqual([]);
  // Their own week: the same two jobs in their lane, to look at.
  await page.getByText('Week', { exact: true }).click();
  const lane = page.getByRole('group', { name: `${technician.username}, ${dayLabel(date)}, ${early}` });
  await lane.getByRole('article', { name: `Job ${first.jobNumber}` }).waitFor();
  expect(await page.getByRole('button', { name: /^Move job/ }).count()).toBe(0);
  await page.getByText('Your jobs this week. Cancelled jobs are not shown.').waitFor();
  expect(await axe(page, 'Technician week @390')).toEqual([]);
  await shot(page, 'tech-week-390');
  expect(unexpectedErrors(handle.errors)).toEqual([]);
});

test('admin (desk): drags a job to another technician and slot in the week view; after a reload it is there', async () => {
  const { date, free } = await dayWithFreeSlots(2, 3);
  const [from, to] = [free[0]!, free[1]!];
  const job = await book(date, from, `Drag Me ${unique('')}`, '5 Test Street', 'Joondalup', '6027');

  const handle = await openPage(requireBrowser(), 'desktop');
  pages.push(handle);
  const { page } = handle;
  await handle.context.addInitScript({ path: require.resolve('axe-core') });
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await page.goto(`${BASE_URL}/dashboard?tab=schedule&view=week&date=${date}`);
  await page.getByRole('heading', { name: 'Job Schedule & Assignment' }).waitFor();
  const source = page.getByRole('group', { name: `Unassigned, ${dayLabel(date)}, ${from}` });
  const card = source.getByRole('article', { name: `Job ${job.jobNumber}` });
  await card.waitFor();
  const target = page.getByRole('group', { name: `${technician.username}, ${dayLabel(date)}, ${to}` });
  await target.scrollIntoViewIfNeeded();
  await shot(page, 'week-1366-before');
  expect(await axe(page, 'Week @1366')).toEqual([]);
  // The keyboard way is there too: Move… opens a dialog naming the job (closed again here; the drag does the move).
  await card.getByRole('button', { name: `Move job ${job.jobNumber}` }).click();
  const dialog = page.getByRole('dialog', { name: `Move job ${job.jobNumber}` });
  await dialog.getByLabel('Technician').waitFor();
  expect(await axe(page, 'Move dialog @1366')).toEqual([]);
  await shot(page, 'move-dialog-1366');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });

  // In the full suite other specs have added technicians, so the target lane can sit below the fold: a window
  // tall enough for both ends keeps the drag a plain drag (no scrolling halfway through it).
  await page.setViewportSize({ width: 1366, height: 2400 });
  await card.scrollIntoViewIfNeeded();
  await card.locator('.sched-job__line').first().dragTo(target);
  await page.getByText('Job Moved').waitFor();
  await target.getByRole('article', { name: `Job ${job.jobNumber}` }).waitFor();

  const moved = await admin.call<JobView>('GET', `/api/dashboard/jobs/${job.jobId}`);
  expect(moved).toMatchObject({ scheduledDate: date, timeSlot: to, assignedTechnicianId: technician.id });

  await page.reload();
  const after = page.getByRole('group', { name: `${technician.username}, ${dayLabel(date)}, ${to}` });
  await after.getByRole('article', { name: `Job ${job.jobNumber}` }).waitFor();
  expect(await source.getByRole('article', { name: `Job ${job.jobNumber}` }).count()).toBe(0);
  await shot(page, 'week-1366-after');

  // The day view shows it too, and at 390 px the week scrolls sideways inside its own region.
  await page.goto(`${BASE_URL}/dashboard?tab=schedule&view=day&date=${date}`);
  await page
    .getByRole('group', { name: `${technician.username}, ${dayLabel(date)}, ${to}` })
    .getByRole('article', { name: `Job ${job.jobNumber}` })
    .waitFor();
  await shot(page, 'day-1366');
  expect(await axe(page, 'Day @1366')).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${BASE_URL}/dashboard?tab=schedule&view=week&date=${date}`);
  await page.getByRole('region', { name: /^Schedule / }).waitFor();
  await shot(page, 'week-390');
  expect(await axe(page, 'Week @390')).toEqual([]);
  expect(unexpectedErrors(handle.errors)).toEqual([]);
});
