import '../testing/polyfills';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { InvoicesTab, bulkSetStatus, BULK_FAILURE } from '../invoices/InvoicesTab';
import { ExpensesTab } from '../tabs/ExpensesTab';
import { TimeSlotsTab } from '../tabs/TimeSlotsTab';
import { ReportsTab } from '../reports/ReportsTab';
import { ScheduleTab } from '../tabs/ScheduleTab';
import { NotificationCenter } from '../notifications/NotificationCenter';
import type { CustomerInvoiceSummary } from '../api/types';
import {
  adminSlot,
  blockedSlot,
  expense,
  FakeSocket,
  invoiceSummary,
  job,
  renderWithApp,
  setViewport,
  stubFetch,
  TECH,
  technician,
} from '../testing/render';

afterEach(() => {
  setViewport('phone');
  jest.useRealTimers();
});

/** An invoice of the list as billing answers it (typed, ./testing/fixtures), numbered n. */
const invoice = (n: number, overrides: Partial<CustomerInvoiceSummary> = {}) => {
  const base = invoiceSummary();
  return invoiceSummary({
    id: `inv-${n}`,
    jobId: `job-${n}`,
    invoiceNumber: `INV-00000${n}`,
    status: 'draft',
    invoiceDate: '2026-11-20',
    dueDate: '2026-12-20',
    subtotalAmount: '100.00',
    gstAmount: '10.00',
    totalAmount: '110.00',
    jobNumber: `JOB-00000${n}`,
    customerName: `Customer ${n}`,
    job: {
      ...base.job,
      jobNumber: `JOB-00000${n}`,
      customer: { ...base.job.customer, name: `Customer ${n}` },
    },
    ...overrides,
  });
};
/** What billing says of an invoice due on 1 January 2020. */
const DUE_IN_2020 = { dueDate: '2020-01-01', daysUntilDue: -2520 } as const;

