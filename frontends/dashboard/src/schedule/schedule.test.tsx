import '../testing/polyfills';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays, perthInstant } from '@tyres/kernel';
import type { Job } from '../api/types';
import { perthToday } from '../lib/dates';
import { ScheduleTab } from '../tabs/ScheduleTab';
import { job, renderWithApp, setViewport, stubFetch, TECH, technician } from '../testing/render';
import {
  dayLabel,
  directionsUrl,
  notFreeReason,
  placeJobs,
  telHref,
  visitOrder,
  weekDates,
  weekStart,
} from './model';

const T1 = '44444444-4444-4444-8444-444444444401';
const T2 = '44444444-4444-4444-8444-444444444402';
const technicians = [technician({ id: T1, username: 'sam' }), technician({ id: T2, username: 'alex' })];
const today = perthToday();
const monday = weekStart(today);
const wednesday = addDays(monday, 2);
const friday = addDays(monday, 4);

const id = (n: number) => `11111111-1111-4111-8111-1111111111${String(n).padStart(2, '0')}`;
function aJob(n: number, overrides: Partial<Job> = {}): Job {
  return job({
    id: id(n),
    jobNumber: `JOB-0000${n}`,
    customer: { name: `Customer ${n}`, phone: '0412 345 678', email: `c${n}@example.com` },
    ...overrides,
  });
}
/**
 * The jobs service's list: a range is required here (the schedule must never read every job), filtered by
 * scheduled date (both ends inclusive) and paged like the service (newest booking first).
 */
function listAnswer(all: Job[], url: URL) {
  const q = url.searchParams;
  const from = q.get('scheduledFrom');
  const to = q.get('scheduledTo');
  const inRange = from && to ? all.filter((j) => j.scheduledDate >= from && j.scheduledDate <= to) : all;
  const size = Number(q.get('pageSize') ?? 50);
  const pageNo = Number(q.get('page') ?? 1);
  return {
    body: inRange.slice((pageNo - 1) * size, pageNo * size),
    headers: { 'X-Total-Count': String(inRange.length) },
  };
}
/** The calendar's list requests (the status counts above it ask for pageSize=1 without a range). */
const listCalls = (calls: { path: string; search: string }[]) =>
  calls
    .filter((c) => c.path === '/api/dashboard/jobs-with-details')
    .map((c) => Object.fromEntries(new URLSearchParams(c.search)))
    .filter((q) => q.pageSize !== '1');
/** A confirm (antd modal.confirm) by its title: found by text, not by role (the calendar is a large tree). */
const confirmBox = async (title: string) =>
  (await screen.findByText(title, { selector: '.ant-modal-confirm-title' })).closest<HTMLElement>(
    '.ant-modal',
  )!;
const zone = (lane: string, date: string, slot: string) =>
  screen.getByRole('group', { name: `${lane}, ${dayLabel(date)}, ${slot}` });

/** A jobs service stand-in: the list answers the current state; reschedule and assign change it (or refuse). */
function jobsServer(
  initial: Job[],
  refuse?: { status: number; message: string; hold?: Promise<void> },
  booking: Record<string, unknown> = {},
  refuseAssign?: { status: number; message: string },
) {
  let jobs = initial.map((j) => ({ ...j }));
  const calls = stubFetch({
    ...booking,
    'GET /api/dashboard/jobs-with-details': ({ url }: { url: URL }) => listAnswer(jobs, url),
    'GET /api/dashboard/technicians': technicians,
    'PUT /api/dashboard/jobs/*': async ({ url, body }: { url: URL; body: unknown }) => {
      if (refuse) {
        await refuse.hold;
        return { status: refuse.status, body: { message: refuse.message } };
      }
      const jobId = url.pathname.split('/')[4];
      const b = body as { scheduledDate: string; timeSlot: string };
      jobs = jobs.map((j) =>
        j.id === jobId ? { ...j, scheduledDate: b.scheduledDate, timeSlot: b.timeSlot } : j,
      );
      return jobs.find((j) => j.id === jobId);
    },
    'PATCH /api/dashboard/jobs/*': ({ url, body }: { url: URL; body: unknown }) => {
      if (refuseAssign) return { status: refuseAssign.status, body: { message: refuseAssign.message } };
      const jobId = url.pathname.split('/')[4];
      const techId = (body as { technicianId: string | null }).technicianId;
      const tech = technicians.find((t) => t.id === techId);
      jobs = jobs.map((j) =>
        j.id === jobId
          ? {
              ...j,
              assignedTechnicianId: techId,
              assignedTechnician: tech ? { id: tech.id, username: tech.username } : null,
            }
          : j,
      );
      return jobs.find((j) => j.id === jobId);
    },
  });
  return calls;
}

