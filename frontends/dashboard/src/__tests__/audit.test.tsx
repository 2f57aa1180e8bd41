import '../testing/polyfills';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { JobsTab } from '../tabs/JobsTab';
import { SelectJobDialog } from '../invoices/SelectJobDialog';
import { RescheduleDialog } from '../job-detail/RescheduleDialog';
import { ReportsTab } from '../reports/ReportsTab';
import { NotificationCenter } from '../notifications/NotificationCenter';
import type { Job } from '../api/types';
import { addDaysToDate, perthToday } from '../lib/dates';
import { FakeSocket, job, renderWithApp, setViewport, stubFetch } from '../testing/render';

/**
 * Rules checked screen by screen against issue 9 and the spec that the other component tests did not pin down
 * (phone cards, the select-job dialog, the reschedule dialog, report tables on phones, notification cards).
 */

afterEach(() => setViewport('phone'));

const page = (items: unknown[]) => ({ body: items, headers: { 'X-Total-Count': String(items.length) } });

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

async function choose(label: string | RegExp, option: string) {
  fireEvent.mouseDown(screen.getByLabelText(label));
  const target = await waitFor(() =>
    screen.getAllByText(option, { selector: '.ant-select-item-option-content' }).at(-1)!,
  );
  fireEvent.click(target);
}

describe('jobs tab on a phone', () => {
  test('cards cut the address at 30 characters and keep the whole address in the title', async () => {
    stubFetch({ 'GET /api/dashboard/jobs-with-details': page([job()]) });
    renderWithApp(<JobsTab />);
    const card = await screen.findByRole('article', { name: 'JOB-000123' });
    const where = within(card).getByText('1234 Very Long Street Name Tha...', { exact: false });
    expect(where).toHaveAttribute('title', '1234 Very Long Street Name That Keeps Going, Joondalup');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('select-job dialog (invoices tab)', () => {
  test('choosing a job goes to /dashboard/invoices/new?jobId={jobId}', async () => {
    stubFetch({
      'GET /api/dashboard/jobs-with-details': page([
        job({ id: 'job-77', jobNumber: 'JOB-000077', status: 'completed' }),
      ]),
    });
    renderWithApp(<SelectJobDialog open onClose={() => undefined} />);
    expect(await screen.findByText('Select a Job to Invoice')).toBeInTheDocument();
    await screen.findByText('JOB-000077');
    await userEvent.click(screen.getByRole('button', { name: 'Create invoice for job JOB-000077' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard/invoices/new?jobId=job-77');
  });
});

describe('reschedule dialog', () => {
  test('both are required; changing the date clears the slot; only free slots are offered', async () => {
    const first = addDaysToDate(perthToday(), 2);
    const second = addDaysToDate(perthToday(), 3);
    const calls = stubFetch({
      'GET /api/time-slots/*': [{ slot: '10-12 AM' }, { slot: '2-4 PM' }],
      'PUT /api/dashboard/jobs/*': { success: true },
    });
    renderWithApp(<RescheduleDialog job={job() as unknown as Job} open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reschedule' }));
    expect(await screen.findByText('Please select both date and time slot')).toBeInTheDocument();

    await pickDate('New Date', first);
    await waitFor(() => expect(calls.some((c) => c.path === `/api/time-slots/${first}`)).toBe(true));
    await choose('Time Slot', '2-4 PM');
    expect(within(dialog).getByTitle('2-4 PM')).toBeInTheDocument();

    await pickDate('New Date', second);
    await waitFor(() => expect(within(dialog).queryByTitle('2-4 PM')).not.toBeInTheDocument());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reschedule' }));
    expect(await screen.findByText('Please select both date and time slot')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await choose('Time Slot', '10-12 AM');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reschedule' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
        scheduledDate: second,
        timeSlot: '10-12 AM',
      }),
    );
  });
});

const gstReport = {
  gstCollected: '68.16',
  gstPaid: '38.18',
  netGST: '29.98',
  customerInvoices: [
    {
      invoiceNumber: 'INV-001000',
      customerName: 'Amelia Jones',
      subtotal: '681.64',
      gstAmount: '68.16',
      totalAmount: '749.80',
      issueDate: '2026-11-21',
      status: 'paid',
    },
  ],
  purchaseInvoices: [],
};

describe('reports on a phone', () => {
  test('every period stays on screen, three sub-tabs, tables keep invoice, customer, GST and total', async () => {
    stubFetch({ 'GET /api/dashboard/reports/gst': gstReport });
    renderWithApp(<ReportsTab />);
    for (const period of ['This month', 'This quarter', 'Financial year', 'All time', 'Custom'])
      expect(screen.getByText(period)).toBeVisible();
    for (const name of ['GST Tracking (Visual Only)', 'Payables', 'P&L Report'])
      expect(screen.getByRole('tab', { name })).toBeInTheDocument();
    const table = (await screen.findByText('INV-001000')).closest('table')!;
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Invoice', 'Customer', 'GST', 'Total']);
  });

  test('desktop tables show every column', async () => {
    setViewport('desktop');
    stubFetch({ 'GET /api/dashboard/reports/gst': gstReport });
    renderWithApp(<ReportsTab />);
    const table = (await screen.findByText('INV-001000')).closest('table')!;
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Invoice', 'Customer', 'Date', 'Status', 'Subtotal', 'GST', 'Total']);
  });
});

describe('notification cards', () => {
  test('the slot and date never split across lines', async () => {
    stubFetch({ 'GET /api/dashboard/jobs-with-details': page([]) });
    renderWithApp(
      <NotificationCenter>
        <p>page</p>
      </NotificationCenter>,
    );
    const socket = FakeSocket.instances.at(-1)!;
    socket.open();
    socket.receive({
      type: 'new_booking',
      data: {
        id: 'n1',
        jobNumber: 'JOB-000900',
        serviceType: 'puncture-repair',
        suburb: 'Canning Vale',
        timeSlot: '10-12 AM',
        createdAt: new Date().toISOString(),
      },
    });
    const slot = await screen.findByText('10-12 AM');
    expect(slot).toHaveClass('dash-nowrap');
    expect(screen.getByText('Canning Vale')).toHaveClass('dash-nowrap');
    expect(screen.getByRole('button', { name: 'Dismiss notification for JOB-000900' })).toHaveClass(
      'dash-notice__dismiss',
    );
  });
});
