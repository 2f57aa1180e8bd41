import '../testing/polyfills';
import { act, screen, waitFor, within } from '@testing-library/react';
import { JobDetailDialog } from '../job-detail/JobDetailDialog';
import { NotificationConnection, parseBookingChange, type SocketLike } from '../notifications/connection';
import { bookingChangeNotice, NotificationCenter } from '../notifications/NotificationCenter';
import { JobsTab } from '../tabs/JobsTab';
import { FakeSocket, job, jobDetail, renderWithApp, stubFetch } from '../testing/render';

/**
 * The dashboard shows changes to a booking live (issue 18): notify's booking_rescheduled, booking_cancelled and
 * booking_updated messages refetch the job lists and the open job, and tell staff what happened.
 */

const JOB_ID = '11111111-1111-4111-8111-111111111111';
const rescheduled = {
  type: 'booking_rescheduled',
  data: {
    jobId: JOB_ID,
    jobNumber: 'JOB-000123',
    from: { scheduledDate: '2026-12-10', timeSlot: '8-10 AM' },
    to: { scheduledDate: '2026-12-14', timeSlot: '2-4 PM' },
    rescheduledBy: 'customer',
    rescheduledAt: '2026-12-01T02:00:00.000Z',
  },
};
const cancelled = {
  type: 'booking_cancelled',
  data: {
    jobId: JOB_ID,
    jobNumber: 'JOB-000123',
    scheduledDate: '2026-12-10',
    timeSlot: '8-10 AM',
    cancelledAt: '2026-12-01T02:00:00.000Z',
    cancelledBy: 'customer',
    band: 'full_refund',
    refund: '762.55',
    fee: '0.00',
    feeWaived: false,
  },
};
const updated = {
  type: 'booking_updated',
  data: {
    jobId: JOB_ID,
    jobNumber: 'JOB-000123',
    changed: ['phone', 'vehicle'],
    updatedAt: '2026-12-01T02:00:00Z',
  },
};

describe('parsing booking_* messages', () => {
  test('each kind, with what the notice needs; anything without a job is ignored', () => {
    expect(parseBookingChange(JSON.stringify(rescheduled))).toEqual({
      kind: 'rescheduled',
      jobId: JOB_ID,
      jobNumber: 'JOB-000123',
      from: { scheduledDate: '2026-12-10', timeSlot: '8-10 AM' },
      to: { scheduledDate: '2026-12-14', timeSlot: '2-4 PM' },
      by: 'customer',
    });
    expect(parseBookingChange(JSON.stringify(cancelled))).toEqual({
      kind: 'cancelled',
      jobId: JOB_ID,
      jobNumber: 'JOB-000123',
      by: 'customer',
      refund: '762.55',
      fee: '0.00',
      feeWaived: false,
      noShow: false,
    });
    expect(parseBookingChange(JSON.stringify(updated))).toMatchObject({
      kind: 'updated',
      changed: ['phone', 'vehicle'],
    });
    expect(
      parseBookingChange(JSON.stringify({ type: 'booking_cancelled', data: { jobNumber: 'X' } })),
    ).toBeNull();
    expect(
      parseBookingChange(JSON.stringify({ ...rescheduled, data: { ...rescheduled.data, to: null } })),
    ).toBeNull();
    expect(parseBookingChange('not json')).toBeNull();
    expect(parseBookingChange(JSON.stringify({ type: 'new_booking', data: { id: 'x' } }))).toBeNull();
  });

  test('the connection hands them to onBookingChange, not as a new-booking card', () => {
    const sockets: SocketLike[] = [];
    const changes: unknown[] = [];
    const cards: unknown[] = [];
    const conn = new NotificationConnection({
      url: 'ws://x/ws/notifications',
      onStatus: () => undefined,
      onNotification: (n) => cards.push(n),
      onBookingChange: (c) => changes.push(c),
      createSocket: () => {
        const s = new FakeSocket('ws://x');
        sockets.push(s as unknown as SocketLike);
        return s as unknown as SocketLike;
      },
    });
    conn.start();
    sockets[0]!.onmessage!({ data: JSON.stringify(cancelled) });
    expect(changes).toHaveLength(1);
    expect(cards).toHaveLength(0);
    conn.stop();
  });

  test('the notices say who did what, in words', () => {
    const notice = (m: unknown) => bookingChangeNotice(parseBookingChange(JSON.stringify(m))!);
    expect(notice(rescheduled)).toEqual({
      title: 'Booking JOB-000123 rescheduled by the customer',
      description: 'Now 14 Dec 2026, 2-4 PM (was 10 Dec 2026, 8-10 AM).',
    });
    expect(notice(cancelled)).toEqual({
      title: 'Booking JOB-000123 cancelled by the customer',
      description: 'Its time slot is free again. Refund: $762.55.',
    });
    expect(
      notice({
        ...cancelled,
        data: { ...cancelled.data, cancelledBy: 'staff', refund: '0.00', fee: '374.90', feeWaived: true },
      }),
    ).toEqual({
      title: 'Booking JOB-000123 cancelled by staff',
      description: 'Its time slot is free again. Fee: $374.90 (waived).',
    });
    expect(
      notice({
        ...cancelled,
        data: {
          ...cancelled.data,
          cancelledBy: 'staff',
          band: 'no_refund',
          refund: '0.00',
          fee: '374.90',
          kind: 'no_show',
        },
      }),
    ).toEqual({
      title: 'Booking JOB-000123: the customer was a no-show',
      description: 'Marked by staff. Charged in full: $374.90.',
    });
    expect(notice(updated)).toEqual({
      title: 'Booking JOB-000123 updated by the customer',
      description: 'The customer corrected their phone number and vehicle details.',
    });
  });
});

