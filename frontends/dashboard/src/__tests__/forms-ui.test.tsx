import '../testing/polyfills';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NewBookingPage } from '../pages/NewBookingPage';
import { NewInvoicePage } from '../invoices/NewInvoicePage';
import { LoginPage } from '../pages/LoginPage';
import { AddUserDialog, TeamTab } from '../tabs/TeamTab';
import { ExpenseDialog } from '../tabs/ExpensesTab';
import { PurchaseInvoiceDialog } from '../job-detail/PurchaseInvoiceDialog';
import { BUSINESS, job, renderWithApp, stubFetch, TECH } from '../testing/render';
import { addDaysToDate, perthToday } from '../lib/dates';

/** Opens an antd Select by its label and picks an option by text. */
async function choose(label: string | RegExp, option: string) {
  const input = screen.getByLabelText(label);
  fireEvent.mouseDown(input);
  const target = await waitFor(() => {
    const found = screen.getAllByText(option, { selector: '.ant-select-item-option-content' }).at(-1)!;
    if (found.closest('.ant-select-item-option-disabled')) throw new Error(`${option} is disabled`);
    return found;
  });
  fireEvent.click(target);
}

/** Picks a date in an antd DatePicker (inputs are read-only: the panel is the way in). */
async function pickDate(label: string | RegExp, date: string) {
  const input = screen.getByLabelText(label);
  fireEvent.mouseDown(input);
  fireEvent.click(input);
  const cell = await waitFor(() => {
    const found = document.querySelector(`td[title="${date}"]`);
    if (!found) throw new Error(`no cell ${date}`);
    return found;
  });
  fireEvent.click(cell.querySelector('.ant-picker-cell-inner') ?? cell);
}