describe('schedule model', () => {
  test('weeks run Monday to Sunday; a cell holds its jobs in visit order; cancelled jobs are left out', () => {
    expect(weekStart('2026-11-25')).toBe('2026-11-23'); // a Wednesday
    expect(weekStart('2026-11-23')).toBe('2026-11-23');
    expect(weekStart('2026-11-29')).toBe('2026-11-23'); // Sunday ends the week
    expect(weekDates('2026-11-23').at(-1)).toBe('2026-11-29');
    const cells = placeJobs([
      aJob(2, { scheduledDate: '2026-11-25', timeSlot: '8-10 AM', assignedTechnicianId: T1 }),
      aJob(1, { scheduledDate: '2026-11-25', timeSlot: '8-10 AM', assignedTechnicianId: T1 }),
      aJob(3, { scheduledDate: '2026-11-25', timeSlot: '8-10 AM', status: 'cancelled' }),
    ]);
    expect(cells.get(`${T1}|2026-11-25|8-10 AM`)?.map((j) => j.jobNumber)).toEqual([
      'JOB-00001',
      'JOB-00002',
    ]);
    expect(cells.get('unassigned|2026-11-25|8-10 AM')).toBeUndefined();
  });

  test('visit order is slot by slot (not alphabetical: 10-12 AM before 12-2 PM before 2-4 PM)', () => {
    const order = visitOrder([
      aJob(1, { timeSlot: '2-4 PM' }),
      aJob(2, { timeSlot: '12-2 PM' }),
      aJob(3, { timeSlot: '10-12 AM' }),
      aJob(4, { timeSlot: '8-10 AM' }),
    ]).map((j) => j.timeSlot);
    expect(order).toEqual(['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM']);
  });

  test('directions and call links', () => {
    expect(directionsUrl({ address: '12 Hay St', suburb: 'Perth', postcode: '6000' })).toBe(
      'https://www.google.com/maps/dir/?api=1&destination=12%20Hay%20St%2C%20Perth%2C%20WA%206000',
    );
    expect(telHref('0412 345 678')).toBe('tel:0412345678');
    expect(telHref('')).toBeNull();
  });
});

describe('not-free reasons (the confirm before a move)', () => {
  const to = { date: '2026-12-05', slot: '2-4 PM' as const, technicianId: T1 }; // a Saturday
  const base = {
    job: { id: id(1) },
    to,
    technicianName: 'sam',
    availability: { suggestedTechnicianId: T2, freeTechnicianIds: [T2] },
    roster: [{ userId: T1, weekdays: [1, 2, 3, 4, 5, 6], leave: [] }],
    jobs: [] as Job[],
  };
  test('free, or booking not asked: no warning', () => {
    expect(
      notFreeReason({ ...base, availability: { suggestedTechnicianId: T1, freeTechnicianIds: [T1] } }),
    ).toBeNull();
    expect(notFreeReason({ ...base, availability: undefined })).toBeNull();
    expect(notFreeReason({ ...base, to: { ...to, technicianId: null } })).toBeNull();
  });
  test('holiday, leave, not rostered, busy, else plain not free', () => {
    expect(
      notFreeReason({ ...base, availability: { ...base.availability, closedFor: 'Christmas Day' } }),
    ).toBe(`${dayLabel(to.date)} is a public holiday (Christmas Day).`);
    expect(
      notFreeReason({
        ...base,
        roster: [
          {
            ...base.roster[0]!,
            leave: [{ startDate: '2026-12-01', endDate: '2026-12-10', reason: 'Annual leave' }],
          },
        ],
      }),
    ).toBe(`sam is on leave on ${dayLabel(to.date)} (Annual leave).`);
    expect(notFreeReason({ ...base, roster: [{ ...base.roster[0]!, weekdays: [1, 2, 3, 4, 5] }] })).toBe(
      'sam is not rostered on Saturdays.',
    );
    expect(
      notFreeReason({
        ...base,
        jobs: [aJob(2, { scheduledDate: to.date, timeSlot: '2-4 PM', assignedTechnicianId: T1 })],
      }),
    ).toBe(`sam already has job JOB-00002 at ${dayLabel(to.date)}, 2-4 PM.`);
    expect(notFreeReason(base)).toBe(
      `sam is not free at ${dayLabel(to.date)}, 2-4 PM (booked or not available).`,
    );
  });
});