describe('invoices tab', () => {
  test('"No invoices found"; the list refetches every 30 s with search and status on the server', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    const calls = stubFetch({
      'GET /api/dashboard/customer-invoices': { body: [], headers: { 'X-Total-Count': '0' } },
    });
    renderWithApp(<InvoicesTab />, { path: '/dashboard?tab=invoices&status=sent&q=smith' });
    expect(await screen.findByText('No invoices found')).toBeInTheDocument();
    expect(calls[0]!.search).toContain('status=sent');
    expect(calls[0]!.search).toContain('search=smith');
    const before = calls.length;
    await act(async () => {
      jest.advanceTimersByTime(30_000);
    });
    await waitFor(() => expect(calls.length).toBeGreaterThan(before));
  });

  test('bulk status change: one PATCH per invoice; a partial failure says so and refreshes the list', async () => {
    setViewport('desktop');
    const calls = stubFetch({
      'GET /api/dashboard/customer-invoices': {
        body: [invoice(1), invoice(2)],
        headers: { 'X-Total-Count': '2' },
      },
      'PATCH /api/dashboard/customer-invoices/inv-1': { success: true },
      'PATCH /api/dashboard/customer-invoices/inv-2': { status: 500, body: '' },
    });
    renderWithApp(<InvoicesTab />);
    await screen.findByText('INV-000001');
    // Select all rows with the header checkbox.
    fireEvent.click(screen.getAllByRole('checkbox')[0]!);
    expect(await screen.findByText('selected')).toBeInTheDocument();
    fireEvent.mouseDown(screen.getByLabelText('New status for selected invoices'));
    fireEvent.click(
      (await screen.findAllByText('Paid', { selector: '.ant-select-item-option-content' })).at(-1)!,
    );
    const gets = calls.filter((c) => c.method === 'GET').length;
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText(BULK_FAILURE)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => [c.path, c.body])).toEqual([
      ['/api/dashboard/customer-invoices/inv-1', { status: 'paid' }],
      ['/api/dashboard/customer-invoices/inv-2', { status: 'paid' }],
    ]);
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET').length).toBeGreaterThan(gets));
  });

  test('bulkSetStatus answers the ids that failed', async () => {
    const failed = await bulkSetStatus(['a', 'b', 'c'], 'sent', async (id) => {
      if (id === 'b') throw new Error('nope');
    });
    expect(failed).toEqual(['b']);
  });

  test('PDF: "PDF Generation Failed" when it cannot be built; due badges on unpaid invoices', async () => {
    stubFetch({
      'GET /api/dashboard/customer-invoices': {
        body: [
          invoice(1, { ...DUE_IN_2020, status: 'overdue', isOverdue: true }),
          invoice(2, { ...DUE_IN_2020, status: 'paid' }),
        ],
        headers: { 'X-Total-Count': '2' },
      },
      'POST /api/dashboard/customer-invoices/inv-1/pdf': {
        status: 400,
        body: { message: 'Please add at least one line item to the invoice.' },
      },
    });
    renderWithApp(<InvoicesTab />);
    await screen.findByText('INV-000001');
    expect(screen.getAllByText(/^Overdue by \d+ days$/)).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Download PDF of invoice INV-000001' }));
    expect(await screen.findByText('PDF Generation Failed')).toBeInTheDocument();
    expect(screen.getByText('Please add at least one line item to the invoice.')).toBeInTheDocument();
  });

  test('PDF: generated, then downloaded; a failed download says "Download Failed"', async () => {
    stubFetch({
      'GET /api/dashboard/customer-invoices': { body: [invoice(1)], headers: { 'X-Total-Count': '1' } },
      'POST /api/dashboard/customer-invoices/inv-1/pdf': {
        downloadUrl: '/api/dashboard/customer-invoices/inv-1/pdf',
        filename: 'INV-000001.pdf',
        invoiceNumber: 'INV-000001',
      },
      'GET /api/dashboard/customer-invoices/inv-1/pdf': {
        status: 404,
        body: { message: 'No PDF has been generated' },
      },
    });
    renderWithApp(<InvoicesTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Download PDF of invoice INV-000001' }));
    expect(await screen.findByText('Download Failed')).toBeInTheDocument();
  });

  test('email failure: "Invoice Email Failed"', async () => {
    stubFetch({
      'GET /api/dashboard/customer-invoices': { body: [invoice(1)], headers: { 'X-Total-Count': '1' } },
      'POST /api/dashboard/customer-invoices/inv-1/email': {
        status: 502,
        body: { message: 'Failed to send the invoice email: SMTP down' },
      },
    });
    renderWithApp(<InvoicesTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Email invoice INV-000001' }));
    expect(await screen.findByText('Invoice Email Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to send the invoice email: SMTP down')).toBeInTheDocument();
  });
});

