/**
 * Issue 19 item 5, money correctness: what a customer is quoted is what they are invoiced, line by line. The real
 * booking service prices and announces bookings (BookingCreated carries the quote's lines); billing (its own
 * database and bus prefix) receives those exact events and generates the invoices.
 *  - callout raised by an admin, then a booking: its invoice's callout line is the new fee, no "Additional services",
 *    and the lines add up to the quoted total to the cent (GST = total ÷ 11);
 *  - a prepaid quote made before the change and paid after: its invoice shows the old fees and the prepaid discount.
 */
import { randomUUID } from 'node:crypto';
import { BookingCreated, PaymentSucceeded, type BookingCreatedV1Data } from '@tyres/events';
import { formatMoney, toCents, withCardSurcharge } from '@tyres/kernel';
import { waitFor } from '@tyres/testkit';
import {
  bookingBody,
  businessDays,
  startTestBooking,
  type BookingUnderTest,
} from '../../services/booking/test/integration/harness';
import { startTestBilling, type TestBilling } from '../../services/billing/test/integration/helpers';

jest.setTimeout(180_000);

let app: BookingUnderTest;
let billing: TestBilling;
const nextDay = businessDays('2032-02-02');

const FEES = {
  calloutFee: '89.80',
  punctureRepair: '40.00',
  fittingPerTyre: '25.00',
  balancingPerTyre: '15.00',
  prepaidDiscount: '30.00',
  cardSurchargeRate: '1.70',
};

interface InvoiceItem {
  description: string;
  category: string;
  quantity: number;
  unitPrice: string;
  totalPrice: string;
}

beforeAll(async () => {
  app = await startTestBooking('quote-to-invoice');
  app.clock.set(new Date('2032-01-26T09:00:00+08:00'));
  billing = await startTestBilling('quote-to-invoice');
});
afterAll(async () => {
  await app?.stop();
  await billing?.stop();
});

/** The BookingCreated booking announced for a job, delivered to billing as is; then billing's invoice of it. */
async function invoiceOf(jobId: string) {
  const created = await app.events.waitFor<BookingCreatedV1Data>(
    'booking.created.v1',
    (d) => d.jobId === jobId,
    20_000,
  );
  await billing.publish(BookingCreated, created.data);
  await waitFor(() => billing.ctx.db.jobSnapshot.findUnique({ where: { jobId } }), {
    timeoutMs: 10_000,
    message: 'job snapshot',
  });
  const res = await billing
    .http()
    .post(`/api/dashboard/customer-invoices/generate/${jobId}`)
    .set('x-identity-token', billing.token(billing.admin));
  expect(res.status).toBe(201);
  const inv = res.body.customerInvoice as { items: InvoiceItem[]; totalAmount: string; gstAmount: string };
  const sum = inv.items.reduce((s, i) => s + toCents(i.totalPrice), 0n);
  return { created: created.data, inv, sum: formatMoney(sum) };
}

it('invoices show the fees as quoted: a new callout fee after a change, the old fees for a prepaid quote made before', async () => {
  // A prepaid quote before the change (callout 89.80 less the 30.00 prepaid discount).
  const quoted = await app.request(
    'POST',
    '/api/bookings/quote',
    bookingBody(nextDay(), '10-12 AM', { job: { paymentMethod: 'prepaid' } }),
  );
  expect(quoted.status).toBe(201);
  const prepaid = quoted.body as unknown as { quoteId: string; jobId: string; amount: string };

  // The admin raises the callout fee.
  const raised = await app.request(
    'PUT',
    '/api/dashboard/prices/fees',
    { ...FEES, calloutFee: '99.80', effectiveFrom: null, reason: 'Fuel costs up' },
    app.identity('admin'),
  );
  expect(raised.status).toBe(201);

  // A booking after the change: quoted with the new callout; its invoice's callout line is 99.80.
  const booked = await app.request('POST', '/api/bookings', bookingBody(nextDay(), '8-10 AM'));
  expect(booked.status).toBe(201);
  const booking = booked.body as unknown as { jobId: string; customerValue: string };
  const after = await invoiceOf(booking.jobId);
  expect(after.created.quote?.lines.find((l) => l.code === 'callout')?.amount).toBe('99.80');
  expect(after.inv.items[0]).toMatchObject({
    description: 'Mobile callout fee',
    category: 'callout',
    quantity: 1,
    unitPrice: '99.80',
    totalPrice: '99.80',
  });
  expect(after.inv.items.map((i) => i.description)).not.toContain('Additional services');
  expect(after.inv.items.slice(2).map((i) => [i.description, i.quantity, i.unitPrice])).toEqual([
    ['Tyre fitting', 2, '25.00'],
    ['Wheel balancing', 2, '15.00'],
  ]);
  expect(after.sum).toBe(booking.customerValue);
  expect(after.inv.totalAmount).toBe(booking.customerValue);
  expect(after.inv.gstAmount).toBe(formatMoney((toCents(booking.customerValue) * 10n + 55n) / 110n));

  // The prepaid quote made before, paid now: its invoice has the old callout less the discount, not the new fee.
  const charged = withCardSurcharge(toCents(prepaid.amount));
  await app.publish(PaymentSucceeded, {
    paymentId: randomUUID(),
    paymentIntentId: `pi_${randomUUID().replace(/-/g, '')}`,
    quoteId: prepaid.quoteId,
    jobId: null,
    originalAmount: prepaid.amount,
    surchargeAmount: formatMoney(charged.surcharge),
    amount: formatMoney(charged.total),
    currency: 'AUD',
    mode: 'test',
    succeededAt: app.clock.now().toISOString(),
  });
  const before = await invoiceOf(prepaid.jobId);
  expect(before.created.quote).toMatchObject({ discount: '30.00', total: prepaid.amount });
  expect(before.inv.items[0]).toMatchObject({
    description: 'Mobile callout fee (less $30.00 prepaid online discount)',
    unitPrice: '59.80',
    totalPrice: '59.80',
  });
  expect(before.inv.items.map((i) => i.description)).not.toContain('Additional services');
  expect(before.sum).toBe(prepaid.amount);
  expect(before.inv.totalAmount).toBe(prepaid.amount);
});
