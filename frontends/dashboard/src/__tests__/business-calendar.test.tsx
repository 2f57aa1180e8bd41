import '../testing/polyfills';
import { fireEvent, screen, within } from '@testing-library/react';
import { TimeSlotsTab } from '../tabs/TimeSlotsTab';
import { describeBlock } from '../tabs/BusinessCalendar';
import { adminSlot, renderWithApp, stubFetch } from '../testing/render';

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
