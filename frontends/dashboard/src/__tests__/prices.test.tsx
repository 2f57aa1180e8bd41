import '../testing/polyfills';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DashboardPage } from '../pages/DashboardPage';
import { describeChange, PricesTab } from '../prices/PricesTab';
import { renderWithApp, stubFetch, TECH } from '../testing/render';

const FEES = {
  calloutFee: '89.80',
  punctureRepair: '40.00',
  fittingPerTyre: '25.00',
  balancingPerTyre: '15.00',
  prepaidDiscount: '30.00',
  cardSurchargeRate: '1.70',
};
const TYRE = {
  id: 't1',
  size: '205/55R16',
  brand: 'Kumho',
  model: 'Ecsta HS52',
  price: '159.00',
  inStock: true,
  since: null,
  scheduled: [
    {
      id: 'tv1',
      effectiveFrom: '2099-03-01T16:00:00.000Z',
      price: '169.00',
      inStock: true,
      reason: 'Supplier',
      createdBy: 'boss',
      createdAt: '2099-01-01T00:00:00.000Z',
    },
  ],
};
const LIST = {
  at: '2099-01-05T01:00:00.000Z',
  fees: {
    id: 'f0',
    effectiveFrom: '2000-01-01T00:00:00.000Z',
    fees: FEES,
    reason: 'Seeded',
    createdBy: 'system',
    createdAt: '2099-01-01T00:00:00.000Z',
  },
  scheduledFees: [
    {
      id: 'f1',
      effectiveFrom: '2099-01-31T16:00:00.000Z',
      fees: { ...FEES, calloutFee: '99.80', cardSurchargeRate: '1.50' },
      reason: 'Fuel costs up',
      createdBy: 'boss',
      createdAt: '2099-01-02T00:00:00.000Z',
    },
  ],
  tyres: [TYRE],
  fixed: [
    { key: 'batteryService', label: 'Battery service', value: '0.00', note: 'Quoted on site.' },
  ],
  labels: {},
};
const AUDIT = [
  {
    id: 'a1',
    at: '2099-01-02T00:00:00.000Z',
    actor: 'boss',
    action: 'fees.scheduled',
    subjectType: 'fees',
    subjectId: 'f1',
    effectiveFrom: '2099-01-31T16:00:00.000Z',
    reason: 'Fuel costs up',
    before: FEES,
    after: { ...FEES, calloutFee: '99.80', cardSurchargeRate: '1.50' },
  },
];

const stubs = (over: Record<string, unknown> = {}) =>
  stubFetch({
    'GET /api/dashboard/prices': LIST,
    'GET /api/dashboard/prices/audit': AUDIT,
    'PUT /api/dashboard/prices/fees': { status: 201, body: LIST.scheduledFees[0] },
    'PUT /api/dashboard/prices/tyres/*': TYRE,
    'DELETE /api/dashboard/prices/changes/*': { status: 204 },
    ...over,
  });