describe('expenses tab', () => {
  test('"No expenses found"; Mark Paid only on unpaid expenses', async () => {
    stubFetch({ 'GET /api/dashboard/business-expenses': [] });
    const { unmount } = renderWithApp(<ExpensesTab />);
    expect(await screen.findByText('No expenses found')).toBeInTheDocument();
    unmount();
    const calls = stubFetch({
      'GET /api/dashboard/business-expenses': [
        expense({ id: 'e1', supplierName: 'BP', description: 'Fuel', category: 'fuel', isPaid: true }),
        expense({
          id: 'e2',
          supplierName: 'Telstra',
          invoiceNumber: 'T-1',
          description: 'Phone',
          amount: '88.00',
          gstAmount: '8.00',
          category: 'subscriptions',
          dueDate: '2026-12-01',
          isPaid: false,
          paidAt: null,
        }),
      ],
      'PATCH /api/dashboard/business-expenses/e2/mark-paid': { success: true },
    });
    renderWithApp(<ExpensesTab />, { path: '/dashboard?tab=expenses&category=fuel&paid=unpaid' });
    await screen.findByText('Telstra');
    expect(calls[0]!.search).toBe('?category=fuel&paid=unpaid');
    expect(screen.getAllByRole('button', { name: 'Mark Paid' })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Mark Paid' }));
    expect(await screen.findByText('Expense Marked as Paid')).toBeInTheDocument();
  });
});

describe('time slots tab', () => {
  test('"No available time slots for this date"', async () => {
    stubFetch({ 'GET /api/dashboard/timeslots/*': [] });
    renderWithApp(<TimeSlotsTab />);
    expect(await screen.findByText('No available time slots for this date')).toBeInTheDocument();
  });

  test('block needs a reason; unblock; failures say "Block Failed" / "Unblock Failed"', async () => {
    const calls = stubFetch({
      'GET /api/dashboard/timeslots/*': [
        adminSlot({ date: '2099-01-05', slot: '8-10 AM' }),
        adminSlot({
          date: '2099-01-05',
          slot: '10-12 AM',
          isAvailable: false,
          blockedReason: 'Van service',
          isBlocked: true,
          state: 'blocked',
        }),
      ],
      'PATCH /api/dashboard/timeslots/*': (r: { url: URL }) =>
        r.url.pathname.endsWith('/unblock')
          ? { status: 500, body: '' }
          : blockedSlot({ date: '2099-01-05', slot: '8-10 AM', blockedReason: 'Training', keptBookings: [] }),
    });
    renderWithApp(<TimeSlotsTab />, { path: '/dashboard?tab=time-slots&date=2099-01-05' });
    expect(await screen.findByText('Van service')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Block 8-10 AM' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Block Slot' }));
    expect(await screen.findByText('Please enter a reason for blocking this time slot')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Training' } });
    fireEvent.click(screen.getByRole('button', { name: 'Block Slot' }));
    expect(await screen.findByText('Time Slot Blocked')).toBeInTheDocument();
    // Nothing kept: the toast is all.
    expect(screen.queryByText('Booked jobs kept')).not.toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
      path: '/api/dashboard/timeslots/2099-01-05/8-10%20AM/block',
      body: { reason: 'Training' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Unblock 10-12 AM' }));
    expect(await screen.findByText('Unblock Failed')).toBeInTheDocument();
  });
});

describe('reports tab', () => {
  const empty = {
    'GET /api/dashboard/reports/gst': {
      gstCollected: '0.00',
      gstPaid: '0.00',
      netGST: '0.00',
      customerInvoices: [],
      purchaseInvoices: [],
    },
    'GET /api/dashboard/reports/purchases-payables': {
      totalPurchases: '0.00',
      totalPaid: '0.00',
      totalPayables: '0.00',
      overduePurchases: '0.00',
      purchasesBySupplier: [],
      purchasesByCategory: [],
      upcomingPayments: [],
    },
    'GET /api/dashboard/reports/enhanced-pl': {
      revenue: { customerInvoices: '0.00', jobRevenue: '0.00', totalRevenue: '0.00' },
      expenses: { jobCosts: '0.00', businessExpenses: '0.00', totalExpenses: '0.00' },
      profit: { grossProfit: '0.00', grossMargin: 0, netProfit: '0.00', netMargin: 0 },
      breakdown: { topRevenueStreams: [], topExpenseCategories: [] },
    },
  };

  test('three sub-tabs with their empty states; dates go to the server', async () => {
    const calls = stubFetch(empty);
    renderWithApp(<ReportsTab />, {
      path: '/dashboard?tab=reports&period=custom&from=2026-07-01&to=2026-09-30',
    });
    expect(await screen.findByText('No GST data available for the selected period')).toBeInTheDocument();
    expect(calls[0]!.search).toBe('?startDate=2026-07-01&endDate=2026-09-30');
    fireEvent.click(screen.getByRole('tab', { name: 'Payables' }));
    expect(await screen.findByText('No payables data available for the selected period')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'P&L Report' }));
    expect(await screen.findByText('No P&L data available for the selected period')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'GST Tracking (Visual Only)' })).toBeInTheDocument();
  });

  test('P&L figures are marked ex GST; the card surcharge is a revenue stream of its own', async () => {
    setViewport('desktop');
    stubFetch({
      ...empty,
      'GET /api/dashboard/reports/enhanced-pl': {
        revenue: { customerInvoices: '1181.82', jobRevenue: '0.00', totalRevenue: '1181.82' },
        expenses: { jobCosts: '381.82', businessExpenses: '0.00', totalExpenses: '381.82' },
        profit: { grossProfit: '800.00', grossMargin: 67.7, netProfit: '800.00', netMargin: 67.7 },
        breakdown: {
          topRevenueStreams: [
            { category: 'tyre', amount: '1180.27', percentage: 99.9 },
            { category: 'surcharge', amount: '1.55', percentage: 0.1 },
          ],
          topExpenseCategories: [],
        },
      },
    });
    renderWithApp(<ReportsTab />, { path: '/dashboard?tab=reports&report=pl' });
    fireEvent.click(await screen.findByRole('tab', { name: 'P&L Report' }));
    expect(await screen.findByText('Total Revenue (ex GST)')).toBeInTheDocument();
    expect(screen.getByText('Total Expenses (ex GST)')).toBeInTheDocument();
    const surcharge = screen.getByRole('cell', { name: 'Card surcharge' }).closest('tr')!;
    expect(surcharge).toHaveTextContent('$1.55');
  });

  test('failures: "Failed to fetch GST report", "...Purchases/Payables report", "...Enhanced P&L report"', async () => {
    stubFetch({ 'GET /api/dashboard/reports/*': { status: 500, body: '' } });
    renderWithApp(<ReportsTab />);
    expect(await screen.findByText('Failed to fetch GST report')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Payables' }));
    expect(await screen.findByText('Failed to fetch Purchases/Payables report')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'P&L Report' }));
    expect(await screen.findByText('Failed to fetch Enhanced P&L report')).toBeInTheDocument();
  });
});

