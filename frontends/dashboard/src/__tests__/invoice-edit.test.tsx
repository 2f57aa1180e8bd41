import '../testing/polyfills';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { InvoiceEditDialog } from '../invoices/InvoiceEditDialog';
import { InvoicesTab } from '../invoices/InvoicesTab';
import { renderWithApp, setViewport, stubFetch } from '../testing/render';

afterEach(() => setViewport('phone'));

/** A prepaid booking's invoice as billing makes it on payment: paid, tax inclusive, with the card surcharge line. */
const PREPAID = {
  id: 'inv-9',
  jobId: 'j9',
  invoiceNumber: 'INV-000090',
  status: 'paid',
  amountType: 'inclusive',
  paymentIntentId: 'pi_9',
  invoiceDate: '2026-11-20',
  dueDate: '2026-12-20',
  // 99.80 + 1.70 surcharge = 101.50; GST 101.50 ÷ 11 = 9.227 -> 9.23
  subtotalAmount: '92.27',
  gstAmount: '9.23',
  totalAmount: '101.50',
  job: { jobNumber: 'JOB-000090', customer: { name: 'Sam Driver' } },
  items: [
    {
      id: 'i1',
      description: 'Puncture repair',
      category: 'labour',
      quantity: 1,
      unitPrice: '99.80',
      totalPrice: '99.80',
      gstFree: false,
    },
    {
      id: 'i2',
      description: 'Card surcharge 1.7%',
      category: 'surcharge',
      quantity: 1,
      unitPrice: '1.70',
      totalPrice: '1.70',
      gstFree: false,
    },
  ],
};

describe('invoice edit dialog', () => {
  test("shows the amount type and billing's totals; the surcharge line is shown but cannot be edited", async () => {
    stubFetch({ 'GET /api/dashboard/customer-invoices/inv-9': PREPAID });
    renderWithApp(<InvoiceEditDialog invoiceId="inv-9" onClose={() => undefined} />);
    expect(await screen.findByText('Card surcharge 1.7%')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Amounts include GST' })).toBeChecked();
    const totals = screen.getByLabelText('Invoice totals');
    expect(totals).toHaveTextContent('Ex GST$92.27');
    expect(totals).toHaveTextContent('Includes GST$9.23');
    expect(totals).toHaveTextContent('Total$101.50');
    const surcharge = screen.getByText('Card surcharge 1.7%').closest('li')!;
    expect(surcharge).toHaveTextContent('Card surcharge · added by billing with the card payment');
    expect(within(surcharge).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit line item Puncture repair' })).toBeInTheDocument();
  });

  test('switching to "GST added" previews the same lines with GST on top, and saves the amount type', async () => {
    const calls = stubFetch({
      'GET /api/dashboard/customer-invoices/inv-9': {
        ...PREPAID,
        status: 'draft',
        items: [
          PREPAID.items[0],
          {
            ...PREPAID.items[0],
            id: 'i3',
            description: 'Levy',
            unitPrice: '5.00',
            totalPrice: '5.00',
            gstFree: true,
          },
        ],
        subtotalAmount: '95.73',
        gstAmount: '9.07',
        totalAmount: '104.80',
      },
      'PATCH /api/dashboard/customer-invoices/inv-9': { success: true },
    });
    renderWithApp(<InvoiceEditDialog invoiceId="inv-9" onClose={() => undefined} />);
    expect(await screen.findByText('Levy')).toBeInTheDocument();
    expect(screen.getByText('Levy').closest('li')).toHaveTextContent('GST-free');
    fireEvent.click(screen.getByRole('radio', { name: 'GST added' }));
    const totals = screen.getByLabelText('Invoice totals');
    // 99.80 taxable + 5.00 GST-free; GST 9.98 on the taxable part only.
    expect(totals).toHaveTextContent('Subtotal$104.80');
    expect(totals).toHaveTextContent('GST (10%)$9.98');
    expect(totals).toHaveTextContent('Total$114.78');
    expect(screen.getByText('Once saved. The line amounts stay as entered.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Save Invoice' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
        status: 'draft',
        dueDate: '2026-12-20',
        amountType: 'exclusive',
      }),
    );
  });

  test('an invoice from before amount types reads as "GST added"; saving without a change sends no amount type', async () => {
    const { amountType: _omit, ...old } = PREPAID;
    const calls = stubFetch({
      'GET /api/dashboard/customer-invoices/inv-9': {
        ...old,
        status: 'sent',
        items: [PREPAID.items[0]],
        subtotalAmount: '99.80',
        gstAmount: '9.98',
        totalAmount: '109.78',
      },
      'PATCH /api/dashboard/customer-invoices/inv-9': { success: true },
    });
    renderWithApp(<InvoiceEditDialog invoiceId="inv-9" onClose={() => undefined} />);
    expect(await screen.findByRole('radio', { name: 'GST added' })).toBeChecked();
    expect(screen.getByLabelText('Invoice totals')).toHaveTextContent('GST (10%)$9.98');
    fireEvent.click(screen.getByRole('button', { name: 'Save Invoice' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
        status: 'sent',
        dueDate: '2026-12-20',
      }),
    );
  });
});

describe('invoice list', () => {
  test('each total says whether its amounts include GST or GST was added', async () => {
    setViewport('desktop');
    const { amountType: _omit, ...old } = PREPAID;
    stubFetch({
      'GET /api/dashboard/customer-invoices': {
        body: [PREPAID, { ...old, id: 'inv-1', invoiceNumber: 'INV-000001', totalAmount: '142.78' }],
        headers: { 'X-Total-Count': '2' },
      },
    });
    renderWithApp(<InvoicesTab />, { path: '/dashboard?tab=invoices' });
    // By text, not role: a role query walks the accessibility tree of the whole table and took 21 s on a loaded CI box.
    const paid = (await screen.findByText('INV-000090')).closest('tr')!;
    expect(paid).toHaveTextContent('$101.50Amounts include GST');
    const old1 = screen.getByText('INV-000001').closest('tr')!;
    expect(old1).toHaveTextContent('$142.78GST added');
  });
});
