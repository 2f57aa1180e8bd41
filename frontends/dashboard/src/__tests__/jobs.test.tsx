import '../testing/polyfills';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { JobsTab } from '../tabs/JobsTab';
import { JobDetailDialog } from '../job-detail/JobDetailDialog';
import { NotificationCenter } from '../notifications/NotificationCenter';
import { DashboardPage } from '../pages/DashboardPage';
import { FakeSocket, job, renderWithApp, setViewport, stubFetch, TECH } from '../testing/render';

afterEach(() => setViewport('phone'));

const page = (items: unknown[], total = items.length) => ({
  body: items,
  headers: { 'X-Total-Count': String(total) },
});

describe('jobs tab', () => {
  test('desktop table: columns, address cut at 20, Create Invoice only for completed/invoiced/paid', async () => {
    setViewport('desktop');
    const calls = stubFetch({
      'GET /api/dashboard/jobs-with-details': page(
        [job(), job({ id: 'j2', jobNumber: 'JOB-000124', status: 'completed' })],
        2,
      ),
    });
    renderWithApp(<JobsTab />);
    expect(await screen.findByText('JOB-000123')).toBeInTheDocument();
    for (const header of [
      'Job ID',
      'Customer',
      'Service',
      'Date/Time',
      'Location',
      'Status',
      'Value',
      'Actions',
    ])
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    expect(screen.getAllByText('1234 Very Long Stree...')).toHaveLength(2);
    expect(screen.getAllByText('new tyres')).toHaveLength(2);
    expect(
      screen.queryByRole('button', { name: 'Create invoice for job JOB-000123' }),
    ).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create invoice for job JOB-000124' })).toBeInTheDocument();
    expect(calls[0]!.search).toContain('page=1');
    expect(calls[0]!.search).toContain('pageSize=25');
  });

  test('Create Invoice goes to /dashboard/invoices/new?jobId=', async () => {
    stubFetch({ 'GET /api/dashboard/jobs-with-details': page([job({ status: 'paid' })]) });
    renderWithApp(<JobsTab />);
    await userEvent.click(await screen.findByRole('button', { name: 'Create invoice for job JOB-000123' }));
    expect(screen.getByTestId('location')).toHaveTextContent(
      '/dashboard/invoices/new?jobId=11111111-1111-4111-8111-111111111111',
    );
  });

  test('delete asks "delete job {number}... cannot be undone", then deletes', async () => {
    const calls = stubFetch({
      'GET /api/dashboard/jobs-with-details': page([job()]),
      'DELETE /api/dashboard/jobs/*': { success: true },
    });
    renderWithApp(<JobsTab />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete job JOB-000123' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete job JOB-000123? This action cannot be undone.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(
        calls.some(
          (c) =>
            c.method === 'DELETE' && c.path === '/api/dashboard/jobs/11111111-1111-4111-8111-111111111111',
        ),
      ).toBe(true),
    );
    expect(await screen.findByText('Job Deleted')).toBeInTheDocument();
  });

  test('a failed delete shows "Delete Failed" with the server message', async () => {
    stubFetch({
      'GET /api/dashboard/jobs-with-details': page([job()]),
      'DELETE /api/dashboard/jobs/*': {
        status: 409,
        body: { message: 'Job JOB-000123 has an invoice and cannot be deleted' },
      },
    });
    renderWithApp(<JobsTab />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete job JOB-000123' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete Failed')).toBeInTheDocument();
    expect(screen.getByText('Job JOB-000123 has an invoice and cannot be deleted')).toBeInTheDocument();
  });

  test('empty states: admin "No jobs found", technician "No jobs assigned to you yet" (and no Delete)', async () => {
    stubFetch({ 'GET /api/dashboard/jobs-with-details': page([]) });
    const { unmount } = renderWithApp(<JobsTab />);
    expect(await screen.findByText('No jobs found')).toBeInTheDocument();
    unmount();
    stubFetch({ 'GET /api/dashboard/jobs-with-details': page([]) });
    renderWithApp(<JobsTab />, { user: TECH });
    expect(await screen.findByText('No jobs assigned to you yet')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /My Jobs/ })).toBeInTheDocument();
  });

  test('a failed load says "Failed to fetch jobs" / "Failed to fetch assigned jobs"', async () => {
    stubFetch({
      'GET /api/dashboard/jobs-with-details': { status: 500, body: { message: 'Database unavailable' } },
    });
    renderWithApp(<JobsTab />, { user: TECH });
    expect(await screen.findByText('Failed to fetch assigned jobs')).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
  });

  test('the status filter goes to the server and into the URL', async () => {
    const calls = stubFetch({ 'GET /api/dashboard/jobs-with-details': page([job()]) });
    renderWithApp(<JobsTab />, { path: '/dashboard?tab=jobs&status=completed' });
    await screen.findByText('JOB-000123');
    expect(calls[0]!.search).toContain('status=completed');
  });
});