describe('schedule', () => {
  test('admin: "Job Schedule & Assignment", summary cards, technician selector with Unassigned', async () => {
    setViewport('desktop');
    const calls = stubFetch({
      'GET /api/dashboard/jobs-with-details': (r: { url: URL }) => {
        const s = r.url.searchParams.get('scheduleStatus');
        const total = { pending: 3, confirmed: 2, completed: 7 }[s ?? ''] ?? 12;
        return { body: [job({ scheduleStatus: 'pending' })], headers: { 'X-Total-Count': String(total) } };
      },
      'GET /api/dashboard/technicians': [
        technician({ id: 't1', username: 'sam' }),
        technician({ id: 't2', username: 'alex' }),
      ],
      'PATCH /api/dashboard/jobs/*': job({ assignedTechnicianId: 't1' }),
    });
    renderWithApp(<ScheduleTab />);
    expect(await screen.findByText('Job Schedule & Assignment')).toBeInTheDocument();
    const summary = screen.getByRole('group', { name: 'Summary' });
    await waitFor(() =>
      expect(summary).toHaveTextContent('Total Jobs12Unassigned3Active Technicians2Completed7'),
    );
    const select = screen.getByLabelText('Technician for job JOB-000123');
    expect(select.closest('.ant-select')).toHaveTextContent('Unassigned');
    fireEvent.mouseDown(select);
    fireEvent.click(
      (await screen.findAllByText('sam', { selector: '.ant-select-item-option-content' })).at(-1)!,
    );
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
        path: '/api/dashboard/jobs/11111111-1111-4111-8111-111111111111/assign',
        body: { technicianId: 't1' },
      }),
    );
    expect(await screen.findByText('Assignment Updated')).toBeInTheDocument();
  });

  test('technician: "My Assigned Jobs" with my total, pending (incl. confirmed), completed; no selector', async () => {
    stubFetch({
      'GET /api/dashboard/jobs-with-details': (r: { url: URL }) => {
        const s = r.url.searchParams.get('scheduleStatus');
        const total = { pending: 0, confirmed: 2, completed: 1 }[s ?? ''] ?? 3;
        return {
          body: [job({ assignedTechnicianId: 'u-tech', scheduleStatus: 'confirmed' })],
          headers: { 'X-Total-Count': String(total) },
        };
      },
    });
    renderWithApp(<ScheduleTab />, { user: TECH });
    expect(await screen.findByText('My Assigned Jobs')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('group', { name: 'Summary' })).toHaveTextContent('My Total3Pending2Completed1'),
    );
    expect(screen.queryByLabelText(/Technician for job/)).not.toBeInTheDocument();
  });
});

