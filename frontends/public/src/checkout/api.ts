import type { paths as BillingPaths, components as Billing } from '@tyres/platform/api-types/billing';
import type { paths as BookingPaths, components as Booking } from '@tyres/platform/api-types/booking';
import { typedApi } from '@tyres/platform/typed-api';

/** Checkout's calls, typed by the booking and billing services' OpenAPI documents (`npm run api:types`). */
const booking = typedApi<BookingPaths>();
const billing = typedApi<BillingPaths>();

/** GET /api/booking-token/{token}: "booking by token" (spec section 3). */
export type BookingByToken = Booking['schemas']['BookingByToken'];

/** POST /api/create-payment-intent-token: the payment intent response (spec section 3). */
export type PaymentIntentAnswer = Billing['schemas']['PaymentIntent'];

export const fetchBooking = (token: string) =>
  booking.get('/api/booking-token/{token}', { params: { token } });

export const createPaymentIntent = (bookingToken: string) =>
  billing.post('/api/create-payment-intent-token', { body: { bookingToken } });

/** The labelled test mode's card form; a declined card answers 402 (thrown as ApiError with billing's message). */
export const confirmTestPayment = (clientSecret: string, cardNumber: string) =>
  billing.post('/api/payments/test-mode/confirm', { body: { clientSecret, cardNumber } });

export const successUrl = (token: string) => `/?payment=success&booking=${encodeURIComponent(token)}`;

export const PAYMENT_MESSAGES = {
  failedTitle: 'Payment Failed',
  errorTitle: 'Payment Error',
  error: 'An unexpected error occurred. Please try again.',
  setupTitle: 'Payment Setup Failed',
  setup: 'Unable to initialize payment. Please try again.',
  notFound: 'Booking Not Found',
} as const;
