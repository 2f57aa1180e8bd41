import '../testing/polyfills';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { paymentIntent, testPaymentConfirmed } from '../testing/fixtures';
import { renderWithSite, stubFetch, type StubAnswer } from '../testing/render';
import type { InvoicePaymentIntent, PayInvoice } from './api';
import PayPage from './PayPage';

const TOKEN = 'pay_tok_abcdefghijklmnopqrstuvwxyz0123456789AB';

function payInvoice(over: Partial<PayInvoice> = {}): PayInvoice {
  return {
    invoiceNumber: 'INV-000123',
    invoiceDate: '2026-11-25',
    dueDate: '2026-12-25',
    customerFirstName: 'Jane',
    status: 'unpaid',
    amountType: 'inclusive',
    lines: [
      {
        description: 'Mobile callout fee',
        quantity: 1,
        unitPrice: '89.80',
        totalPrice: '89.80',
        gstFree: false,
      },
      {
        description: 'New tyre 205/55R16 (Michelin)',
        quantity: 4,
        unitPrice: '139.00',
        totalPrice: '556.00',
        gstFree: false,
      },
    ],
    subtotalAmount: '587.09',
    gstAmount: '58.71',
    totalAmount: '645.80',
    surchargeRate: '1.7%',
    surchargeAmount: '10.98',
    surchargeGstAmount: '1.00',
    amountToPay: '656.78',
    paidAt: null,
    currency: 'AUD',
    ...over,
  };
}

const INTENT: InvoicePaymentIntent = {
  ...paymentIntent({
    clientSecret: 'test_pi_inv_secret_abc',
    originalAmount: '645.80',
    surchargeAmount: '10.98',
    totalAmount: '656.78',
  }),
  invoiceNumber: 'INV-000123',
};

function renderPay(routes: Record<string, StubAnswer>) {
  const api = stubFetch({
    [`GET /api/pay/${TOKEN}`]: { json: payInvoice() },
    [`POST /api/pay/${TOKEN}/payment-intent`]: { json: INTENT },
    ...routes,
  });
  const view = renderWithSite(
    <Routes>
      <Route path="/pay/:token" element={<PayPage />} />
    </Routes>,
    { path: `/pay/${TOKEN}` },
  );
  return { ...api, ...view };
}

afterEach(() => document.getElementById('tyres-toasts')?.remove());

