import '../testing/polyfills';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { blockKeepsJobsText, TimeSlotsTab } from '../tabs/TimeSlotsTab';
import { describeBlock } from '../tabs/BusinessCalendar';
import { formatDate } from '../lib/dates';
import {
  addedCalendarBlock,
  adminSlot,
  blockedSlot,
  keptBooking,
  renderWithApp,
  stubFetch,
} from '../testing/render';

const DATE = '2099-01-05';
const TECH_ID = '7b1c2d3e-0000-4000-8000-000000000001';

function stubs(over: Record<string, unknown> = {}) {
  return stubFetch({
    'GET /api/dashboard/timeslots/*': [
      adminSlot({
        date: DATE,
        slot: '8-10 AM',
        capacity: 2,
        booking: { jobId: 'j1', jobNumber: 'JOB-000101', kind: 'booking' },
        bookings: [{ jobId: 'j1', jobNumber: 'JOB-000101', kind: 'booking' }],
      }),
      adminSlot({ date: DATE, slot: '10-12 AM', capacity: 2 }),
    ],
    'GET /api/dashboard/calendar/holidays': [
      {
        date: DATE,
        name: "New Year's Day (additional day)",
        substitute: true,
        opened: false,
        openedReason: null,
      },
    ],
    'GET /api/dashboard/calendar/blocks': [
      {
        id: 'b1',
        kind: 'recurring',
        startDate: DATE,
        endDate: null,
        weekday: 5,
        timeSlot: '2-4 PM',
        reason: 'Supplier pickup',
        createdAt: '2098-12-01T00:00:00.000Z',
      },
    ],
    'GET /api/dashboard/calendar/roster': [
      { userId: TECH_ID, username: 'tech.alice', isActive: true, weekdays: [1, 2, 3, 4, 5], leave: [] },
    ],
    'PUT /api/dashboard/calendar/holidays/*': {
      date: DATE,
      name: "New Year's Day (additional day)",
      substitute: true,
      opened: true,
      openedReason: null,
    },
    'PUT /api/dashboard/calendar/roster/*': {
      userId: TECH_ID,
      username: 'tech.alice',
      isActive: true,
      weekdays: [1, 2, 3, 4],
      leave: [],
    },
    ...over,
  });
}

/** The open dialog that says `text` (antd's dialogs share one title id under the tests' useId). */
async function findDialog(text: string): Promise<HTMLElement> {
  let found: HTMLElement | undefined;
  await waitFor(() => {
    found = screen.getAllByRole('dialog').find((d) => d.textContent?.includes(text));
    expect(found).toBeDefined();
  });
  return found!;
}

