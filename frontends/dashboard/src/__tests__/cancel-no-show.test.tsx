import '../testing/polyfills';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CancelJobDialog, CANCEL_REASON_REQUIRED } from '../job-detail/CancelJobDialog';
import { JobDetailDialog } from '../job-detail/JobDetailDialog';
import { NoShowDialog } from '../job-detail/NoShowDialog';
import { job, jobDetail, renderWithApp, stubFetch, TECH } from '../testing/render';

// 8-10 AM on 10 December 2026 in Perth (UTC+8) starts at 00:00 UTC.
const SLOT = { scheduledDate: '2026-12-10', timeSlot: '8-10 AM' } as const;
const hoursBefore = (h: number) => () => new Date(Date.parse('2026-12-10T00:00:00.000Z') - h * 3_600_000);
const theJob = job({ ...SLOT, customerValue: '749.80' });

interface Payment {
  paymentMethod: string;
  paymentStatus: string;
  amountPaid: string | null;
}

/** Booking's answer to GET /api/dashboard/bookings/{jobId}/cancellation (only what the dialogs read varies). */
function bookingView(payment: Payment) {
  return {
    reference: theJob.jobNumber,
    status: 'confirmed',
    customerName: 'Olivia Smith',
    serviceType: 'new-tyres',
    ...SLOT,
    slotStartsAt: '2026-12-10T00:00:00.000Z',
    address: { street: '12 Ocean Reef Road', suburb: 'Joondalup', postcode: '6027' },
    vehicle: { make: 'Toyota', model: 'Hilux', year: 2019, color: null, registration: '1ABC234' },
    phone: '0412 345 678',
    notes: null,
    tyreSize: '205/55R16',
    tyreQuantity: 4,
    price: '749.80',
    ...payment,
    photoCount: 0,
    can: { reschedule: true, cancel: true, change: true },
    cancellation: null,
    cancelled: null,
  };
}
const ONSITE: Payment = { paymentMethod: 'onsite', paymentStatus: 'pending', amountPaid: null };
// 749.80 + 1.7% card surcharge.
const PREPAID: Payment = { paymentMethod: 'prepaid', paymentStatus: 'paid', amountPaid: '762.55' };

const CANCELLATION_PATH = `/api/dashboard/bookings/${theJob.id}/cancellation`;

async function openCancel(payment: Payment, hours: number) {
  const calls = stubFetch({
    [`GET ${CANCELLATION_PATH}`]: bookingView(payment),
    [`POST /api/dashboard/bookings/${theJob.id}/cancel`]: bookingView(payment),
    // After the cancel the dialog waits for the jobs service to show it (BookingCancelled applied).
    'GET /api/dashboard/jobs/*': jobDetail({ ...theJob, status: 'cancelled', scheduleStatus: 'cancelled' }),
  });
  renderWithApp(<CancelJobDialog job={theJob} open onClose={() => undefined} clock={hoursBefore(hours)} />);
  const terms = await screen.findByRole('region', { name: 'Cancellation terms' });
  return { calls, terms, dialog: screen.getByRole('dialog') };
}

