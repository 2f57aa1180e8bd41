/** The "Pay now" page's calls (billing's /api/pay routes), typed by billing's OpenAPI document. */
import type { components, paths } from '@tyres/platform/api-types/billing';
import { typedApi } from '@tyres/platform/typed-api';

const billing = typedApi<paths>();

/** GET /api/pay/{token}: the invoice, the card surcharge (at the rate in force) and the amount to pay. */
export type PayInvoice = components['schemas']['PayInvoice'];
/** POST /api/pay/{token}/payment-intent: the PaymentIntent (the checkout's shape, plus the invoice number). */
export type InvoicePaymentIntent = components['schemas']['InvoicePaymentIntent'];

export const payKey = (token: string) => ['public', 'pay', token] as const;

export const fetchPayInvoice = (token: string) => billing.get('/api/pay/{token}', { params: { token } });

export const createInvoicePaymentIntent = (token: string) =>
  billing.post('/api/pay/{token}/payment-intent', { params: { token } });

export const PAY_MESSAGES = {
  linkInvalidTitle: 'Payment link not valid',
  linkInvalid:
    'This payment link is not valid. Please check the link in your invoice email, or call us and we will help.',
  loadFailed: "We couldn't load your invoice",
  setupTitle: 'Payment Setup Failed',
  setup: 'Unable to initialize payment. Please try again.',
  paidTitle: 'Payment received – thank you!',
  alreadyPaidTitle: 'This invoice has already been paid',
  cancelledTitle: 'This invoice has been cancelled',
} as const;