describe('admin week and day calendar', () => {
  beforeEach(() => setViewport('desktop'));

  test('each job sits in its technician lane, day and slot; cancelled jobs are not shown', async () => {
    jobsServer([
      aJob(1, { scheduledDate: wednesday, timeSlot: '8-10 AM' }),
      aJob(2, { scheduledDate: friday, timeSlot: '12-2 PM', assignedTechnicianId: T1 }),
      aJob(3, { scheduledDate: wednesday, timeSlot: '8-10 AM', status: 'cancelled' }),
      aJob(4, { scheduledDate: addDays(monday, 7), timeSlot: '8-10 AM' }), // next week
    ]);
    renderWithApp(<ScheduleTab />, { path: '/dashboard?tab=schedule&view=week' });
    expect(
      await screen.findByRole('columnheader', {
        name: dayLabel(monday) + (monday === today ? ' (today)' : ''),
      }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(within(zone('Unassigned', wednesday, '8-10 AM')).getByText('JOB-00001')).toBeInTheDocument(),
    );
    expect(within(zone('sam', friday, '12-2 PM')).getByText('JOB-00002')).toBeInTheDocument();
    expect(screen.queryByText('JOB-00003')).not.toBeInTheDocument();
    expect(screen.queryByText('JOB-00004')).not.toBeInTheDocument();
    // The next week shows the next week's job.
    await userEvent.click(screen.getByRole('button', { name: 'Next week' }));
    await waitFor(() =>
      expect(
        within(zone('Unassigned', addDays(monday, 7), '8-10 AM')).getByText('JOB-00004'),
      ).toBeInTheDocument(),
    );
  });

  test('each view asks the server for exactly its dates, in one request', async () => {
    const calls = jobsServer([aJob(1, { scheduledDate: wednesday, timeSlot: '8-10 AM' })]);
    const week = { scheduledFrom: monday, scheduledTo: addDays(monday, 6), page: '1', pageSize: '100' };
    const { unmount } = renderWithApp(<ScheduleTab />, { path: '/dashboard?tab=schedule&view=week' });
    await screen.findByRole('article', { name: 'Job JOB-00001' });
    expect(listCalls(calls)).toEqual([week]);
    await userEvent.click(screen.getByRole('button', { name: 'Next week' }));
    await waitFor(() => expect(listCalls(calls)).toHaveLength(2));
    expect(listCalls(calls)[1]).toEqual({
      ...week,
      scheduledFrom: addDays(monday, 7),
      scheduledTo: addDays(monday, 13),
    });
    unmount();

    const dayCalls = jobsServer([aJob(1, { scheduledDate: wednesday, timeSlot: '8-10 AM' })]);
    renderWithApp(<ScheduleTab />, { path: `/dashboard?tab=schedule&view=day&date=${wednesday}` });
    await screen.findByRole('article', { name: 'Job JOB-00001' });
    expect(listCalls(dayCalls)).toEqual([{ ...week, scheduledFrom: wednesday, scheduledTo: wednesday }]);
  });

  test('a week with more jobs than one page reads the next page too, and shows them all', async () => {
    // 130 jobs on Wednesday 8-10 AM: page 1 holds 100, page 2 the other 30.
    const many = Array.from({ length: 130 }, (_, i) =>
      aJob(i + 1, {
        id: `11111111-1111-4111-8111-${String(i + 1).padStart(12, '0')}`,
        jobNumber: `JOB-${String(i + 1).padStart(5, '0')}`,
        scheduledDate: wednesday,
        timeSlot: '8-10 AM',
      }),
    );
    const calls = jobsServer(many);
    renderWithApp(<ScheduleTab />, { path: '/dashboard?tab=schedule&view=week' });
    await screen.findByRole('article', { name: 'Job JOB-00130' });
    expect(within(zone('Unassigned', wednesday, '8-10 AM')).getAllByRole('article')).toHaveLength(130);
    expect(listCalls(calls).map((q) => q.page)).toEqual(['1', '2']);
  });

  test('dragging a job to another technician and slot reschedules, then assigns; the job stays there', async () => {
    const calls = jobsServer([aJob(1, { scheduledDate: wednesday, timeSlot: '8-10 AM' })]);
    renderWithApp(<ScheduleTab />, { path: '/dashboard?tab=schedule&view=week' });
    const card = await screen.findByRole('article', { name: 'Job JOB-00001' });
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(4)); // header, Unassigned, sam, alex
    fireEvent.dragStart(card);
    const target = zone('alex', friday, '2-4 PM');
    fireEvent.dragOver(target);
    fireEvent.drop(target);
    await waitFor(() =>
      expect(within(zone('alex', friday, '2-4 PM')).getByText('JOB-00001')).toBeInTheDocument(),
    );
    const writes = () => calls.filter((c) => c.method !== 'GET');
    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes()).toEqual([
      expect.objectContaining({
        method: 'PUT',
        path: `/api/dashboard/jobs/${id(1)}/reschedule`,
        body: { scheduledDate: friday, timeSlot: '2-4 PM' },
      }),
      expect.objectContaining({
        method: 'PATCH',
        path: `/api/dashboard/jobs/${id(1)}/assign`,
        body: { technicianId: T2 },
      }),
    ]);
    expect(await screen.findByText('Job Moved')).toBeInTheDocument();
    // After the refetch it is still there (the server's answer, not only the optimistic card).
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/dashboard/jobs-with-details').length).toBeGreaterThan(1),
    );
    expect(within(zone('alex', friday, '2-4 PM')).getByText('JOB-00001')).toBeInTheDocument();
    expect(within(zone('Unassigned', wednesday, '8-10 AM')).queryByText('JOB-00001')).not.toBeInTheDocument();
  });

  test('a refused move (409 slot full) snaps the card back, shows the server message and assigns nothing', async () => {
    let release = () => undefined as void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const message = 'This time slot is no longer available. Please select a different time slot.';
    const calls = jobsServer([aJob(1, { scheduledDate: wednesday, timeSlot: '8-10 AM' })], {
      status: 409,
      message,
      hold,
    });
    renderWithApp(<ScheduleTab />, { path: '/dashboard?tab=schedule&view=week' });
    const card = await screen.findByRole('article', { name: 'Job JOB-00001' });
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(4));
    fireEvent.dragStart(card);
    fireEvent.dragOver(zone('sam', friday, '12-2 PM'));
    fireEvent.drop(zone('sam', friday, '12-2 PM'));
    // Moved at once while the server is asked...
    await waitFor(() =>
      expect(within(zone('sam', friday, '12-2 PM')).getByText('JOB-00001')).toBeInTheDocument(),
    );
    await act(async () => release());
    // ...and back where it was when it refuses.
    expect(await screen.findByText('Job JOB-00001 Not Moved')).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    await waitFor(() =>
      expect(within(zone('Unassigned', wednesday, '8-10 AM')).getByText('JOB-00001')).toBeInTheDocument(),
    );
    expect(within(zone('sam', friday, '12-2 PM')).queryByText('JOB-00001')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });

  test('without a mouse: Move… chooses the technician and slot; a finished job cannot be moved', async () => {
    const calls = jobsServer([
      aJob(1, { scheduledDate: today, timeSlot: '8-10 AM' }),
      aJob(2, { scheduledDate: today, timeSlot: '10-12 AM', status: 'completed', assignedTechnicianId: T1 }),
    ]);
    renderWithApp(<ScheduleTab />, { path: '/dashboard?tab=schedule&view=day' });
    await screen.findByRole('article', { name: 'Job JOB-00001' });
    expect(screen.getByRole('article', { name: 'Job JOB-00002' })).toHaveAttribute('draggable', 'false');
    expect(screen.queryByRole('button', { name: 'Move job JOB-00002' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Move job JOB-00001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move job JOB-00001' });
    fireEvent.mouseDown(within(dialog).getByLabelText('Technician'));
    fireEvent.click(
      (await screen.findAllByText('sam', { selector: '.ant-select-item-option-content' })).at(-1)!,
    );
    fireEvent.mouseDown(within(dialog).getByLabelText('Time slot'));
    fireEvent.click(
      (await screen.findAllByText('2-4 PM', { selector: '.ant-select-item-option-content' })).at(-1)!,
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(2));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ scheduledDate: today, timeSlot: '2-4 PM' });
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ technicianId: T1 });
    await waitFor(() =>
      expect(within(zone('sam', today, '2-4 PM')).getByText('JOB-00001')).toBeInTheDocument(),
    );
  });

  test('half done (rescheduled, assignment refused): says exactly what happened and shows the truth after a refetch', async () => {
    const message = 'sam is on leave that day';
    const calls = jobsServer(
      [aJob(1, { scheduledDate: wednesday, timeSlot: '8-10 AM' })],
      undefined,
      {},
      {
        status: 409,
        message,
      },
    );
    renderWithApp(<ScheduleTab />, { path: '/dashboard?tab=schedule&view=week' });
    const card = await screen.findByRole('article', { name: 'Job JOB-00001' });
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(4));
    const listsBefore = listCalls(calls).length;
    fireEvent.dragStart(card);
    fireEvent.dragOver(zone('sam', friday, '2-4 PM'));
    fireEvent.drop(zone('sam', friday, '2-4 PM'));
    expect(await screen.findByText('Job JOB-00001 Partly Moved')).toBeInTheDocument();
    expect(
      screen.getByText(`Moved to ${dayLabel(friday)}, 2-4 PM, but not assigned to sam: ${message}`),
    ).toBeInTheDocument();
    expect(screen.queryByText('Job JOB-00001 Not Moved')).not.toBeInTheDocument();
    expect(screen.queryByText('Job Moved')).not.toBeInTheDocument();
    // Refetched: the job is where the server has it (the new date and slot, still unassigned).
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(listsBefore));
    await waitFor(() =>
      expect(within(zone('Unassigned', friday, '2-4 PM')).getByText('JOB-00001')).toBeInTheDocument(),
    );
    expect(within(zone('sam', friday, '2-4 PM')).queryByText('JOB-00001')).not.toBeInTheDocument();
    expect(within(zone('Unassigned', wednesday, '8-10 AM')).queryByText('JOB-00001')).not.toBeInTheDocument();
  });

  const capacityWith = (
    date: string,
    freeAt2to4: { userId: string; username: string; jobsThatDay: number }[],
  ) => ({
    date,
    rostered: 2,
    onLeave: 1,
    capacity: 1,
    holiday: null,
    slots: ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'].map((slot) => ({
      slot,
      capacity: 1,
      taken: 0,
      freeTechnicians: slot === '2-4 PM' ? freeAt2to4 : [],
    })),
  });

  test('dropping onto a technician who is not free asks first, naming the reason; Move anyway sends it', async () => {
    const calls = jobsServer([aJob(1, { scheduledDate: wednesday, timeSlot: '8-10 AM' })], undefined, {
      'GET /api/dashboard/calendar/capacity': capacityWith(friday, [
        { userId: T2, username: 'alex', jobsThatDay: 0 },
      ]),
      'GET /api/dashboard/calendar/roster': [
        {
          userId: T1,
          username: 'sam',
          isActive: true,
          weekdays: [1, 2, 3, 4, 5],
          leave: [{ id: 'l1', userId: T1, startDate: friday, endDate: friday, reason: 'Dentist' }],
        },
        { userId: T2, username: 'alex', isActive: true, weekdays: [1, 2, 3, 4, 5], leave: [] },
      ],
    });
    renderWithApp(<ScheduleTab />, { path: '/dashboard?tab=schedule&view=week' });
    await screen.findByRole('article', { name: 'Job JOB-00001' });
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(4));
    const writes = () => calls.filter((c) => c.method !== 'GET');
    const drop = () => {
      fireEvent.dragStart(screen.getByRole('article', { name: 'Job JOB-00001' }));
      fireEvent.dragOver(zone('sam', friday, '2-4 PM'));
      fireEvent.drop(zone('sam', friday, '2-4 PM'));
    };
    drop();
    let confirm = await confirmBox('sam is not free then');
    expect(confirm).toHaveTextContent(`sam is on leave on ${dayLabel(friday)} (Dentist).`);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Keep it where it is' }));
    await waitFor(() =>
      expect(
        screen.queryByText('sam is not free then', { selector: '.ant-modal-confirm-title' }),
      ).not.toBeInTheDocument(),
    );
    expect(writes()).toHaveLength(0);
    expect(within(zone('Unassigned', wednesday, '8-10 AM')).getByText('JOB-00001')).toBeInTheDocument();

    drop();
    confirm = await confirmBox('sam is not free then');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Move anyway' }));
    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes().map((c) => c.method)).toEqual(['PUT', 'PATCH']);
  });

  test('Move… to a technician who already has a job then asks first; a free one does not', async () => {
    const calls = jobsServer(
      [
        aJob(1, { scheduledDate: today, timeSlot: '8-10 AM' }),
        aJob(2, { scheduledDate: today, timeSlot: '2-4 PM', assignedTechnicianId: T1 }),
      ],
      undefined,
      {
        'GET /api/dashboard/calendar/capacity': capacityWith(today, [
          { userId: T2, username: 'alex', jobsThatDay: 0 },
        ]),
      },
    );
    renderWithApp(<ScheduleTab />, { path: '/dashboard?tab=schedule&view=day' });
    await screen.findByRole('article', { name: 'Job JOB-00002' });
    const moveTo = async (tech: string) => {
      await userEvent.click(screen.getByRole('button', { name: 'Move job JOB-00001' }));
      const dialog = await screen.findByRole('dialog', { name: 'Move job JOB-00001' });
      fireEvent.mouseDown(within(dialog).getByLabelText('Time slot'));
      fireEvent.click(
        (await screen.findAllByText('2-4 PM', { selector: '.ant-select-item-option-content' })).at(-1)!,
      );
      fireEvent.mouseDown(within(dialog).getByLabelText('Technician'));
      fireEvent.click(
        (
          await screen.findAllByText(new RegExp(`^${tech} \\(`), {
            selector: '.ant-select-item-option-content',
          })
        ).at(-1)!,
      );
      await userEvent.click(within(dialog).getByRole('button', { name: 'Move' }));
    };
    await moveTo('sam');
    const confirm = await confirmBox('sam is not free then');
    expect(confirm).toHaveTextContent(`sam already has job JOB-00002 at ${dayLabel(today)}, 2-4 PM.`);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Keep it where it is' }));
    expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(0);

    await moveTo('alex');
    await waitFor(() => expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(2));
    expect(
      screen.queryByText(/is not free then/, { selector: '.ant-modal-confirm-title' }),
    ).not.toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ technicianId: T2 });
  });
});

