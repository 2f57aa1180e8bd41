/**
 * The answers the public site's component tests stub, as the booking and billing services document them. Each
 * builder is typed by the generated types (@tyres/platform/api-types: tsc fails on a field a service renames), and
 * PUBLIC_FIXTURES lists the default of each with the operation it answers, which
 * test/unit/api-types-fixtures.test.ts checks against the service's OpenAPI document. Plain data only: that unit
 * test loads this file in Node.
 */
import type { components as Billing, paths as BillingPaths } from '../../../platform/src/api-types/billing';
import type { components as Booking, paths as BookingPaths } from '../../../platform/src/api-types/booking';
import { answerOf, type AnswerFixture } from '../../../platform/src/typed-api';

type BookingSchemas = Booking['schemas'];
type BillingSchemas = Billing['schemas'];

export const JOB_ID = 'a1b2c3d4-0000-4000-8000-000000000001';

/** A date's four slots: the first one taken. */
export function timeSlots(): BookingSchemas['PublicSlot'][] {
  return [
    { slot: '8-10 AM', isAvailable: false, blockedReason: 'Fully booked' },
    { slot: '10-12 AM', isAvailable: true, blockedReason: null },
    { slot: '12-2 PM', isAvailable: true, blockedReason: null },
    { slot: '2-4 PM', isAvailable: true, blockedReason: null },
  ];
}

/** GET /api/tyre-pricing/{size}: one tyre's retail price. */
export function tyrePrice(overrides: Partial<BookingSchemas['TyrePrice']> = {}): BookingSchemas['TyrePrice'] {
  return { price: '159.00', size: '205/55R16', brand: 'Bridgestone', model: 'Turanza T005', ...overrides };
}

/** POST /api/pricing/quote for a puncture repair on site, with overrides. */
export function priceQuote(
  overrides: Partial<BookingSchemas['PriceQuote']> = {},
): BookingSchemas['PriceQuote'] {
  return {
    items: [
      { description: 'Callout fee', price: '89.80' },
      { description: 'Puncture repair', price: '40.00' },
    ],
    subtotal: '129.80',
    discount: '0.00',
    gst: '11.80',
    total: '129.80',
    callbackRequired: false,
    ...overrides,
  };
}

export function prepaidQuote(
  overrides: Partial<BookingSchemas['PrepaidQuote']> = {},
): BookingSchemas['PrepaidQuote'] {
  return {
    bookingToken: 'tok-1',
    amount: '457.80',
    currency: 'AUD',
    scheduledDate: '2026-11-24',
    timeSlot: '12-2 PM',
    expiresAt: '2026-11-23T02:00:00.000Z',
    quoteId: 'q-1',
    jobId: JOB_ID,
    jobNumber: 'JOB-000001',
    cardSurchargeRate: '1.70',
    ...overrides,
  };
}

export function bookingConfirmation(
  overrides: Partial<BookingSchemas['BookingConfirmation']> = {},
): BookingSchemas['BookingConfirmation'] {
  return {
    jobId: JOB_ID,
    jobNumber: 'JOB-000002',
    scheduledDate: '2026-11-24',
    timeSlot: '12-2 PM',
    paymentMethod: 'onsite',
    paymentStatus: 'pending',
    customerValue: '129.80',
    ...overrides,
  };
}

/** GET /api/booking-token/{token}: a prepaid booking waiting for payment. */
export function bookingByToken(
  overrides: Partial<BookingSchemas['BookingByToken']> = {},
): BookingSchemas['BookingByToken'] {
  return {
    amount: '457.80',
    currency: 'AUD',
    cardSurchargeRate: '1.70',
    status: 'quoted',
    paymentStatus: 'pending',
    expiresAt: '2026-11-23T02:00:00.000Z',
    serviceType: 'new-tyres',
    customer: { name: 'Jane Citizen', email: 'jane@example.com', phone: '0412 345 678' },
    job: {
      scheduledDate: '2026-11-24',
      timeSlot: '12-2 PM',
      address: '12 Smith Street',
      suburb: 'Rockingham',
      postcode: '6168',
      tyreSize: '205/55R16',
      tyreQuantity: 2,
    },
    vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, color: null, registration: '1ABC234' },
    ...overrides,
  };
}

/** POST /api/create-payment-intent-token in billing's labelled test mode. */
export function paymentIntent(
  overrides: Partial<BillingSchemas['PaymentIntent']> = {},
): BillingSchemas['PaymentIntent'] {
  return {
    clientSecret: 'pi_test_1_secret_1',
    originalAmount: '457.80',
    surchargeRate: '1.7%',
    surchargeAmount: '7.78',
    totalAmount: '465.58',
    message: 'A 1.7% card surcharge applies',
    paymentIntentId: 'pi_test_1',
    currency: 'AUD',
    mode: 'test',
    testMode: true,
    ...overrides,
  };
}