describe('time slots tab: capacity and the business calendar (issue 19)', () => {
  test('a partly booked slot stays open and says how many of its capacity are booked', async () => {
    stubs();
    renderWithApp(<TimeSlotsTab />, { path: `/dashboard?tab=time-slots&date=${DATE}` });
    expect(await screen.findByText('1 of 2 booked: Job JOB-000101')).toBeInTheDocument();
  });

  test('a public holiday is closed until opened; blocks and the roster are listed', async () => {
    const calls = stubs();
    renderWithApp(<TimeSlotsTab />, { path: `/dashboard?tab=time-slots&date=${DATE}` });
    expect(await screen.findByText(/closed \(customers cannot book\)/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Open for bookings' }));
    expect(await screen.findByText('Holiday Opened')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT' && c.path.includes('/holidays/'))?.path).toBe(
      `/api/dashboard/calendar/holidays/${DATE}/open`,
    );
    const blocks = await screen.findByRole('list', { name: 'Calendar blocks' });
    expect(within(blocks).getByText(/Every Friday, 2-4 PM .*: Supplier pickup/)).toBeInTheDocument();
    const roster = await screen.findByRole('list', { name: 'Roster' });
    expect(within(roster).getByText('tech.alice')).toBeInTheDocument();
    fireEvent.click(within(roster).getByRole('checkbox', { name: 'Fri' }));
    await screen.findByText('tech.alice');
    expect(calls.find((c) => c.method === 'PUT' && c.path.includes('/roster/'))).toMatchObject({
      path: `/api/dashboard/calendar/roster/${TECH_ID}`,
      body: { weekdays: [1, 2, 3, 4] },
    });
  });

  test('a weekly block needs its time slot: nothing is sent until one is chosen', async () => {
    const calls = stubs();
    renderWithApp(<TimeSlotsTab />, { path: `/dashboard?tab=time-slots&date=${DATE}` });
    fireEvent.click(await screen.findByRole('radio', { name: 'Every week' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Block reason' }), {
      target: { value: 'Supplier pickup' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add block' }));
    expect(await screen.findByText('Choose the time slot to block every week.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  test('a booked slot can be blocked: the confirm says its jobs stay booked; the jobs kept are listed to open', async () => {
    const calls = stubs({
      'PATCH /api/dashboard/timeslots/*': blockedSlot({
        date: DATE,
        slot: '8-10 AM',
        blockedReason: 'Van service',
        keptBookings: [keptBooking({ jobId: 'j1', jobNumber: 'JOB-000101', date: DATE, slot: '8-10 AM' })],
      }),
    });
    renderWithApp(<TimeSlotsTab />, { path: `/dashboard?tab=time-slots&date=${DATE}` });
    fireEvent.click(await screen.findByRole('button', { name: 'Block 8-10 AM' }));
    const confirm = await findDialog('Block 8-10 AM');
    expect(
      within(confirm).getByText(
        'This slot has 1 job booked (JOB-000101). It stays booked: blocking does not move or cancel it, it only stops new bookings.',
      ),
    ).toBeInTheDocument();
    fireEvent.change(within(confirm).getByLabelText('Reason'), { target: { value: 'Van service' } });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Block Slot' }));
    expect(await screen.findByText('Time Slot Blocked')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
      path: `/api/dashboard/timeslots/${DATE}/8-10%20AM/block`,
      body: { reason: 'Van service' },
    });
    const result = await findDialog('Booked jobs kept');
    expect(result).toHaveTextContent(
      /The 1 job already booked in it stays booked \(not moved or cancelled\)/,
    );
    expect(result).toHaveTextContent('Contact that customer if needed.');
    const kept = within(result).getByRole('list', { name: 'Jobs kept in the blocked time' });
    expect(within(kept).getByRole('listitem')).toHaveTextContent(`JOB-000101 ${formatDate(DATE)}, 8-10 AM`);
    fireEvent.click(
      within(kept).getByRole('button', { name: `Open job JOB-000101, ${formatDate(DATE)}, 8-10 AM` }),
    );
    expect(screen.getByTestId('location')).toHaveTextContent('job=j1');
    fireEvent.click(within(result).getByRole('button', { name: 'Done' }));
    await waitFor(() =>
      expect(screen.queryByText('Booked jobs kept')).not.toBeInTheDocument(),
    );
  });

  test('the confirm names every job a full slot holds', () => {
    expect(blockKeepsJobsText([])).toBeNull();
    expect(blockKeepsJobsText(['JOB-1', 'JOB-2'])).toBe(
      'This slot has 2 jobs booked (JOB-1, JOB-2). They stay booked: blocking does not move or cancel them, it only stops new bookings.',
    );
  });

  test('a calendar block lists the jobs it keeps; with none kept only the toast shows', async () => {
    let kept = [
      keptBooking({ jobId: 'j1', jobNumber: 'JOB-000101', date: DATE, slot: '8-10 AM' }),
      keptBooking({ jobId: 'j2', jobNumber: 'JOB-000102', date: DATE, slot: '2-4 PM', kind: 'hold' }),
    ];
    const calls = stubs({
      'POST /api/dashboard/calendar/blocks': () =>
        addedCalendarBlock({ startDate: DATE, reason: 'Staff training', keptBookings: kept }),
    });
    renderWithApp(<TimeSlotsTab />, { path: `/dashboard?tab=time-slots&date=${DATE}` });
    const reason = await screen.findByRole('textbox', { name: 'Block reason' });
    fireEvent.change(reason, { target: { value: 'Staff training' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add block' }));
    const result = await findDialog('Booked jobs kept');
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      body: { kind: 'day', date: DATE, reason: 'Staff training' },
    });
    expect(result).toHaveTextContent('The 2 jobs already booked in it stay booked (not moved or cancelled).');
    expect(result).toHaveTextContent('Contact those customers if needed.');
    const items = within(result).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      `JOB-000101 ${formatDate(DATE)}, 8-10 AM`,
      `JOB-000102 ${formatDate(DATE)}, 2-4 PM (held for payment)`,
    ]);
    fireEvent.click(within(result).getByRole('button', { name: 'Done' }));
    await waitFor(() =>
      expect(screen.queryByText('Booked jobs kept')).not.toBeInTheDocument(),
    );

    kept = [];
    fireEvent.change(screen.getByRole('textbox', { name: 'Block reason' }), {
      target: { value: 'Stocktake' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add block' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(await screen.findAllByText('Calendar Blocked')).not.toHaveLength(0);
    expect(screen.queryByText('Booked jobs kept')).not.toBeInTheDocument();
  });

  test('describes blocks as a person reads them', () => {
    expect(
      describeBlock({
        kind: 'range',
        startDate: '2099-01-05',
        endDate: '2099-01-09',
        weekday: null,
        timeSlot: null,
      }),
    ).toMatch(/to .*, all day$/);
    expect(
      describeBlock({
        kind: 'recurring',
        startDate: '2099-01-05',
        endDate: null,
        weekday: 5,
        timeSlot: '2-4 PM',
      }),
    ).toMatch(/^Every Friday, 2-4 PM \(from /);
  });
});
