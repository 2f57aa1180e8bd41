import { apiGet, apiJson } from '@tyres/platform/api';

/** GET /api/booking-token/{token}: "booking by token" (spec section 3). */
export interface BookingByToken {
  amount: string;
  currency?: string;
  status?: string;
  paymentStatus?: string;
  serviceType: string;
  customer: { name: string; email: string; phone: string };
  job: { scheduledDate: string; timeSlot: string; address: string; suburb: string; postcode: string };
  vehicle: { make: string; model: string; year: number | string; registration: string };
}

/** POST /api/create-payment-intent-token: the payment intent response (spec section 3). */
export interface PaymentIntentAnswer {
  clientSecret: string;
  originalAmount: string;
  surchargeAmount: string;
  totalAmount: string;
  message: string;
  /** Billing's own addition: true when no Stripe keys are configured (the labelled test mode). */
  testMode?: boolean;
  mode?: 'live' | 'test';
}

export const fetchBooking = (token: string) =>
  apiGet<BookingByToken>(`/api/booking-token/${encodeURIComponent(token)}`);

export const createPaymentIntent = (bookingToken: string) =>
  apiJson<PaymentIntentAnswer>('POST', '/api/create-payment-intent-token', { bookingToken });

export const confirmTestPayment = (clientSecret: string, cardNumber: string) =>
  apiJson<{ status: string; message?: string }>('POST', '/api/payments/test-mode/confirm', {
    clientSecret,
    cardNumber,
  });

export const successUrl = (token: string) => `/?payment=success&booking=${encodeURIComponent(token)}`;

export const PAYMENT_MESSAGES = {
  failedTitle: 'Payment Failed',
  errorTitle: 'Payment Error',
  error: 'An unexpected error occurred. Please try again.',
  setupTitle: 'Payment Setup Failed',
  setup: 'Unable to initialize payment. Please try again.',
  notFound: 'Booking Not Found',
} as const;
