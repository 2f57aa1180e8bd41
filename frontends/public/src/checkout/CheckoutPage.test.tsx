import '../testing/polyfills';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { bookingByToken, paymentIntent, testPaymentConfirmed } from '../testing/fixtures';
import { renderWithSite, stubFetch, type StubAnswer } from '../testing/render';
import CheckoutPage from './CheckoutPage';

const BOOKING = bookingByToken({
  amount: '258.80',
  customer: { name: 'Sam Driver', email: 'sam@example.com', phone: '0412 345 678' },
});
const INTENT = paymentIntent({
  clientSecret: 'pi_test_1_secret_abc',
  originalAmount: '258.80',
  surchargeAmount: '4.40',
  totalAmount: '263.20',
  message: 'TEST MODE - no real payment will be taken.',
});

function renderCheckout(routes: Record<string, StubAnswer>) {
  const api = stubFetch({
    'GET /api/booking-token/*': { json: BOOKING },
    'POST /api/create-payment-intent-token': { json: INTENT },
    ...routes,
  });
  const view = renderWithSite(
    <Routes>
      <Route path="/checkout/:token" element={<CheckoutPage />} />
      <Route path="*" element={<p>landing</p>} />
    </Routes>,
    { path: '/checkout/tok_abc123' },
  );
  return { ...api, ...view };
}

afterEach(() => document.getElementById('tyres-toasts')?.remove());

describe('checkout (/checkout/{bookingToken})', () => {
  test('order summary, the 1.7% card surcharge and the labelled test mode', async () => {
    const { calls } = renderCheckout({});
    const summary = await screen.findByRole('region', { name: 'Order summary' });
    for (const text of [
      'Sam Driver',
      'sam@example.com',
      '0412 345 678',
      'New Tyres',
      'Tuesday 24 November 2026, 12-2 PM',
      '12 Smith Street, Rockingham 6168',
      '2018 Toyota Corolla, 1ABC234',
      '$258.80',
    ]) {
      expect(within(summary).getByText(text)).toBeInTheDocument();
    }
    const pay = await screen.findByRole('region', { name: 'Card payment' });
    expect(within(pay).getByText('Card surcharge (1.7%)')).toBeInTheDocument();
    expect(within(pay).getByText('$4.40')).toBeInTheDocument();
    expect(within(pay).getByText('$263.20')).toBeInTheDocument();
    expect(within(pay).getByText('TEST MODE – no real payment will be taken')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/create-payment-intent-token')?.body).toEqual({
      bookingToken: 'tok_abc123',
    });
  });

  test("the surcharge label is the payment's own rate (the quote's, from the price list), not a constant", async () => {
    renderCheckout({
      'POST /api/create-payment-intent-token': {
        json: { ...INTENT, surchargeRate: '1.5%', surchargeAmount: '3.88', totalAmount: '262.68' },
      },
    });
    const pay = await screen.findByRole('region', { name: 'Card payment' });
    expect(await within(pay).findByText('Card surcharge (1.5%)')).toBeInTheDocument();
    expect(within(pay).getByText('A card surcharge of 1.5% applies to card payments.')).toBeInTheDocument();
    expect(within(pay).getByText('$262.68')).toBeInTheDocument();
    expect(within(pay).queryByText(/1\.7%/)).toBeNull();
  });

  test('a test card goes through the server path and returns to /?payment=success&booking={token}', async () => {
    const { calls } = renderCheckout({
      'POST /api/payments/test-mode/confirm': { json: testPaymentConfirmed() },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Card number'), '4242424242424242');
    await user.type(screen.getByLabelText('Expiry (MM/YY)'), '1230');
    await user.type(screen.getByLabelText('Security code (CVC)'), '123');
    await user.click(screen.getByRole('button', { name: 'Pay $263.20 (test)' }));
    expect(await screen.findByText('landing')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/?payment=success&booking=tok_abc123');
    expect(calls.find((c) => c.path === '/api/payments/test-mode/confirm')?.body).toEqual({
      clientSecret: 'pi_test_1_secret_abc',
      cardNumber: '4242424242424242',
    });
  });

  test('a declined card: "Payment Failed" with the provider message', async () => {
    renderCheckout({
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
  });

  test('an unexpected error: "Payment Error"', async () => {
    renderCheckout({ 'POST /api/payments/test-mode/confirm': { status: 500, json: { message: 'boom' } } });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Card number'), '4242424242424242');
    await user.type(screen.getByLabelText('Expiry (MM/YY)'), '1230');
    await user.type(screen.getByLabelText('Security code (CVC)'), '123');
    await user.click(screen.getByRole('button', { name: /^Pay / }));
    expect(await screen.findByText('Payment Error')).toBeInTheDocument();
    expect(screen.getByText('An unexpected error occurred. Please try again.')).toBeInTheDocument();
  });

  test('the payment cannot be set up: "Payment Setup Failed"', async () => {
    renderCheckout({
      'POST /api/create-payment-intent-token': { status: 503, json: { message: 'stripe down' } },
    });
    expect(await screen.findAllByText('Payment Setup Failed')).not.toHaveLength(0);
    expect(screen.getAllByText('Unable to initialize payment. Please try again.').length).toBeGreaterThan(0);
  });

  test('an absent or expired token: "Booking Not Found"', async () => {
    renderCheckout({
      'GET /api/booking-token/*': {
        status: 404,
        json: { message: 'This booking was not found or has expired.' },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Booking Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });
});