describe('Cancel job dialog (the policy at this moment)', () => {
  test('30 hours before: full refund band, no fee; no waive option', async () => {
    const { terms, dialog } = await openCancel(ONSITE, 30);
    expect(terms).toHaveTextContent('24 hours or more before the booking: full refund');
    expect(terms).toHaveTextContent('No cancellation fee');
    expect(within(dialog).queryByRole('checkbox', { name: 'Waive the fee' })).not.toBeInTheDocument();
  });

  test('18 hours before, pay on site: half the price as the fee', async () => {
    const { terms } = await openCancel(ONSITE, 18);
    expect(terms).toHaveTextContent('12 to 24 hours before the booking: 50% refund');
    expect(terms).toHaveTextContent('Cancellation fee: $374.90');
    expect(terms).not.toHaveTextContent('Refund to card');
  });

  test('18 hours before, prepaid: half the card charge back (half-up), the rest kept', async () => {
    const { terms } = await openCancel(PREPAID, 18);
    expect(terms).toHaveTextContent('Refund to card: $381.28');
    expect(terms).toHaveTextContent('Cancellation fee: $381.27');
  });

  test('6 hours before: no refund, the whole price as the fee', async () => {
    const { terms } = await openCancel(ONSITE, 6);
    expect(terms).toHaveTextContent('Less than 12 hours before the booking: no refund');
    expect(terms).toHaveTextContent('Cancellation fee: $749.80');
  });

  test('waive the fee: shown waived (prepaid: the whole charge refunded) and sent as waiveFee', async () => {
    const { calls, terms, dialog } = await openCancel(PREPAID, 6);
    expect(terms).toHaveTextContent('Refund to card: $0.00');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Waive the fee' }));
    expect(terms).toHaveTextContent('Refund to card: $762.55');
    expect(terms).toHaveTextContent('Cancellation fee: $762.55 (waived)');
    await userEvent.type(within(dialog).getByLabelText(/Reason/), '  Customer in hospital  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel Job' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe(`/api/dashboard/bookings/${theJob.id}/cancel`);
    expect(post.body).toEqual({ reason: 'Customer in hospital', waiveFee: true });
    expect(await screen.findByText('Job Cancelled')).toBeInTheDocument();
  });

  test('the reason is required: nothing is sent without one', async () => {
    const { calls, dialog } = await openCancel(ONSITE, 18);
    await userEvent.type(within(dialog).getByLabelText(/Reason/), '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel Job' }));
    expect(await within(dialog).findByText(CANCEL_REASON_REQUIRED)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Reason/)).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    // Typing a reason clears the error; the fee is not waived unless asked.
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Customer phoned');
    expect(within(dialog).queryByText(CANCEL_REASON_REQUIRED)).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel Job' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        reason: 'Customer phoned',
        waiveFee: false,
      }),
    );
  });

  test('terms that cannot be loaded are an error, and the cancel cannot be confirmed', async () => {
    stubFetch({
      [`GET ${CANCELLATION_PATH}`]: { status: 404, body: { message: 'No booking for this job' } },
    });
    renderWithApp(<CancelJobDialog job={theJob} open onClose={() => undefined} clock={hoursBefore(18)} />);
    expect(await screen.findByText('No booking for this job')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel Job' })).toBeDisabled();
  });
});