describe("booking's technician suggestion in the assign selectors", () => {
  beforeEach(() => setViewport('desktop'));
  const free = (userId: string, username: string, jobsThatDay: number) => ({ userId, username, jobsThatDay });
  /** The option texts of the open dropdown, in order. */
  const openOptions = () => {
    const popups = document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
    return [...(popups[popups.length - 1]?.querySelectorAll('.ant-select-item-option-content') ?? [])].map(
      (o) => o.textContent,
    );
  };

  test('Move…: the suggested technician first, those not free in the chosen slot marked; another slot asks that date', async () => {
    const calls = jobsServer([aJob(1, { scheduledDate: today, timeSlot: '8-10 AM' })], undefined, {
      // The job's own slot: alex is free (suggested); sam already has a job then.
      [`GET /api/dashboard/calendar/jobs/${id(1)}/technician-suggestion`]: {
        jobId: id(1),
        scheduledDate: today,
        timeSlot: '8-10 AM',
        suggestedTechnicianId: T2,
        freeTechnicians: [free(T2, 'alex', 1)],
      },
      // The day's capacity: at 2-4 PM both are free, sam with fewer jobs that day.
      'GET /api/dashboard/calendar/capacity': {
        date: today,
        rostered: 2,
        onLeave: 0,
        capacity: 2,
        holiday: null,
        slots: [
          { slot: '8-10 AM', capacity: 2, taken: 2, freeTechnicians: [] },
          {
            slot: '10-12 AM',
            capacity: 2,
            taken: 0,
            freeTechnicians: [free(T1, 'sam', 1), free(T2, 'alex', 2)],
          },
          {
            slot: '12-2 PM',
            capacity: 2,
            taken: 0,
            freeTechnicians: [free(T1, 'sam', 1), free(T2, 'alex', 2)],
          },
          {
            slot: '2-4 PM',
            capacity: 2,
            taken: 0,
            freeTechnicians: [free(T1, 'sam', 1), free(T2, 'alex', 2)],
          },
        ],
      },
    });
    renderWithApp(<ScheduleTab />, { path: '/dashboard?tab=schedule&view=day' });
    await userEvent.click(await screen.findByRole('button', { name: 'Move job JOB-00001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move job JOB-00001' });
    fireEvent.mouseDown(within(dialog).getByLabelText('Technician'));
    await waitFor(() =>
      expect(openOptions()).toEqual(['alex (suggested: free)', 'Unassigned', 'sam (not free)']),
    );
    expect(calls.some((c) => c.path === '/api/dashboard/calendar/capacity')).toBe(false);

    fireEvent.mouseDown(within(dialog).getByLabelText('Time slot'));
    fireEvent.click(
      (await screen.findAllByText('2-4 PM', { selector: '.ant-select-item-option-content' })).at(-1)!,
    );
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/dashboard/calendar/capacity')?.search).toBe(`?date=${today}`),
    );
    fireEvent.mouseDown(within(dialog).getByLabelText('Technician'));
    await waitFor(() =>
      expect(openOptions()).toEqual(['sam (suggested: free)', 'Unassigned', 'alex (free)']),
    );
    fireEvent.click(
      screen.getAllByText('sam (suggested: free)', { selector: '.ant-select-item-option-content' }).at(-1)!,
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(2));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ technicianId: T1 });
  });

  test('the list selector asks for the suggestion when opened, shows it first, and assigns it', async () => {
    const calls = jobsServer([aJob(1, { scheduledDate: friday, timeSlot: '12-2 PM' })], undefined, {
      [`GET /api/dashboard/calendar/jobs/${id(1)}/technician-suggestion`]: {
        jobId: id(1),
        scheduledDate: friday,
        timeSlot: '12-2 PM',
        suggestedTechnicianId: T1,
        freeTechnicians: [free(T1, 'sam', 0)],
      },
    });
    renderWithApp(<ScheduleTab />, { path: '/dashboard?tab=schedule&view=list' });
    const select = await screen.findByLabelText('Technician for job JOB-00001');
    // Not asked for every row on load: only when a selector is opened.
    const suggestionCalls = () => calls.filter((c) => c.path.endsWith('/technician-suggestion'));
    expect(suggestionCalls()).toHaveLength(0);
    fireEvent.mouseDown(select);
    await waitFor(() =>
      expect(openOptions()).toEqual(['sam (suggested: free)', 'Unassigned', 'alex (not free)']),
    );
    expect(suggestionCalls()).toHaveLength(1);
    fireEvent.click(
      screen.getAllByText('sam (suggested: free)', { selector: '.ant-select-item-option-content' }).at(-1)!,
    );
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
        path: `/api/dashboard/jobs/${id(1)}/assign`,
        body: { technicianId: T1 },
      }),
    );
    expect(await screen.findByText('Job JOB-00001 assigned to sam.')).toBeInTheDocument();
  });
});

