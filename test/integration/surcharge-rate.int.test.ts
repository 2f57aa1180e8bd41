/**
 * Issue 19 item 5: the card surcharge rate is on the price list (booking), against a real booking service.
 *  - seeded at 1.70%; an admin changes it to 1.50% effective now (audited like any fee change);
 *  - a new prepaid quote stores and answers 1.50% (the quote, and /internal/booking-token billing's checkout reads);
 *  - a prepaid quote made before keeps 1.70%;
 *  - GET /internal/card-surcharge-rate (billing's pay-an-invoice) and GET /api/pricing publish the rate in force;
 *  - out-of-range rates are refused with their message.
 * Billing's side (an invoice intent made before the change is paid at its stored rate; booking down → 503) is in
 * billing-pay-invoice.int.test.ts.
 */
import {
  bookingBody,
  businessDays,
  startTestBooking,
  type BookingUnderTest,
} from '../../services/booking/test/integration/harness';
import { PRICE_MSG } from '../../services/booking/src/domain/price-list';

jest.setTimeout(120_000);

let app: BookingUnderTest;
const nextDay = businessDays('2032-01-12');
const admin = () => app.identity('admin');
const FEES = {
  calloutFee: '89.80',
  punctureRepair: '40.00',
  fittingPerTyre: '25.00',
  balancingPerTyre: '15.00',
  prepaidDiscount: '30.00',
};

const prepaidQuote = async (slot: '8-10 AM' | '10-12 AM' | '12-2 PM') => {
  const res = await app.request(
    'POST',
    '/api/bookings/quote',
    bookingBody(nextDay(), slot, { job: { paymentMethod: 'prepaid' } }),
  );
  expect(res.status).toBe(201);
  return res.body as unknown as { bookingToken: string; amount: string; cardSurchargeRate: string };
};
const byToken = async (token: string) => {
  const res = await app.request('GET', `/internal/booking-token/${token}`);
  expect(res.status).toBe(200);
  return res.body as unknown as { amount: string; cardSurchargeRate: string };
};

beforeAll(async () => {
  app = await startTestBooking('surcharge-rate');
  app.clock.set(new Date('2032-01-05T09:00:00+08:00'));
});
afterAll(async () => {
  await app?.stop();
});

describe('the card surcharge rate on the price list (issue 19 item 5)', () => {
  it('a change to 1.50% applies to new prepaid quotes; a quote made before keeps 1.70%', async () => {
    expect((await app.request('GET', '/internal/card-surcharge-rate')).body).toEqual({
      cardSurchargeRate: '1.70',
      label: '1.7%',
    });
    const before = await prepaidQuote('8-10 AM');
    expect(before.cardSurchargeRate).toBe('1.70');

    const changed = await app.request(
      'PUT',
      '/api/dashboard/prices/fees',
      { ...FEES, cardSurchargeRate: '1.50', reason: 'Cheaper card processing' },
      admin(),
    );
    expect(changed.status).toBe(201);
    expect((changed.body as unknown as { fees: Record<string, string> }).fees).toMatchObject({
      cardSurchargeRate: '1.50',
    });

    const after = await prepaidQuote('10-12 AM');
    expect(after.cardSurchargeRate).toBe('1.50');
    expect((await byToken(after.bookingToken)).cardSurchargeRate).toBe('1.50');
    // The quote made before keeps the rate it was given.
    expect((await byToken(before.bookingToken)).cardSurchargeRate).toBe('1.70');

    expect((await app.request('GET', '/internal/card-surcharge-rate')).body).toEqual({
      cardSurchargeRate: '1.50',
      label: '1.5%',
    });
    expect((await app.request('GET', '/api/pricing')).body).toMatchObject({ cardSurchargeRate: '1.50' });

    // Audited with the other fees.
    const audit = await app.request('GET', '/api/dashboard/prices/audit', undefined, admin());
    const entry = (audit.body as unknown as { action: string; before: object; after: object }[])[0]!;
    expect(entry).toMatchObject({
      action: 'fees.scheduled',
      before: { cardSurchargeRate: '1.70' },
      after: { cardSurchargeRate: '1.50' },
    });
  });

  it('refuses a rate outside 0-5% or with more than 2 places, with its message', async () => {
    for (const bad of ['5.01', '-1', '1.705', 'abc'])
      expect(
        await app.request(
          'PUT',
          '/api/dashboard/prices/fees',
          { ...FEES, cardSurchargeRate: bad, reason: 'Typo' },
          admin(),
        ),
      ).toMatchObject({ status: 400, body: { message: PRICE_MSG.rate } });
  });
});