describe('pay an invoice (/pay/{token})', () => {
  test('the invoice, the 1.7% card surcharge line, the amount to pay and the labelled test mode', async () => {
    const { calls } = renderPay({});
    expect(await screen.findByRole('heading', { name: 'Pay your invoice' })).toBeInTheDocument();
    expect(screen.getByText('Hi Jane, thanks for choosing us.')).toBeInTheDocument();
    const invoice = screen.getByRole('region', { name: 'Tax invoice INV-000123' });
    expect(within(invoice).getByText('Mobile callout fee')).toBeInTheDocument();
    expect(within(invoice).getByText('4 × $139.00')).toBeInTheDocument();
    expect(within(invoice).getByText('$556.00')).toBeInTheDocument();
    expect(within(invoice).getByText('Includes GST')).toBeInTheDocument();
    expect(within(invoice).getByText('$58.71')).toBeInTheDocument();
    const pay = screen.getByRole('region', { name: 'Pay by card' });
    expect(within(pay).getByText('Card surcharge (1.7%)')).toBeInTheDocument();
    expect(within(pay).getByText('$10.98')).toBeInTheDocument();
    expect(within(pay).getByText('Amount to pay')).toBeInTheDocument();
    expect(within(pay).getByText('$656.78')).toBeInTheDocument();
    expect(await within(pay).findByText('TEST MODE – no real payment will be taken')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === `/api/pay/${TOKEN}/payment-intent`)).toHaveLength(1);
  });

  test("the price list changed between the page and the payment: the figures charged (the payment's rate) are shown", async () => {
    renderPay({
      [`POST /api/pay/${TOKEN}/payment-intent`]: {
        json: { ...INTENT, surchargeRate: '1.5%', surchargeAmount: '9.69', totalAmount: '655.49' },
      },
    });
    const pay = await screen.findByRole('region', { name: 'Pay by card' });
    expect(await within(pay).findByText('Card surcharge (1.5%)')).toBeInTheDocument();
    expect(within(pay).getByText('$9.69')).toBeInTheDocument();
    expect(within(pay).getByText('$655.49')).toBeInTheDocument();
    expect(within(pay).queryByText('Card surcharge (1.7%)')).toBeNull();
  });

  test('a test card pays through the same confirmation path, then the success state', async () => {
    let paid = false;
    const { calls } = renderPay({
      [`GET /api/pay/${TOKEN}`]: () => ({
        json: paid
          ? payInvoice({ status: 'paid', amountToPay: '0.00', paidAt: '2026-11-25T03:00:00.000Z' })
          : payInvoice(),
      }),
      'POST /api/payments/test-mode/confirm': () => {
        paid = true;
        return { json: testPaymentConfirmed() };
      },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Card number'), '4242424242424242');
    await user.type(screen.getByLabelText('Expiry (MM/YY)'), '1230');
    await user.type(screen.getByLabelText('Security code (CVC)'), '123');
    await user.click(screen.getByRole('button', { name: 'Pay $656.78 (test)' }));
    expect(await screen.findByRole('heading', { name: 'Payment received – thank you!' })).toBeInTheDocument();
    expect(
      screen.getByText('Invoice INV-000123 is paid. A receipt is on its way to your email.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Pay by card' })).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(`/pay/${TOKEN}`);
    expect(calls.find((c) => c.path === '/api/payments/test-mode/confirm')?.body).toEqual({
      clientSecret: 'test_pi_inv_secret_abc',
      cardNumber: '4242424242424242',
    });
  });

  test('a declined card: "Payment Failed" with the provider message, still payable', async () => {
    renderPay({
      'POST /api/payments/test-mode/confirm': {
        status: 402,
        json: { status: 'failed', message: 'Your card was declined.' },
      },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Card number'), '4000000000000002');
    await user.type(screen.getByLabelText('Expiry (MM/YY)'), '1230');
    await user.type(screen.getByLabelText('Security code (CVC)'), '123');
    await user.click(screen.getByRole('button', { name: /^Pay / }));
    expect(await screen.findByText('Payment Failed')).toBeInTheDocument();
    expect(screen.getByText('Your card was declined.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Pay by card' })).toBeInTheDocument();
  });

  test('already paid: says so, no card form, no payment intent asked for', async () => {
    const { calls } = renderPay({
      [`GET /api/pay/${TOKEN}`]: {
        json: payInvoice({ status: 'paid', amountToPay: '0.00', paidAt: '2026-11-20T03:00:00.000Z' }),
      },
    });
    expect(
      await screen.findByRole('heading', { name: 'This invoice has already been paid' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/was paid on Friday 20 November 2026/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
    expect(calls.some((c) => c.path.endsWith('/payment-intent'))).toBe(false);
  });

  test('paid in another tab meanwhile: the 409 message from billing', async () => {
    renderPay({
      [`POST /api/pay/${TOKEN}/payment-intent`]: {
        status: 409,
        json: { message: 'This invoice has already been paid', code: 'already_paid' },
      },
    });
    expect(await screen.findByText('This invoice has already been paid')).toBeInTheDocument();
    expect(screen.getByText('Payment Setup Failed')).toBeInTheDocument();
  });

  test('cancelled: nothing to pay', async () => {
    renderPay({
      [`GET /api/pay/${TOKEN}`]: { json: payInvoice({ status: 'cancelled', amountToPay: '0.00' }) },
    });
    expect(
      await screen.findByRole('heading', { name: 'This invoice has been cancelled' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Pay by card' })).not.toBeInTheDocument();
  });

  test('an unknown link: "Payment link not valid" with a way home', async () => {
    renderPay({
      [`GET /api/pay/${TOKEN}`]: { status: 404, json: { message: 'This payment link is not valid' } },
    });
    expect(await screen.findByRole('heading', { name: 'Payment link not valid' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });
});