describe('tabs', () => {
  test('technicians get My Jobs, My Schedule, Settings; other tabs are "coming soon"; settings show "Not set"', async () => {
    stubFetch({ 'GET /api/dashboard/jobs-with-details': page([]) });
    renderWithApp(<DashboardPage onLogout={() => undefined} loggingOut={false} />, {
      user: TECH,
      path: '/dashboard?tab=settings',
    });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'My Jobs',
      'My Schedule',
      'Settings',
    ]);
    expect(screen.getByText('Not set')).toBeInTheDocument();
    expect(screen.getByText('Technician')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'My Jobs' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard?tab=jobs');
  });

  test('an admin-only tab opened by a technician is a coming-soon note, not the tab', () => {
    stubFetch({});
    renderWithApp(<DashboardPage onLogout={() => undefined} loggingOut={false} />, {
      user: TECH,
      path: '/dashboard?tab=team',
    });
    expect(screen.getByText('This section is coming soon.')).toBeInTheDocument();
    expect(screen.queryByText('Team Management')).not.toBeInTheDocument();
  });

  test('admins get the nine tabs', () => {
    stubFetch({ 'GET /api/dashboard/jobs-with-details': page([]) });
    renderWithApp(<DashboardPage onLogout={() => undefined} loggingOut={false} />);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Jobs',
      'Schedule',
      'Invoices',
      'Expenses',
      'Time Slots',
      'Reports',
      'Prices',
      'Team',
      'Settings',
    ]);
  });
});