export function testPaymentConfirmed(): BillingSchemas['TestPaymentConfirmed'] {
  return {
    paymentIntentId: 'pi_test_1',
    mode: 'test',
    testMode: true,
    message: 'Payment succeeded (test mode)',
    status: 'succeeded',
  };
}

export function addressSuggestions(): BookingSchemas['AddressSuggestion'][] {
  return [
    {
      streetAddress: '12 Smith Street',
      fullAddress: '12 Smith Street, Rockingham WA 6168',
      suburb: 'Rockingham',
      postcode: '6168',
    },
  ];
}

/**
 * GET /api/manage/{token}: a pay-on-site booking 3 days ahead, every action open, cancelling now free (24+ hours).
 * The variants below change only what their state needs.
 */
export function managedBooking(
  overrides: Partial<BookingSchemas['ManagedBooking']> = {},
): BookingSchemas['ManagedBooking'] {
  return {
    reference: 'JOB-000123',
    status: 'confirmed',
    customerName: 'Jane Citizen',
    serviceType: 'new-tyres',
    scheduledDate: '2026-11-24',
    timeSlot: '12-2 PM',
    slotStartsAt: '2026-11-24T04:00:00.000Z',
    address: { street: '12 Smith Street', suburb: 'Rockingham', postcode: '6168' },
    vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, color: null, registration: '1ABC234' },
    phone: '0412 345 678',
    notes: 'Gate code 1234',
    tyreSize: '205/55R16',
    tyreQuantity: 2,
    price: '457.80',
    paymentMethod: 'onsite',
    paymentStatus: 'pending',
    amountPaid: null,
    photoCount: 1,
    can: { reschedule: true, cancel: true, change: true },
    cancellation: {
      band: 'full_refund',
      description: '24 hours or more before the booking: full refund',
      hoursBefore: 72,
      refundPercent: 100,
      refund: '0.00',
      fee: '0.00',
    },
    cancelled: null,
    ...overrides,
  };
}

/** A prepaid booking, paid by card (price + 1.7%), in the terms band given. */
export function prepaidManagedBooking(
  band: 'full_refund' | 'half_refund' | 'no_refund' = 'full_refund',
): BookingSchemas['ManagedBooking'] {
  const terms = {
    full_refund: { hoursBefore: 72, refundPercent: 100, refund: '465.58', fee: '0.00' },
    half_refund: { hoursBefore: 18, refundPercent: 50, refund: '232.79', fee: '232.79' },
    no_refund: { hoursBefore: 6, refundPercent: 0, refund: '0.00', fee: '465.58' },
  }[band];
  const description = {
    full_refund: '24 hours or more before the booking: full refund',
    half_refund: '12 to 24 hours before the booking: 50% refund',
    no_refund: 'Less than 12 hours before the booking: no refund',
  }[band];
  return managedBooking({
    paymentMethod: 'prepaid',
    paymentStatus: 'paid',
    amountPaid: '465.58',
    cancellation: { band, description, ...terms },
  });
}

/** The answer of POST /api/manage/{token}/cancel for a prepaid booking cancelled 24+ hours ahead. */
export function cancelledManagedBooking(): BookingSchemas['ManagedBooking'] {
  return {
    ...prepaidManagedBooking('full_refund'),
    status: 'cancelled',
    can: { reschedule: false, cancel: false, change: false },
    cancellation: null,
    cancelled: {
      cancelledAt: '2026-11-21T02:00:00.000Z',
      cancelledBy: 'customer',
      reason: null,
      band: 'full_refund',
      refundPercent: 100,
      refund: '465.58',
      fee: '0.00',
      feeWaived: false,
      kind: 'cancellation',
    },
  };
}

const booking = answerOf<BookingPaths>('booking');
const billing = answerOf<BillingPaths>('billing');

/** Each builder's default, with the operation it answers in the tests. */
export const PUBLIC_FIXTURES: readonly AnswerFixture[] = [
  booking('get', '/api/time-slots', 200, timeSlots()),
  booking('get', '/api/tyre-pricing/{tyreSize}', 200, tyrePrice()),
  booking('post', '/api/pricing/quote', 200, priceQuote()),
  booking('post', '/api/pricing/quote', 200, {
    ...priceQuote({ items: [], subtotal: '0.00', gst: '0.00', total: '0.00', callbackRequired: true }),
    message: 'Please call for a quote on this tyre size',
  }),
  booking('post', '/api/bookings/quote', 201, prepaidQuote()),
  booking('post', '/api/bookings', 201, bookingConfirmation()),
  booking('get', '/api/booking-token/{token}', 200, bookingByToken()),
  booking('get', '/api/addresses/suggestions', 200, addressSuggestions()),
  booking('get', '/api/manage/{token}', 200, managedBooking()),
  booking('get', '/api/manage/{token}', 200, prepaidManagedBooking('half_refund')),
  booking('post', '/api/manage/{token}/cancel', 200, cancelledManagedBooking()),
  billing('post', '/api/create-payment-intent-token', 200, paymentIntent()),
  billing('post', '/api/payments/test-mode/confirm', 200, testPaymentConfirmed()),
];