describe('login', () => {
  test('validation messages, then "Invalid username or password" on a 401, and the administrator note', async () => {
    stubFetch({
      'GET /api/user': { status: 401, body: {} },
      'POST /api/login': { status: 401, body: { message: 'Invalid username or password' } },
    });
    renderWithApp(<LoginPage business={BUSINESS} homePath="/dashboard" />, { path: '/auth' });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText(/contact your administrator/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Username'), 'nobody');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid username or password')).toBeInTheDocument();
  });

  test('a throttled login shows the server message as is', async () => {
    const message = 'Too many failed login attempts. Please try again in 15 minutes.';
    stubFetch({
      'GET /api/user': { status: 401, body: {} },
      'POST /api/login': { status: 429, body: { message } },
    });
    renderWithApp(<LoginPage business={BUSINESS} homePath="/dashboard" />, { path: '/auth' });
    await userEvent.type(await screen.findByLabelText('Username'), 'admin');
    await userEvent.type(screen.getByLabelText('Password'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  test('already signed in: redirected home', async () => {
    stubFetch({ 'GET /api/user': { id: 1, username: 'admin', role: 'admin' } });
    renderWithApp(<LoginPage business={BUSINESS} homePath="/dashboard" />, { path: '/auth' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/));
  });
});

describe('new booking (staff)', () => {
  test('every card; an empty submit shows the spec messages and sends nothing', async () => {
    const calls = stubFetch({});
    renderWithApp(<NewBookingPage />, { path: '/dashboard/booking/new' });
    for (const card of [
      'Date & Time',
      'Service Details',
      'Customer Details',
      'Vehicle Details',
      'Service Location',
      'Payment & Notes',
    ])
      expect(screen.getByText(card)).toBeInTheDocument();
    expect(screen.getByText('Admin Dashboard')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Create Booking' }));
    for (const message of [
      'Please select a date',
      'Please select a time slot',
      'Please select a service',
      'Customer name is required',
      'Valid phone number required',
      'Valid email address required',
      'Vehicle make is required',
      'Full address is required',
    ])
      expect(await screen.findByText(message)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  test('estimated total, slots with "(Unavailable)", tyre size digits only; Create → "Booking Created" and back to the dashboard', async () => {
    const date = addDaysToDate(perthToday(), 2);
    const calls = stubFetch({
      'GET /api/time-slots/availability': [
        { slot: '8-10 AM', isAvailable: false, blockedReason: 'Booked' },
        { slot: '10-12 AM', isAvailable: true, blockedReason: null },
        { slot: '12-2 PM', isAvailable: true, blockedReason: null },
        { slot: '2-4 PM', isAvailable: true, blockedReason: null },
      ],
      'GET /api/tyre-pricing/*': { price: '139.00' },
      'GET /api/addresses/suggestions': [
        {
          streetAddress: '12 Ocean Reef Road',
          fullAddress: '12 Ocean Reef Road, Joondalup WA 6027',
          suburb: 'Joondalup',
          postcode: '6027',
        },
      ],
      'POST /api/bookings': { status: 201, body: { jobId: 'j9', jobNumber: 'JOB-000999' } },
    });
    renderWithApp(<NewBookingPage />, { path: '/dashboard/booking/new' });

    await pickDate('Service Date', date);
    await waitFor(() =>
      expect(
        calls.some((c) => c.path === '/api/time-slots/availability' && c.search === `?date=${date}`),
      ).toBe(true),
    );
    fireEvent.mouseDown(screen.getByLabelText('Time Slot'));
    expect(await screen.findByText('8-10 AM (Unavailable)')).toBeInTheDocument();
    await choose('Time Slot', '10-12 AM');

    await choose('Service Type', 'Puncture Repair');
    expect(await screen.findByText('Estimated Total: $129.80')).toBeInTheDocument();
    await choose('Service Type', 'New Tyres');
    fireEvent.change(screen.getByLabelText('Width'), { target: { value: '2a05' } });
    expect(screen.getByLabelText('Width')).toHaveValue('205');
    fireEvent.change(screen.getByLabelText('Profile'), { target: { value: '55' } });
    fireEvent.change(screen.getByLabelText('Rim'), { target: { value: '16' } });
    // (139 + 25 + 15) × 4 + 89.80, paying on site
    expect(await screen.findByText('Estimated Total: $805.80')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Full Name'), { target: { value: 'Olivia Smith' } });
    fireEvent.change(screen.getByLabelText('Phone Number'), { target: { value: '0412345678' } });
    fireEvent.change(screen.getByLabelText('Email Address'), { target: { value: 'olivia@example.com' } });
    fireEvent.change(screen.getByLabelText('Make'), { target: { value: 'Toyota' } });
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'Hilux' } });
    fireEvent.change(screen.getByLabelText('Year'), { target: { value: '2019' } });
    fireEvent.change(screen.getByLabelText('Color'), { target: { value: 'White' } });
    fireEvent.change(screen.getByLabelText('Registration'), { target: { value: '1abc234' } });
    expect(screen.getByLabelText('Registration')).toHaveValue('1ABC234');
    fireEvent.change(screen.getByLabelText('Street Address'), { target: { value: '12 Ocean' } });
    fireEvent.click(
      (
        await screen.findAllByText('12 Ocean Reef Road, Joondalup WA 6027', {
          selector: '.ant-select-item-option-content',
        })
      ).at(-1)!,
    );
    await waitFor(() => expect(screen.getByLabelText('Suburb')).toHaveValue('Joondalup'));
    expect(screen.getByLabelText('Postcode')).toHaveValue('6027');
    expect(screen.getByLabelText('Street Address')).toHaveValue('12 Ocean Reef Road');
    // The lookups of one address entry share a session token (the provider bills them as one session).
    const lookups = calls.filter((c) => c.path === '/api/addresses/suggestions');
    expect(new URLSearchParams(lookups[0]!.search).get('q')).toBe('12 Ocean');
    expect(new URLSearchParams(lookups[0]!.search).get('sessionToken')).toMatch(/^[\w-]{8,}$/);

    fireEvent.click(screen.getByRole('button', { name: 'Create Booking' }));
    expect(await screen.findByText('Booking Created')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/bookings');
    expect(post?.body).toEqual({
      customer: { name: 'Olivia Smith', email: 'olivia@example.com', phone: '0412345678' },
      vehicle: { make: 'Toyota', model: 'Hilux', year: 2019, color: 'White', registration: '1ABC234' },
      job: {
        serviceType: 'new-tyres',
        scheduledDate: `${date}T10:00:00+08:00`,
        timeSlot: '10-12 AM',
        address: '12 Ocean Reef Road',
        suburb: 'Joondalup',
        postcode: '6027',
        tyreSize: '205/55R16',
        tyreQuantity: 4,
        paymentMethod: 'onsite',
      },
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard?tab=jobs'));
  }, 120_000);

  test('a failed booking: "Booking Failed" with the server message, the form stays', async () => {
    const date = addDaysToDate(perthToday(), 2);
    stubFetch({
      'GET /api/time-slots/availability': [{ slot: '2-4 PM', isAvailable: true, blockedReason: null }],
      'GET /api/addresses/suggestions': { status: 503, body: { message: 'down' } },
      'POST /api/bookings': {
        status: 409,
        body: {
          message: 'This time slot was just booked by someone else. Please select a different time slot.',
        },
      },
    });
    renderWithApp(<NewBookingPage />, { path: '/dashboard/booking/new' });
    await pickDate('Service Date', date);
    await choose('Time Slot', '2-4 PM');
    await choose('Service Type', 'Mobile Battery Service');
    // Battery service is booked at $0 and priced on site: no estimated total (it used to say the $89.80 callout).
    expect(await screen.findByText('Quoted on site')).toBeInTheDocument();
    expect(screen.queryByText(/Estimated Total/)).not.toBeInTheDocument();
    for (const [label, value] of [
      ['Full Name', 'Jo Bloggs'],
      ['Phone Number', '0898765432'],
      ['Email Address', 'jo@example.com'],
      ['Make', 'Ford'],
      ['Model', 'Ranger'],
      ['Year', '2015'],
      ['Color', 'Blue'],
      ['Registration', 'XYZ123'],
      ['Street Address', '9 Main Street'],
      ['Suburb', 'Midland'],
      ['Postcode', '6056'],
    ] as const)
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    expect(
      await screen.findByText('Address suggestions unavailable - please enter manually'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Create Booking' }));
    expect(await screen.findByText('Booking Failed')).toBeInTheDocument();
    expect(
      screen.getByText(
        'This time slot was just booked by someone else. Please select a different time slot.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard/booking/new');
  }, 120_000);
});

describe('new invoice page', () => {
  test('"No Job Selected" without jobId; "Job Not Found" for an unknown job', async () => {
    stubFetch({ 'GET /api/dashboard/jobs/*': { status: 404, body: { message: 'Job not found' } } });
    const { unmount } = renderWithApp(<NewInvoicePage />, { path: '/dashboard/invoices/new' });
    expect(screen.getByText('No Job Selected')).toBeInTheDocument();
    unmount();
    renderWithApp(<NewInvoicePage />, { path: '/dashboard/invoices/new?jobId=nope' });
    expect(await screen.findByText('Job Not Found')).toBeInTheDocument();
  });

  test('line items with the spec rules; totals by amount type (GST inside or added), GST-free lines; create then add each item', async () => {
    const calls = stubFetch({
      'GET /api/dashboard/jobs/*': job({ status: 'completed' }),
      'GET /api/dashboard/customer-invoices/job/*': [],
      'POST /api/dashboard/customer-invoices': {
        status: 201,
        body: { success: true, customerInvoice: { id: 'inv-1', invoiceNumber: 'INV-000050' } },
      },
      'POST /api/dashboard/customer-invoices/inv-1/items': { status: 201, body: { success: true } },
    });
    renderWithApp(<NewInvoicePage />, {
      path: '/dashboard/invoices/new?jobId=11111111-1111-4111-8111-111111111111',
    });
    expect(await screen.findByText('Job Details')).toBeInTheDocument();
    expect(screen.getByText('Invoice Information')).toBeInTheDocument();
    const create = screen.getByRole('button', { name: 'Create Invoice' });
    expect(create).toBeDisabled();

    fireEvent.click(screen.getByRole('button', { name: 'Add Line Item' }));
    expect(await screen.findByText('Please enter a description for the line item.')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Description', { selector: '#new-line-new-description' }), {
      target: { value: 'Wheel alignment' },
    });
    fireEvent.change(screen.getByLabelText('Quantity', { selector: '#new-line-new-quantity' }), {
      target: { value: '2' },
    });
    fireEvent.change(screen.getByLabelText('Unit Price', { selector: '#new-line-new-price' }), {
      target: { value: '50.005' },
    });
    fireEvent.blur(screen.getByLabelText('Unit Price', { selector: '#new-line-new-price' }));
    // Category defaults to labour.
    expect(within(document.querySelector('.dash-line-add')!).getByText('Labour')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Add Line Item' }));
    expect(await screen.findByText('Wheel alignment')).toBeInTheDocument();

    // A new invoice's amounts include GST (as billing makes them): the total is the lines, GST 100.02 ÷ 11.
    expect(screen.getByRole('radio', { name: 'Amounts include GST' })).toBeChecked();
    const totals = () => screen.getAllByLabelText('Invoice totals').at(-1)!;
    expect(totals()).toHaveTextContent('Ex GST$90.93');
    expect(totals()).toHaveTextContent('Includes GST$9.09');
    expect(totals()).toHaveTextContent('Total$100.02');

    // "GST added": 10% of the lines on top.
    fireEvent.click(screen.getByRole('radio', { name: 'GST added' }));
    expect(totals()).toHaveTextContent('Subtotal$100.02');
    expect(totals()).toHaveTextContent('GST (10%)$10.00');
    expect(totals()).toHaveTextContent('Total$110.02');

    // A GST-free line adds to the total but not to the GST.
    fireEvent.change(screen.getByLabelText('Description', { selector: '#new-line-new-description' }), {
      target: { value: 'Tyre disposal levy' },
    });
    fireEvent.change(screen.getByLabelText('Unit Price', { selector: '#new-line-new-price' }), {
      target: { value: '5' },
    });
    fireEvent.click(screen.getByLabelText('GST-free', { selector: '#new-line-new-gst-free' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add Line Item' }));
    expect(await screen.findByText('Tyre disposal levy')).toBeInTheDocument();
    expect(totals()).toHaveTextContent('Subtotal$105.02');
    expect(totals()).toHaveTextContent('GST (10%)$10.00');
    expect(totals()).toHaveTextContent('Total$115.02');

    expect(create).toBeEnabled();
    fireEvent.click(create);
    expect(await screen.findByText('Invoice Created')).toBeInTheDocument();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts[0]).toMatchObject({
      path: '/api/dashboard/customer-invoices',
      body: {
        jobId: '11111111-1111-4111-8111-111111111111',
        status: 'draft',
        dueDate: addDaysToDate(perthToday(), 30),
        amountType: 'exclusive',
      },
    });
    // The totals are billing's to work out from the lines: none are sent.
    expect(posts[0]!.body).not.toHaveProperty('totalAmount');
    expect(posts[1]).toMatchObject({
      path: '/api/dashboard/customer-invoices/inv-1/items',
      body: {
        description: 'Wheel alignment',
        category: 'labour',
        quantity: 2,
        unitPrice: '50.01',
        totalPrice: '100.02',
        gstFree: false,
      },
    });
    expect(posts[2]).toMatchObject({
      path: '/api/dashboard/customer-invoices/inv-1/items',
      body: { description: 'Tyre disposal levy', unitPrice: '5.00', totalPrice: '5.00', gstFree: true },
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard?tab=invoices'));
  }, 120_000);

  test('a line item that fails: "Creation Failed" / "Failed to create line item: {description}"', async () => {
    stubFetch({
      'GET /api/dashboard/jobs/*': job({ status: 'completed' }),
      'GET /api/dashboard/customer-invoices/job/*': [],
      'POST /api/dashboard/customer-invoices': { status: 201, body: { customerInvoice: { id: 'inv-2' } } },
      'POST /api/dashboard/customer-invoices/inv-2/items': { status: 500, body: '' },
    });
    renderWithApp(<NewInvoicePage />, {
      path: '/dashboard/invoices/new?jobId=11111111-1111-4111-8111-111111111111',
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add job service' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create Invoice' }));
    expect(await screen.findByText('Creation Failed')).toBeInTheDocument();
    expect(
      screen.getByText('Failed to create line item: New Tyres 4× 205/55R16 (job JOB-000123)'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/dashboard?tab=invoices&invoice=inv-2'),
    );
  }, 60_000);

  test('"Add job service" is the job\'s quoted price: to the cent with GST inside, or ex GST when GST is added', async () => {
    stubFetch({
      'GET /api/dashboard/jobs/*': job({
        status: 'completed',
        serviceType: 'puncture-repair',
        customerValue: '129.80',
      }),
      'GET /api/dashboard/customer-invoices/job/*': [],
    });
    renderWithApp(<NewInvoicePage />, {
      path: '/dashboard/invoices/new?jobId=11111111-1111-4111-8111-111111111111',
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add job service' }));
    const totals = () => screen.getAllByLabelText('Invoice totals').at(-1)!;
    expect(totals()).toHaveTextContent('Includes GST$11.80');
    expect(totals()).toHaveTextContent('Total$129.80');
    fireEvent.click(
      screen.getByRole('button', { name: 'Remove line item Puncture Repair (job JOB-000123)' }),
    );
    fireEvent.click(screen.getByRole('radio', { name: 'GST added' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add job service' }));
    expect(totals()).toHaveTextContent('Subtotal$118.00');
    expect(totals()).toHaveTextContent('GST (10%)$11.80');
    expect(totals()).toHaveTextContent('Total$129.80');
  });

  test('an invoiced or paid job can have a second invoice (extra work): the page says it has one and creates another', async () => {
    const calls = stubFetch({
      'GET /api/dashboard/jobs/*': job({ status: 'paid' }),
      'GET /api/dashboard/customer-invoices/job/*': [
        { id: 'inv-p', invoiceNumber: 'INV-000045', status: 'paid', totalAmount: '749.80' },
      ],
      'POST /api/dashboard/customer-invoices': {
        status: 201,
        body: { customerInvoice: { id: 'inv-3', invoiceNumber: 'INV-000046' } },
      },
      'POST /api/dashboard/customer-invoices/inv-3/items': { status: 201, body: { success: true } },
    });
    renderWithApp(<NewInvoicePage />, {
      path: '/dashboard/invoices/new?jobId=11111111-1111-4111-8111-111111111111',
    });
    expect(await screen.findByText('Job JOB-000123 already has an invoice: INV-000045')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Description', { selector: '#new-line-new-description' }), {
      target: { value: 'Wheel alignment' },
    });
    fireEvent.change(screen.getByLabelText('Unit Price', { selector: '#new-line-new-price' }), {
      target: { value: '88' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add Line Item' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Create Invoice' }));
    expect(await screen.findByText('Invoice Created')).toBeInTheDocument();
    expect(screen.getByText('Invoice INV-000046 has been created for job JOB-000123.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/api/dashboard/customer-invoices',
      '/api/dashboard/customer-invoices/inv-3/items',
    ]);
  });

  test('a technician creates a draft (no status choice) and goes back to the job', async () => {
    const calls = stubFetch({
      'GET /api/dashboard/jobs/*': job({ status: 'completed' }),
      'GET /api/dashboard/customer-invoices/job/*': [],
      'POST /api/dashboard/customer-invoices': { status: 201, body: { customerInvoice: { id: 'inv-4' } } },
      'POST /api/dashboard/customer-invoices/inv-4/items': { status: 201, body: { success: true } },
    });
    renderWithApp(<NewInvoicePage />, {
      user: TECH,
      path: '/dashboard/invoices/new?jobId=11111111-1111-4111-8111-111111111111',
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add job service' }));
    expect(screen.queryByLabelText('Status')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Create Invoice' }));
    expect(await screen.findByText('Invoice Created')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      status: 'draft',
      amountType: 'inclusive',
    });
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(
        '/dashboard?tab=jobs&job=11111111-1111-4111-8111-111111111111',
      ),
    );
  });
});

describe('dialogs', () => {
  test('add user: messages, then POST with role technician by default', async () => {
    const calls = stubFetch({
      'POST /api/admin/users': { status: 201, body: { id: 'u9', username: 'newtech' } },
    });
    renderWithApp(<AddUserDialog open onClose={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'newtech' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret1' } });
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'bad' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('User Created')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      username: 'newtech',
      password: 'secret1',
      role: 'technician',
    });
  });

  test('team: "No users found"; a failed status change: "Update Failed" / "Failed to update user status."', async () => {
    stubFetch({ 'GET /api/admin/users': [] });
    const { unmount } = renderWithApp(<TeamTab />);
    expect(await screen.findByText('No users found')).toBeInTheDocument();
    unmount();
    stubFetch({
      'GET /api/admin/users': [
        { id: 'u2', username: 'sam', email: null, role: 'technician', isActive: true },
      ],
      'PATCH /api/admin/users/u2/status': { status: 500, body: '' },
    });
    renderWithApp(<TeamTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Deactivate sam' }));
    expect(await screen.findByText('Update Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to update user status.')).toBeInTheDocument();
  });

  test('purchase invoice: messages; GST shown as total / 11; POST with cost-of-goods-sold', async () => {
    const calls = stubFetch({
      'POST /api/dashboard/purchase-invoices': { status: 201, body: { success: true } },
    });
    renderWithApp(<PurchaseInvoiceDialog jobId="j1" open onClose={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add Invoice' }));
    expect(await screen.findByText('Invoice number is required')).toBeInTheDocument();
    expect(screen.getByText('Supplier name is required')).toBeInTheDocument();
    expect(screen.getByText('Total must be a valid number')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Invoice Number'), { target: { value: 'TP-1' } });
    fireEvent.change(screen.getByLabelText('Supplier Name'), { target: { value: 'Tyrepower' } });
    fireEvent.change(screen.getByLabelText('Total (inc GST)'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Invoice' }));
    expect(await screen.findByText('Total must be greater than $0')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Total (inc GST)'), { target: { value: '440' } });
    expect(await screen.findByText(/GST \$40\.00/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Add Invoice' }));
    expect(await screen.findByText('Purchase Invoice Added')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      jobId: 'j1',
      invoiceNumber: 'TP-1',
      supplierName: 'Tyrepower',
      invoiceDate: perthToday(),
      totalAmount: '440.00',
      gstAmount: '40.00',
      gstFree: false,
      category: 'cost-of-goods-sold',
      isPaid: false,
    });
  });

  test('purchase invoice: GST-free shows GST $0.00 and sends no GST', async () => {
    const calls = stubFetch({
      'POST /api/dashboard/purchase-invoices': { status: 201, body: { success: true } },
    });
    renderWithApp(<PurchaseInvoiceDialog jobId="j1" open onClose={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Invoice Number'), { target: { value: 'PV-7' } });
    fireEvent.change(screen.getByLabelText('Supplier Name'), { target: { value: 'Private seller' } });
    fireEvent.change(screen.getByLabelText('Total (inc GST)'), { target: { value: '120' } });
    expect(await screen.findByText(/GST \$10\.91/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: 'GST-free (no GST in this total)' }));
    expect(await screen.findByText(/GST \$0\.00 \(GST-free\) · ex GST \$120\.00/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Add Invoice' }));
    expect(await screen.findByText('Purchase Invoice Added')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      totalAmount: '120.00',
      gstAmount: '0.00',
      gstFree: true,
    });
  });

  test('expense: category defaults to admin and offers no cost-of-goods-sold; failure toast "Error"', async () => {
    stubFetch({ 'POST /api/dashboard/business-expenses': { status: 500, body: '' } });
    renderWithApp(<ExpenseDialog open expense={null} onClose={() => undefined} />);
    expect(screen.getByText('Admin')).toBeInTheDocument();
    fireEvent.mouseDown(screen.getByLabelText('Category'));
    await screen.findAllByText('Fuel', { selector: '.ant-select-item-option-content' });
    expect(
      screen.queryByText('Cost of goods sold', { selector: '.ant-select-item-option-content' }),
    ).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Supplier Name'), { target: { value: 'BP' } });
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'Fuel' } });
    fireEvent.change(screen.getByLabelText('Amount (inc GST)'), { target: { value: '55' } });
    expect(await screen.findByText(/GST \$5\.00 \(total \/ 11\)/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: 'GST-free (no GST in this amount)' }));
    expect(await screen.findByText('GST $0.00 (GST-free) · ex GST $55.00')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: 'GST-free (no GST in this amount)' }));
    expect(await screen.findByText(/GST \$5\.00 \(total \/ 11\)/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Add Expense' }));
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to create expense')).toBeInTheDocument();
  });
});