describe("technician's Today on a phone", () => {
  test('the default view: today in visit order, with directions, call, tyres and the status button', async () => {
    setViewport('phone');
    const mine = { assignedTechnicianId: TECH.id, scheduleStatus: 'confirmed' as const };
    const calls = jobsServer([
      aJob(1, {
        ...mine,
        scheduledDate: today,
        timeSlot: '2-4 PM',
        address: '9 Beach Rd',
        suburb: 'Scarborough',
        postcode: '6019',
      }),
      aJob(2, {
        ...mine,
        scheduledDate: today,
        timeSlot: '8-10 AM',
        address: '12 Hay St',
        suburb: 'Perth',
        postcode: '6000',
        tyreBrand: 'Michelin',
      }),
      aJob(3, { ...mine, scheduledDate: addDays(today, 1), timeSlot: '8-10 AM' }),
      aJob(4, { ...mine, scheduledDate: today, timeSlot: '10-12 AM', status: 'cancelled' }),
    ]);
    renderWithApp(<ScheduleTab />, { user: TECH, path: '/dashboard?tab=schedule' });
    expect(await screen.findByText('My Assigned Jobs')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Today' })).toBeChecked();
    const list = await screen.findByRole('list', { name: "Today's jobs in visit order" });
    // Today only, asked of the server (one request, no reading of older bookings).
    expect(listCalls(calls)).toEqual([
      { scheduledFrom: today, scheduledTo: today, page: '1', pageSize: '100' },
    ]);
    const visits = within(list).getAllByRole('listitem');
    expect(visits.map((v) => within(v).getByRole('heading').textContent)).toEqual([
      '1. 8-10 AMJOB-00002 · Customer 2',
      '2. 2-4 PMJOB-00001 · Customer 1',
    ]);
    const first = visits[0]!;
    expect(within(first).getByRole('link', { name: /Navigate to 12 Hay St, Perth/ })).toHaveAttribute(
      'href',
      'https://www.google.com/maps/dir/?api=1&destination=12%20Hay%20St%2C%20Perth%2C%20WA%206000',
    );
    expect(within(first).getByRole('link', { name: 'Call Customer 2' })).toHaveAttribute(
      'href',
      'tel:0412345678',
    );
    expect(first).toHaveTextContent('4 × 205/55R16 · Michelin');
    expect(within(first).getByRole('button', { name: /Start Work/ })).toBeInTheDocument();
  });

  test('left open overnight, Today rolls over at Perth midnight and fetches the new day', async () => {
    setViewport('phone');
    const day = '2026-12-14';
    const next = addDays(day, 1);
    jest.useFakeTimers({ now: perthInstant(day, '23:59'), advanceTimers: true });
    try {
      const mine = { assignedTechnicianId: TECH.id, scheduleStatus: 'confirmed' as const };
      const calls = jobsServer([
        aJob(1, { ...mine, scheduledDate: day, timeSlot: '2-4 PM' }),
        aJob(2, { ...mine, scheduledDate: next, timeSlot: '8-10 AM' }),
      ]);
      renderWithApp(<ScheduleTab />, { user: TECH, path: '/dashboard?tab=schedule' });
      expect(await screen.findByRole('heading', { name: `Today, ${dayLabel(day)}` })).toBeInTheDocument();
      expect(await screen.findByText(/JOB-00001/)).toBeInTheDocument();
      await act(async () => {
        jest.advanceTimersByTime(2 * 60_000);
      });
      expect(await screen.findByRole('heading', { name: `Today, ${dayLabel(next)}` })).toBeInTheDocument();
      expect(await screen.findByText(/JOB-00002/)).toBeInTheDocument();
      expect(screen.queryByText(/JOB-00001/)).not.toBeInTheDocument();
      expect(listCalls(calls).map((q) => q.scheduledFrom)).toEqual([day, next]);
    } finally {
      jest.useRealTimers();
    }
  });

  test("a technician's Week: their own lane, to look at (no drag, no Move…)", async () => {
    setViewport('desktop');
    jobsServer([aJob(1, { scheduledDate: wednesday, timeSlot: '12-2 PM', assignedTechnicianId: TECH.id })]);
    renderWithApp(<ScheduleTab />, { user: TECH, path: '/dashboard?tab=schedule&view=week' });
    const card = await screen.findByRole('article', { name: 'Job JOB-00001' });
    expect(within(zone(TECH.username, wednesday, '12-2 PM')).getByText('JOB-00001')).toBeInTheDocument();
    expect(screen.queryByRole('rowheader', { name: 'Unassigned' })).not.toBeInTheDocument();
    expect(card).toHaveAttribute('draggable', 'false');
    expect(screen.queryByRole('button', { name: /^Move job/ })).not.toBeInTheDocument();
    expect(screen.getByText('Your jobs this week. Cancelled jobs are not shown.')).toBeInTheDocument();
    expect(screen.queryByText(/Drag a job/)).not.toBeInTheDocument();
  });
});