describe('live notifications', () => {
  const booking = (n: number) => ({
    type: 'new_booking',
    data: {
      id: `j${n}`,
      jobNumber: `JOB-00000${n}`,
      serviceType: 'puncture-repair',
      suburb: 'Joondalup',
      timeSlot: '8-10 AM',
      createdAt: '2026-11-21T01:00:00Z',
    },
  });

  test('newest first, 3 shown unless expanded, first dismissed after 10 s, jobs refreshed on arrival', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    stubFetch({});
    const { queryClient } = renderWithApp(
      <NotificationCenter>
        <p>dashboard</p>
      </NotificationCenter>,
    );
    const socket = FakeSocket.instances[0]!;
    expect(socket.url).toBe('ws://localhost/ws/notifications');
    const invalidate = jest.spyOn(queryClient, 'invalidateQueries');
    act(() => socket.open());
    expect(JSON.parse(socket.sent[0]!)).toEqual({ type: 'subscribe_suburbs', suburbs: [] });
    act(() => {
      for (const n of [1, 2, 3, 4]) socket.receive(booking(n));
    });
    const region = screen.getByRole('region', { name: 'New booking notifications' });
    const titles = () =>
      within(region)
        .queryAllByText(/^New Booking/)
        .map((e) => e.textContent);
    expect(titles()).toEqual([
      'New Booking: JOB-000004',
      'New Booking: JOB-000003',
      'New Booking: JOB-000002',
    ]);
    fireEvent.click(within(region).getByRole('button', { name: 'Show 1 more' }));
    expect(titles()).toHaveLength(4);
    act(() => {
      jest.advanceTimersByTime(10_000);
    });
    expect(titles()[0]).toBe('New Booking: JOB-000003');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/dashboard/jobs-with-details'] });
    act(() => socket.drop());
    expect(screen.getByText('dashboard')).toBeInTheDocument();
    act(() => {
      jest.advanceTimersByTime(1000);
    });
    expect(FakeSocket.instances).toHaveLength(2);
  });

  test('after a reconnect the job lists are refetched: bookings made while it was down were never sent', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    stubFetch({});
    const { queryClient } = renderWithApp(
      <NotificationCenter>
        <p>dashboard</p>
      </NotificationCenter>,
    );
    const invalidate = jest.spyOn(queryClient, 'invalidateQueries');
    act(() => FakeSocket.instances[0]!.open());
    act(() => {
      jest.advanceTimersByTime(5000);
    });
    // The first connection has nothing to catch up on.
    expect(invalidate).not.toHaveBeenCalledWith({ queryKey: ['/api/dashboard/jobs-with-details'] });
    act(() => FakeSocket.instances[0]!.drop());
    act(() => {
      jest.advanceTimersByTime(1000);
    });
    act(() => FakeSocket.instances[1]!.open());
    act(() => {
      jest.advanceTimersByTime(0);
    });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/dashboard/jobs-with-details'] });
  });
});