describe('the dashboard reacts', () => {
  test('an open job refetches when the customer cancels it, and a notice says so', async () => {
    let state: 'new' | 'cancelled' = 'new';
    const calls = stubFetch({
      'GET /api/dashboard/jobs/*': () =>
        jobDetail({
          ...job({ id: JOB_ID, jobNumber: 'JOB-000123', scheduledDate: '2099-03-02' }),
          ...(state === 'cancelled' ? { status: 'cancelled', scheduleStatus: 'cancelled' } : {}),
        }),
      'GET /api/dashboard/purchase-invoices/job/*': [],
      [`GET /api/dashboard/bookings/${JOB_ID}/cancellation`]: {
        status: 404,
        body: { message: 'No booking for this job' },
      },
    });
    renderWithApp(
      <NotificationCenter>
        <JobDetailDialog jobId={JOB_ID} onClose={() => undefined} />
      </NotificationCenter>,
    );
    const socket = FakeSocket.instances.at(-1)!;
    act(() => socket.open());
    expect(
      await screen.findByRole('button', { name: 'Cancel Job' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    const before = calls.filter((c) => c.path.startsWith('/api/dashboard/jobs/')).length;
    // The customer cancelled on their manage page: jobs has applied it by the time notify's message arrives.
    state = 'cancelled';
    act(() => socket.receive(cancelled));
    expect(await screen.findByText('Booking JOB-000123 cancelled by the customer')).toBeInTheDocument();
    expect(screen.getByText('Its time slot is free again. Refund: $762.55.')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.filter((c) => c.path.startsWith('/api/dashboard/jobs/')).length).toBeGreaterThan(before),
    );
    // The detail shows it cancelled: nothing left to cancel.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel Job' })).not.toBeInTheDocument());
    // Not a "New Booking" card.
    expect(screen.queryByText(/New Booking/)).not.toBeInTheDocument();
  });

  test('the job list refetches when the customer reschedules, showing the new slot', async () => {
    let moved = false;
    const row = () =>
      job({
        id: JOB_ID,
        jobNumber: 'JOB-000123',
        ...(moved
          ? { scheduledDate: '2026-12-14', timeSlot: '2-4 PM' }
          : { scheduledDate: '2026-12-10', timeSlot: '8-10 AM' }),
      });
    const calls = stubFetch({
      'GET /api/dashboard/jobs-with-details': () => ({ body: [row()], headers: { 'X-Total-Count': '1' } }),
    });
    renderWithApp(
      <NotificationCenter>
        <JobsTab />
      </NotificationCenter>,
    );
    const socket = FakeSocket.instances.at(-1)!;
    act(() => socket.open());
    const list = await screen.findByText('JOB-000123');
    expect(list).toBeInTheDocument();
    const listCalls = () => calls.filter((c) => c.path.startsWith('/api/dashboard/jobs-with-details')).length;
    const before = listCalls();
    moved = true;
    act(() => socket.receive(rescheduled));
    const notice = await screen.findByText('Booking JOB-000123 rescheduled by the customer');
    expect(notice).toBeInTheDocument();
    // The list was asked again, and shows the new slot.
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryAllByText(/2-4 PM/).length).toBeGreaterThan(1));
    expect(
      within(document.body).getByText('Now 14 Dec 2026, 2-4 PM (was 10 Dec 2026, 8-10 AM).'),
    ).toBeInTheDocument();
  });
});
