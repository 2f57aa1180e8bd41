import '../testing/polyfills';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { job, jobDetail, renderWithApp, stubFetch, TECH } from '../testing/render';
import {
  EditJobDialog,
  NOTHING_TO_EDIT,
  PRICE_INVALID,
  REASON_REQUIRED,
  TYRE_QUANTITY_INVALID,
} from './EditJobDialog';
import { JobDetailDialog } from './JobDetailDialog';
import { JobHistory } from './JobHistory';

const battery = job({
  serviceType: 'battery-service',
  status: 'completed',
  customerValue: '0.00',
  tyreSize: null,
  tyreQuantity: null,
});
const HISTORY = `GET /api/dashboard/jobs/${battery.id}/history`;
const PATCH = `PATCH /api/dashboard/jobs/${battery.id}`;
const noHistory = { jobId: battery.id, jobNumber: battery.jobNumber, version: 0, edits: [] };
const oneEdit = {
  jobId: battery.id,
  jobNumber: battery.jobNumber,
  version: 1,
  edits: [
    {
      version: 1,
      editedAt: '2026-11-25T01:30:00.000Z',
      editedBy: { id: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e', username: 'admin' },
      reason: 'Battery supplied: Century 55D23L',
      changes: [
        { field: 'customerValue', before: '0.00', after: '189.50' },
        { field: 'notes', before: null, after: 'Old battery recycled' },
      ],
    },
  ],
};

async function openDialog(routes: Record<string, unknown>) {
  const calls = stubFetch({ [HISTORY]: noHistory, ...routes });
  renderWithApp(<EditJobDialog job={battery} onClose={() => undefined} />);
  const dialog = await screen.findByRole('dialog');
  // The save button waits for the edit version (the history).
  await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Save Changes' })).toBeEnabled());
  return { calls, dialog };
}

describe('Edit Job (issue 19, admin)', () => {
  test('sends only the changed price with the reason and the version it was opened at', async () => {
    const { calls, dialog } = await openDialog({
      [PATCH]: jobDetail({ ...battery, customerValue: '189.50' }),
    });
    const price = within(dialog).getByLabelText('Price (inc. GST)');
    await userEvent.clear(price);
    await userEvent.type(price, '189.50');
    await userEvent.type(within(dialog).getByLabelText('Reason for the change'), 'Battery supplied');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
        customerValue: '189.50',
        reason: 'Battery supplied',
        version: 0,
      }),
    );
    expect(await screen.findByText('Job Updated')).toBeInTheDocument();
  });

  test('asks for a reason, a valid price and a change before sending anything', async () => {
    const { calls, dialog } = await openDialog({});
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByText(REASON_REQUIRED)).toBeInTheDocument();
    expect(within(dialog).getByText(NOTHING_TO_EDIT)).toBeInTheDocument();
    const price = within(dialog).getByLabelText('Price (inc. GST)');
    await userEvent.clear(price);
    await userEvent.type(price, '12.345');
    await userEvent.type(within(dialog).getByLabelText('Reason for the change'), 'x');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByText(PRICE_INVALID)).toBeInTheDocument();
    expect(price).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });

  test('sends the vehicle as a whole when a part of it changes, and blank notes as null', async () => {
    const withNotes = { ...battery, notes: 'Gate code 1234' };
    const calls = stubFetch({ [HISTORY]: { ...noHistory, version: 3 }, [PATCH]: jobDetail(withNotes) });
    renderWithApp(<EditJobDialog job={withNotes} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Save Changes' })).toBeEnabled());
    const rego = within(dialog).getByLabelText('Registration');
    await userEvent.clear(rego);
    await userEvent.type(rego, '1XYZ999');
    await userEvent.clear(within(dialog).getByLabelText('Notes'));
    await userEvent.type(within(dialog).getByLabelText('Reason for the change'), 'Customer changed car');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
        vehicle: { make: 'Toyota', model: 'Hilux', year: 2019, registration: '1XYZ999' },
        notes: null,
        reason: 'Customer changed car',
        version: 3,
      }),
    );
  });

  test("shows the service's refusal (someone else edited it, or the price is the invoice's) and stays open", async () => {
    const message = `Job ${battery.jobNumber} was changed by someone else since you opened it. Reload it and try again.`;
    const { dialog } = await openDialog({
      [PATCH]: { status: 409, body: { code: 'edit_conflict', message } },
    });
    await userEvent.type(within(dialog).getByLabelText('Suburb'), ' North');
    await userEvent.type(within(dialog).getByLabelText('Reason for the change'), 'Typo');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});