describe('Mark no-show dialog (charged in full)', () => {
  const open = (payment: Payment, onConfirm = jest.fn(async () => true)) => {
    stubFetch({ [`GET ${CANCELLATION_PATH}`]: bookingView(payment) });
    const onClose = jest.fn();
    renderWithApp(<NoShowDialog job={theJob} open onClose={onClose} onConfirm={onConfirm} />);
    return { onConfirm, onClose };
  };

  test('pay on site: the whole price is invoiced', async () => {
    const { onConfirm, onClose } = open(ONSITE);
    expect(
      await screen.findByText(
        "The customer is charged in full: an invoice for $749.80 (the job's price) is raised.",
      ),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Mark No-Show' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  test('prepaid: the whole charge is kept; a failed confirm keeps the dialog open', async () => {
    const { onClose } = open(
      PREPAID,
      jest.fn(async () => false),
    );
    expect(
      await screen.findByText(
        'The customer is charged in full: the $762.55 paid online is kept (no refund).',
      ),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Mark No-Show' }));
    await waitFor(() => expect(screen.getByRole('dialog')).toBeInTheDocument());
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('job detail: Cancel Job', () => {
  test('an admin cancels a new job through booking; the detail waits until the job shows it cancelled', async () => {
    let cancelled = false;
    const calls = stubFetch({
      [`GET ${CANCELLATION_PATH}`]: bookingView(ONSITE),
      [`POST /api/dashboard/bookings/${theJob.id}/cancel`]: () => {
        cancelled = true;
        return bookingView(ONSITE);
      },
      'GET /api/dashboard/jobs/*': () =>
        jobDetail({ ...theJob, ...(cancelled ? { status: 'cancelled', scheduleStatus: 'cancelled' } : {}) }),
      'GET /api/dashboard/purchase-invoices/job/*': [],
    });
    renderWithApp(<JobDetailDialog jobId={theJob.id} onClose={() => undefined} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel Job' }, { timeout: 10_000 }));
    const title = await screen.findByText(`Cancel Job ${theJob.jobNumber}`);
    const dialog = title.closest<HTMLElement>('[role="dialog"]')!;
    await within(dialog).findByRole('region', { name: 'Cancellation terms' });
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Customer phoned');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel Job' }));
    expect(await screen.findByText('Job Cancelled')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      reason: 'Customer phoned',
      waiveFee: false,
    });
    // Once cancelled there is nothing left to cancel.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel Job' })).not.toBeInTheDocument());
    // Delete stays.
    expect(screen.getByRole('button', { name: 'Delete Job' })).toBeInTheDocument();
  });

  test('not offered to technicians, nor for finished work', async () => {
    stubFetch({
      'GET /api/dashboard/jobs/*': jobDetail({ ...theJob, assignedTechnicianId: TECH.id }),
      'GET /api/dashboard/purchase-invoices/job/*': [],
    });
    const view = renderWithApp(<JobDetailDialog jobId={theJob.id} onClose={() => undefined} />, {
      user: TECH,
    });
    expect(await screen.findByText('Olivia Smith', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel Job' })).not.toBeInTheDocument();
    view.unmount();
    stubFetch({
      'GET /api/dashboard/jobs/*': jobDetail({ ...theJob, status: 'completed', scheduleStatus: 'completed' }),
      'GET /api/dashboard/purchase-invoices/job/*': [],
      'GET /api/dashboard/invoices*': [],
    });
    renderWithApp(<JobDetailDialog jobId={theJob.id} onClose={() => undefined} />);
    expect(
      await screen.findByRole('button', { name: 'Delete Job' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel Job' })).not.toBeInTheDocument();
  });
});

describe('job detail: the cancellation record', () => {
  test('a cancelled job shows who cancelled, why, and the terms booking applied (fee waived)', async () => {
    stubFetch({
      'GET /api/dashboard/jobs/*': jobDetail({
        ...theJob,
        status: 'cancelled',
        scheduleStatus: 'cancelled',
        cancelledAt: '2026-12-09T18:00:00.000Z',
      }),
      'GET /api/dashboard/purchase-invoices/job/*': [],
      [`GET ${CANCELLATION_PATH}`]: {
        ...bookingView(PREPAID),
        status: 'cancelled',
        cancelled: {
          cancelledAt: '2026-12-09T18:00:00.000Z',
          cancelledBy: 'staff',
          reason: 'Customer in hospital',
          band: 'no_refund',
          refundPercent: 0,
          refund: '762.55',
          fee: '762.55',
          feeWaived: true,
        },
      },
    });
    renderWithApp(<JobDetailDialog jobId={theJob.id} onClose={() => undefined} />);
    const section = (
      await screen.findByRole('heading', { name: 'Cancellation' }, { timeout: 10_000 })
    ).closest('section')!;
    await within(section).findByText('Customer in hospital');
    expect(section).toHaveTextContent(/Cancelled.* by staff/);
    expect(section).toHaveTextContent('Less than 12 hours before the booking: no refund');
    expect(section).toHaveTextContent('Refund$762.55');
    expect(section).toHaveTextContent('Fee$762.55 (waived)');
    expect(screen.queryByRole('button', { name: 'Cancel Job' })).not.toBeInTheDocument();
  });

  test('technicians do not see it', async () => {
    stubFetch({
      'GET /api/dashboard/jobs/*': jobDetail({
        ...theJob,
        status: 'cancelled',
        scheduleStatus: 'cancelled',
        assignedTechnicianId: TECH.id,
      }),
      'GET /api/dashboard/purchase-invoices/job/*': [],
    });
    renderWithApp(<JobDetailDialog jobId={theJob.id} onClose={() => undefined} />, { user: TECH });
    expect(await screen.findByText('Olivia Smith', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Cancellation' })).not.toBeInTheDocument();
  });
});

describe('job detail: Mark No-Show', () => {
  // A slot that has started (any past date): the button is offered; booking checks the time again.
  const started = job({ scheduledDate: '2026-01-05', timeSlot: '8-10 AM', customerValue: '749.80' });
  const NO_SHOW_PATH = `/api/dashboard/bookings/${started.id}/no-show`;

  test('an admin marks a started job a no-show: the charge is stated, booking is asked, the job shows it', async () => {
    let marked = false;
    const calls = stubFetch({
      [`GET /api/dashboard/bookings/${started.id}/cancellation`]: {
        ...bookingView(ONSITE),
        scheduledDate: started.scheduledDate,
      },
      [`POST ${NO_SHOW_PATH}`]: () => {
        marked = true;
        return bookingView(ONSITE);
      },
      'GET /api/dashboard/jobs/*': () =>
        jobDetail({
          ...started,
          ...(marked ? { status: 'cancelled', scheduleStatus: 'cancelled' } : {}),
        }),
      'GET /api/dashboard/purchase-invoices/job/*': [],
    });
    renderWithApp(<JobDetailDialog jobId={started.id} onClose={() => undefined} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Mark No-Show' }, { timeout: 10_000 }));
    const title = await screen.findByText(`Mark Job ${started.jobNumber} as No-Show?`);
    const dialog = title.closest<HTMLElement>('[role="dialog"]')!;
    expect(
      await within(dialog).findByText(
        "The customer is charged in full: an invoice for $749.80 (the job's price) is raised.",
      ),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark No-Show' }));
    expect(await screen.findByText('Marked No-Show')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe(NO_SHOW_PATH);
    expect(post.body).toEqual({});
    // Once it is cancelled there is nothing left to mark or cancel.
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Mark No-Show' })).not.toBeInTheDocument(),
    );
    expect(screen.queryByRole('button', { name: 'Cancel Job' })).not.toBeInTheDocument();
  });

  test("booking's refusal is shown and the dialog stays open", async () => {
    stubFetch({
      [`GET /api/dashboard/bookings/${started.id}/cancellation`]: bookingView(PREPAID),
      [`POST ${NO_SHOW_PATH}`]: {
        status: 409,
        body: { message: 'This job has been completed and cannot be marked as a no-show.' },
      },
      'GET /api/dashboard/jobs/*': jobDetail(started),
      'GET /api/dashboard/purchase-invoices/job/*': [],
    });
    renderWithApp(<JobDetailDialog jobId={started.id} onClose={() => undefined} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Mark No-Show' }, { timeout: 10_000 }));
    const title = await screen.findByText(`Mark Job ${started.jobNumber} as No-Show?`);
    const dialog = title.closest<HTMLElement>('[role="dialog"]')!;
    await within(dialog).findByText(/the \$762\.55 paid online is kept/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark No-Show' }));
    expect(
      await screen.findByText('This job has been completed and cannot be marked as a no-show.'),
    ).toBeInTheDocument();
    expect(screen.getByText(`Mark Job ${started.jobNumber} as No-Show?`)).toBeInTheDocument();
  });

  test('not offered before the slot starts, nor to technicians', async () => {
    const later = job({ scheduledDate: '2099-03-02', timeSlot: '8-10 AM' });
    stubFetch({
      'GET /api/dashboard/jobs/*': jobDetail(later),
      'GET /api/dashboard/purchase-invoices/job/*': [],
    });
    const view = renderWithApp(<JobDetailDialog jobId={later.id} onClose={() => undefined} />);
    expect(
      await screen.findByRole('button', { name: 'Cancel Job' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark No-Show' })).not.toBeInTheDocument();
    view.unmount();
    stubFetch({
      'GET /api/dashboard/jobs/*': jobDetail({ ...started, assignedTechnicianId: TECH.id }),
      'GET /api/dashboard/purchase-invoices/job/*': [],
    });
    renderWithApp(<JobDetailDialog jobId={started.id} onClose={() => undefined} />, { user: TECH });
    expect(await screen.findByText('Olivia Smith', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark No-Show' })).not.toBeInTheDocument();
  });

  test('a no-show job shows its record: charged in full, the reason, by staff', async () => {
    stubFetch({
      'GET /api/dashboard/jobs/*': jobDetail({
        ...started,
        status: 'cancelled',
        scheduleStatus: 'cancelled',
        cancelledAt: '2026-01-05T01:00:00.000Z',
      }),
      'GET /api/dashboard/purchase-invoices/job/*': [],
      [`GET /api/dashboard/bookings/${started.id}/cancellation`]: {
        ...bookingView(ONSITE),
        status: 'cancelled',
        cancelled: {
          cancelledAt: '2026-01-05T01:00:00.000Z',
          cancelledBy: 'staff',
          reason: 'No-show',
          band: 'no_refund',
          refundPercent: 0,
          refund: '0.00',
          fee: '749.80',
          feeWaived: false,
          kind: 'no_show',
        },
      },
    });
    renderWithApp(<JobDetailDialog jobId={started.id} onClose={() => undefined} />);
    const section = (await screen.findByRole('heading', { name: 'No-Show' }, { timeout: 10_000 })).closest(
      'section',
    )!;
    await within(section).findByText('No-show');
    expect(section).toHaveTextContent(/Marked no-show.* by staff/);
    expect(section).toHaveTextContent('No-show: charged in full');
    expect(section).toHaveTextContent('Charge$749.80');
    expect(section).not.toHaveTextContent('Refund');
  });
});