describe('job detail dialog', () => {
  test('no id: "Error: No job ID provided"', () => {
    stubFetch({});
    renderWithApp(<JobDetailDialog jobId={null} onClose={() => undefined} />);
    expect(screen.getByText('Error: No job ID provided')).toBeInTheDocument();
  });

  test('someone else\'s job (404): "Error loading job details" with the message', async () => {
    stubFetch({ 'GET /api/dashboard/jobs/*': { status: 404, body: { message: 'Job not found' } } });
    renderWithApp(
      <JobDetailDialog jobId="22222222-2222-4222-8222-222222222222" onClose={() => undefined} />,
      { user: TECH },
    );
    expect(await screen.findByText('Error loading job details')).toBeInTheDocument();
    expect(screen.getByText('Job not found')).toBeInTheDocument();
  });

  test('customer, vehicle, progress, contact links; Start Work offers the SMS with a 30-minute ETA', async () => {
    const calls = stubFetch({
      'GET /api/dashboard/jobs/*': job(),
      'GET /api/dashboard/purchase-invoices/job/*': [],
      'PATCH /api/dashboard/jobs/*': (r: { body: unknown }) => ({
        ...job({ status: 'in-progress' }),
        smsRequested: (r.body as { notifyCustomer?: boolean }).notifyCustomer,
      }),
    });
    renderWithApp(<JobDetailDialog jobId="11111111-1111-4111-8111-111111111111" onClose={() => undefined} />);
    expect(await screen.findByText('Olivia Smith', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('2019 Toyota Hilux')).toBeInTheDocument();
    for (const step of [
      'Booking confirmed',
      'Technician en route',
      'Work completed',
      'Invoice sent',
      'Payment received',
    ])
      expect(screen.getByText(step)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Call Olivia Smith' })).toHaveAttribute('href', 'tel:0412345678');
    expect(screen.getByRole('link', { name: 'Send SMS to Olivia Smith' })).toHaveAttribute(
      'href',
      'sms:0412345678',
    );
    expect(screen.getByRole('link', { name: 'Email Olivia Smith' }).getAttribute('href')).toMatch(
      /^mailto:olivia@example.com/,
    );
    expect(await screen.findByText('No purchase invoices for this job yet.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Start Work (En Route)' }));
    expect(await screen.findByText('Send the customer an SMS with the ETA')).toBeInTheDocument();
    expect(screen.getByLabelText('SMS preview')).toHaveTextContent(
      /Hi Olivia, your technician is on the way\. Estimated arrival: \d{1,2}:\d{2} (am|pm)/,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Start Work' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
        status: 'in-progress',
        notifyCustomer: true,
      }),
    );
    expect(await screen.findByText('Work Started')).toBeInTheDocument();
    // Only notify knows whether a provider took the SMS: until it says so, it is being sent, never "sent".
    expect(
      screen.getByText(/Sending the customer an SMS with ETA \d{1,2}:\d{2} (am|pm)…/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/SMS sent/)).not.toBeInTheDocument();
  });

  test('the SMS toast follows notify: "SMS sent" only when a provider took it, "recorded" without one, the failure', async () => {
    stubFetch({
      'GET /api/dashboard/jobs/*': job(),
      'GET /api/dashboard/purchase-invoices/job/*': [],
      'PATCH /api/dashboard/jobs/*': { ...job({ status: 'in-progress' }), smsRequested: true },
    });
    renderWithApp(
      <NotificationCenter>
        <JobDetailDialog jobId="11111111-1111-4111-8111-111111111111" onClose={() => undefined} />
      </NotificationCenter>,
    );
    const socket = FakeSocket.instances.at(-1)!;
    act(() => socket.open());
    await userEvent.click(await screen.findByRole('button', { name: 'Start Work (En Route)' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Start Work' }));
    expect(await screen.findByText(/Sending the customer an SMS/)).toBeInTheDocument();
    const delivery = (status: string, message: string) =>
      act(() =>
        socket.receive({
          type: 'sms_delivery',
          data: {
            jobId: '11111111-1111-4111-8111-111111111111',
            purpose: 'technician-en-route',
            status,
            message,
          },
        }),
      );
    // notify's texts (services/notify/src/domain/notifications.ts SMS_DELIVERY_MESSAGES)
    delivery('recorded', 'SMS recorded (no provider configured)');
    expect(await screen.findByText('SMS recorded (no provider configured)')).toBeInTheDocument();
    expect(screen.getByText(/Nobody received it/)).toBeInTheDocument();
    expect(screen.queryByText('SMS sent')).not.toBeInTheDocument();
    delivery('sent', 'SMS sent');
    expect(await screen.findByText('SMS sent')).toBeInTheDocument();
    expect(screen.getByText('The SMS provider accepted the message to the customer.')).toBeInTheDocument();
    delivery('failed', 'SMS not sent: The number is not a mobile number');
    const failed = await screen.findByRole('alert');
    expect(failed).toHaveTextContent('SMS not sent');
    expect(failed).toHaveTextContent('The number is not a mobile number');
    // A message with a status it does not know says nothing rather than something wrong.
    delivery('queued', 'later');
    expect(screen.queryByText('later')).not.toBeInTheDocument();
  });

  test('an SMS outcome that arrives before Start Work has answered is shown after "Work Started", not hidden by it', async () => {
    let answer: (value: unknown) => void = () => undefined;
    const patchAnswered = new Promise((resolve) => (answer = resolve));
    stubFetch({
      'GET /api/dashboard/jobs/*': job(),
      'GET /api/dashboard/purchase-invoices/job/*': [],
      'PATCH /api/dashboard/jobs/*': () => patchAnswered,
    });
    renderWithApp(
      <NotificationCenter>
        <JobDetailDialog jobId="11111111-1111-4111-8111-111111111111" onClose={() => undefined} />
      </NotificationCenter>,
    );
    const socket = FakeSocket.instances.at(-1)!;
    act(() => socket.open());
    await userEvent.click(await screen.findByRole('button', { name: 'Start Work (En Route)' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Start Work' }));
    // notify is quicker than the PATCH: the outcome waits for the status change it belongs to.
    act(() =>
      socket.receive({
        type: 'sms_delivery',
        data: {
          jobId: '11111111-1111-4111-8111-111111111111',
          purpose: 'technician-en-route',
          status: 'recorded',
          message: 'SMS recorded (no provider configured)',
        },
      }),
    );
    expect(screen.queryByText('SMS recorded (no provider configured)')).not.toBeInTheDocument();
    await act(async () => {
      answer({ ...job({ status: 'in-progress' }), smsRequested: true });
      await patchAnswered;
    });
    const outcome = await screen.findByText('SMS recorded (no provider configured)');
    // The newest toast is the outcome; "Work Started" came first and was replaced.
    await waitFor(() => expect(outcome).toBeVisible());
    const workStarted = screen.queryByText('Work Started');
    if (workStarted) expect(workStarted).not.toBeVisible();
  });

  test('Generate Invoice creates the invoice; the job moves to invoiced (the jobs service does it, the dialog follows)', async () => {
    let gets = 0;
    const calls = stubFetch({
      'GET /api/dashboard/jobs/*': () => {
        gets += 1;
        return job({ status: gets === 1 ? 'completed' : 'invoiced', completedAt: '2026-11-21T02:00:00Z' });
      },
      'GET /api/dashboard/purchase-invoices/job/*': [],
      'POST /api/dashboard/customer-invoices/generate/*': {
        customerInvoice: { id: 'inv1', invoiceNumber: 'INV-000042' },
      },
    });
    renderWithApp(<JobDetailDialog jobId="11111111-1111-4111-8111-111111111111" onClose={() => undefined} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Generate Invoice' }));
    expect(await screen.findByText('Invoice Generated')).toBeInTheDocument();
    expect(screen.getByText('Invoice INV-000042 has been created.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Mark as Paid' })).toBeInTheDocument();
    expect(calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /api/dashboard/customer-invoices/generate/11111111-1111-4111-8111-111111111111',
    ]);
  });

  test('Generate Invoice on a job that already has one says so and shows that invoice (billing 409)', async () => {
    const calls = stubFetch({
      'GET /api/dashboard/jobs/*': job({
        status: 'completed',
        paymentMethod: 'prepaid',
        customerValue: '99.80',
      }),
      'GET /api/dashboard/purchase-invoices/job/*': [],
      'GET /api/dashboard/customer-invoices/job/*': [
        {
          id: 'inv45',
          jobId: '11111111-1111-4111-8111-111111111111',
          invoiceNumber: 'INV-000045',
          status: 'paid',
          amountType: 'inclusive',
          invoiceDate: '2026-11-20',
          dueDate: '2026-12-20',
          subtotalAmount: '92.27',
          gstAmount: '9.23',
          totalAmount: '101.50',
          paymentIntentId: 'pi_123',
        },
      ],
      'POST /api/dashboard/customer-invoices/generate/*': {
        status: 409,
        body: { message: 'Job JOB-000123 already has invoice INV-000045' },
      },
    });
    renderWithApp(<JobDetailDialog jobId="11111111-1111-4111-8111-111111111111" onClose={() => undefined} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Generate Invoice' }));
    expect(await screen.findByText('Invoice Already Exists')).toBeInTheDocument();
    expect(screen.queryByText('Invoice Generation Failed')).not.toBeInTheDocument();
    const section = screen.getByRole('region', { name: 'Customer Invoices' });
    expect(within(section).getByText('Job JOB-000123 already has invoice INV-000045')).toBeInTheDocument();
    const shown = within(section).getByRole('listitem', { name: 'Invoice INV-000045' });
    await waitFor(() => expect(shown).toHaveFocus());
    expect(shown).toHaveClass('is-highlighted');
    expect(shown).toHaveTextContent('Amounts include GST');
    expect(shown).toHaveTextContent('$101.50');
    expect(shown).toHaveTextContent('Includes GST $9.23');
    within(shown).getByRole('button', { name: 'Open invoice INV-000045' }).click();
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/dashboard?tab=invoices&invoice=inv45'),
    );
    // No second invoice was asked for, and the job status was left to the jobs service.
    expect(calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /api/dashboard/customer-invoices/generate/11111111-1111-4111-8111-111111111111',
    ]);
  });

  test('Mark as Paid failure: "Update Failed" / "Failed to update payment status."; paid jobs say "Job Complete"', async () => {
    stubFetch({
      'GET /api/dashboard/jobs/*': job({ status: 'invoiced' }),
      'GET /api/dashboard/purchase-invoices/job/*': [],
      'PATCH /api/dashboard/jobs/*': { status: 500, body: '' },
    });
    const { unmount } = renderWithApp(
      <JobDetailDialog jobId="11111111-1111-4111-8111-111111111111" onClose={() => undefined} />,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Mark as Paid' }));
    expect(await screen.findByText('Update Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to update payment status.')).toBeInTheDocument();
    unmount();
    stubFetch({
      'GET /api/dashboard/jobs/*': job({ status: 'paid' }),
      'GET /api/dashboard/purchase-invoices/job/*': [],
    });
    renderWithApp(<JobDetailDialog jobId="11111111-1111-4111-8111-111111111111" onClose={() => undefined} />);
    expect(await screen.findByText('Job Complete')).toBeInTheDocument();
  });

  test('purchase invoices: profit, paid badge toggle sets paidAt', async () => {
    const calls = stubFetch({
      'GET /api/dashboard/jobs/*': job(),
      'GET /api/dashboard/purchase-invoices/job/*': [
        {
          id: 'p1',
          jobId: 'j',
          invoiceNumber: 'TP-1',
          supplierName: 'Tyrepower',
          invoiceDate: '2026-11-20',
          totalAmount: '420.00',
          gstAmount: '38.18',
          category: 'cost-of-goods-sold',
          isPaid: false,
          paidAt: null,
        },
      ],
      'PATCH /api/dashboard/purchase-invoices/*': { success: true },
    });
    renderWithApp(<JobDetailDialog jobId="11111111-1111-4111-8111-111111111111" onClose={() => undefined} />);
    expect(await screen.findByText('TP-1')).toBeInTheDocument();
    // Ex GST: 749.80 - 68.16 = 681.64, less 420.00 - 38.18 = 381.82 (not 749.80 - 420.00 = 329.80)
    const profit = screen.getByLabelText('Profit (ex GST)');
    expect(within(profit).getByText('Job value (ex GST)').nextSibling).toHaveTextContent('$681.64');
    expect(within(profit).getByText('Purchases (ex GST)').nextSibling).toHaveTextContent('$381.82');
    expect(within(profit).getByText('Profit (ex GST)').nextSibling).toHaveTextContent('$299.82');
    await userEvent.click(screen.getByRole('checkbox', { name: /Purchase invoice TP-1 is unpaid/ }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({
        isPaid: true,
        paidAt: expect.any(String),
      }),
    );
  });
});