describe('Edit Job: whole numbers only (audit: "two" cleared the tyre quantity)', () => {
  const fourTyres = {
    ...battery,
    tyreQuantity: 4,
    vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, registration: '1ABC234' },
  };

  async function openTyres() {
    const calls = stubFetch({
      [HISTORY]: noHistory,
      [PATCH]: jobDetail({ ...fourTyres, tyreQuantity: null }),
    });
    renderWithApp(<EditJobDialog job={fourTyres as typeof battery} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Save Changes' })).toBeEnabled());
    await userEvent.type(within(dialog).getByLabelText('Reason for the change'), 'Customer rang');
    return { calls, dialog };
  }

  test.each(['two', '2,5', '2.5', '-1', '0', '9'])(
    'the tyre quantity "%s" is an error at the field, and nothing is sent (never null)',
    async (entry) => {
      const { calls, dialog } = await openTyres();
      const tyres = within(dialog).getByLabelText('Tyres');
      await userEvent.clear(tyres);
      await userEvent.type(tyres, entry);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
      const error = await within(dialog).findByText(TYRE_QUANTITY_INVALID);
      expect(tyres).toHaveAttribute('aria-invalid', 'true');
      expect(tyres).toHaveAttribute('aria-describedby', error.id);
      expect(within(dialog).queryByText(NOTHING_TO_EDIT)).not.toBeInTheDocument();
      expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
      expect(screen.queryByText('Job Updated')).not.toBeInTheDocument();
    },
  );

  test('an emptied tyre quantity clears it (null)', async () => {
    const { calls, dialog } = await openTyres();
    const tyres = within(dialog).getByLabelText('Tyres');
    await userEvent.clear(tyres);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
        tyreQuantity: null,
        reason: 'Customer rang',
        version: 0,
      }),
    );
  });

  test('a whole number in range is sent as a number', async () => {
    const { calls, dialog } = await openTyres();
    const tyres = within(dialog).getByLabelText('Tyres');
    await userEvent.clear(tyres);
    await userEvent.type(tyres, ' 2 ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({ tyreQuantity: 2 }),
    );
  });

  test('a vehicle year that is not a whole year in range is an error at the field, and nothing is sent', async () => {
    const { calls, dialog } = await openTyres();
    const year = within(dialog).getByLabelText('Vehicle year');
    for (const entry of ['twenty', '2018.5', '1850', '']) {
      await userEvent.clear(year);
      if (entry) await userEvent.type(year, entry);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
      await waitFor(() => expect(year).toHaveAttribute('aria-invalid', 'true'));
      expect(within(dialog).getByText(/Vehicle year must be/)).toBeInTheDocument();
    }
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });
});

describe('Job history', () => {
  test('lists who changed what, when and why, before → after', async () => {
    stubFetch({ [HISTORY]: oneEdit });
    renderWithApp(<JobHistory jobId={battery.id} />);
    const entry = await screen.findByRole('list', { name: 'Edits, newest first' });
    expect(screen.getByRole('heading', { name: 'History' })).toBeInTheDocument();
    expect(entry).toHaveTextContent('admin');
    expect(entry).toHaveTextContent('Reason: Battery supplied: Century 55D23L');
    expect(entry).toHaveTextContent('Price: $0.00 → $189.50');
    expect(entry).toHaveTextContent('Notes: — → Old battery recycled');
  });

  test('is not shown for a job never edited', async () => {
    const calls = stubFetch({ [HISTORY]: noHistory });
    renderWithApp(<JobHistory jobId={battery.id} />);
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/history'))).toBe(true));
    // The section shows while loading, then goes: nothing to list.
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'History' })).not.toBeInTheDocument());
  });
});

describe('in the job detail', () => {
  const routes = {
    [HISTORY]: oneEdit,
    'GET /api/dashboard/jobs/*': jobDetail(battery),
    'GET /api/dashboard/purchase-invoices/job/*': [],
    'GET /api/dashboard/customer-invoices*': [],
    [`GET /api/dashboard/bookings/${battery.id}/cancellation`]: { status: 404, body: { message: 'none' } },
  };

  test('an admin has Edit Job and sees the history', async () => {
    stubFetch(routes);
    renderWithApp(<JobDetailDialog jobId={battery.id} onClose={() => undefined} />);
    expect(await screen.findByRole('button', { name: 'Edit Job' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(await screen.findByText('Price: $0.00 → $189.50')).toBeInTheDocument();
  });

  test('a technician has no Edit Job', async () => {
    stubFetch(routes);
    renderWithApp(<JobDetailDialog jobId={battery.id} onClose={() => undefined} />, { user: TECH });
    expect(await screen.findByText('Price: $0.00 → $189.50', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Job' })).not.toBeInTheDocument();
  });
});