describe('prices tab (issue 19 item 5)', () => {
  test('shows the fees in force, what is scheduled, the fixed prices, the tyre catalogue and the history', async () => {
    stubs();
    renderWithApp(<PricesTab />, { path: '/dashboard?tab=prices' });
    const fees = await screen.findByRole('region', { name: 'Fees' });
    const callout = within(fees).getByText('Callout fee').closest('tr')!;
    expect(within(callout).getByText('$89.80')).toBeInTheDocument();
    expect(within(callout).getByText(/\$99\.80 from 1 Feb 2099/)).toBeInTheDocument();
    // The card surcharge is a fee like the others now: in force and scheduled, as the business writes a rate.
    const surcharge = within(fees).getByText('Card surcharge').closest('tr')!;
    expect(within(surcharge).queryByText('Fixed')).toBeNull();
    expect(within(surcharge).getByText('1.7%')).toBeInTheDocument();
    expect(within(surcharge).getByText(/1\.5% from 1 Feb 2099/)).toBeInTheDocument();
    const battery = within(fees).getByText('Battery service').closest('tr')!;
    expect(within(battery).getByText('Fixed')).toBeInTheDocument();
    const tyres = screen.getByRole('region', { name: 'Tyre catalogue' });
    const row = within(tyres).getByText('Ecsta HS52').closest('tr')!;
    expect(within(row).getByText('$159.00')).toBeInTheDocument();
    expect(within(row).getByText('In stock')).toBeInTheDocument();
    expect(within(row).getByText(/\$169\.00, in stock from 2 Mar 2099/)).toBeInTheDocument();
    const history = screen.getByRole('region', { name: 'History' });
    expect(
      await within(history).findByText('Callout fee $89.80 → $99.80; Card surcharge 1.7% → 1.5%'),
    ).toBeInTheDocument();
    expect(within(history).getByText('Fees changed')).toBeInTheDocument();
  });

  test('schedules a fee change with an effective date and a reason; a server refusal shows in the dialog', async () => {
    const calls = stubs();
    renderWithApp(<PricesTab />, { path: '/dashboard?tab=prices' });
    fireEvent.click(await screen.findByRole('button', { name: 'Change fees' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change fees' });
    fireEvent.change(within(dialog).getByLabelText('Callout fee ($)'), { target: { value: '99.80' } });
    expect(within(dialog).getByLabelText('Card surcharge (%)')).toHaveValue('1.70');
    fireEvent.change(within(dialog).getByLabelText('Card surcharge (%)'), { target: { value: '1.50' } });
    fireEvent.change(within(dialog).getByLabelText(/Effective from/), { target: { value: '2099-02-01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Schedule change' }));
    expect(
      await within(dialog).findByText('Please enter a reason (3 characters or more).'),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: 'Fuel costs up' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Schedule change' }));
    expect(await screen.findByText('Fees Scheduled')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: '/api/dashboard/prices/fees',
      body: {
        ...FEES,
        calloutFee: '99.80',
        cardSurchargeRate: '1.50',
        effectiveFrom: '2099-02-01',
        reason: 'Fuel costs up',
      },
    });
  });

  test('a refused change keeps the dialog open with the server message', async () => {
    const message =
      'the prepaid discount must not be more than the callout fee (it is taken off the callout line)';
    stubs({ 'PUT /api/dashboard/prices/fees': { status: 400, body: { message } } });
    renderWithApp(<PricesTab />, { path: '/dashboard?tab=prices' });
    fireEvent.click(await screen.findByRole('button', { name: 'Change fees' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change fees' });
    fireEvent.change(within(dialog).getByLabelText('Prepaid online discount ($)'), {
      target: { value: '200' },
    });
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: 'Big sale' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Schedule change' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
  });

  test("changes a tyre's price and stock from now: only what changed is sent", async () => {
    const calls = stubs();
    renderWithApp(<PricesTab />, { path: '/dashboard?tab=prices' });
    fireEvent.click(await screen.findByRole('button', { name: 'Change 205/55R16 Kumho Ecsta HS52' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText(/In stock/));
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: 'Sold out' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Schedule change' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')).toBeDefined());
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: '/api/dashboard/prices/tyres/t1',
      body: { inStock: false, effectiveFrom: null, reason: 'Sold out' },
    });
    expect(calls.find((c) => c.method === 'PUT')!.body as object).not.toHaveProperty('price');
  });

  test('cancels a scheduled change with a reason', async () => {
    const calls = stubs();
    renderWithApp(<PricesTab />, { path: '/dashboard?tab=prices' });
    fireEvent.click(await screen.findByRole('button', { name: /Cancel the fee change from/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Not going ahead' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel change' }));
    expect(await screen.findByText('Change Cancelled')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')).toMatchObject({
      path: '/api/dashboard/prices/changes/f1',
      body: { reason: 'Not going ahead' },
    });
  });

  test('is an admin tab: technicians do not get it', () => {
    stubFetch({ 'GET /api/dashboard/jobs-with-details': { data: [], total: 0, page: 1, pageSize: 20 } });
    renderWithApp(<DashboardPage onLogout={() => undefined} loggingOut={false} />, { user: TECH });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).not.toContain('Prices');
  });

  test('describes audit entries as a person reads them', () => {
    expect(
      describeChange({
        subjectType: 'tyre',
        before: { size: '205/55R16', brand: 'Kumho', model: 'X', price: '159.00', inStock: true },
        after: { size: '205/55R16', brand: 'Kumho', model: 'X', price: '159.00', inStock: false },
      }),
    ).toBe('205/55R16 Kumho X: In stock yes → no');
    expect(
      describeChange({ subjectType: 'fees', before: { ...FEES, versionId: 'f1' }, after: null }),
    ).toContain('Callout fee $89.80');
  });
});
