/**
 * Issue 19 item 5: the price list, against a real booking service (its own database, the real bus).
 *  - a price change affects new quotes only: a booking made before keeps its price, and a prepaid quote made before
 *    keeps its price through payment (the booking it becomes);
 *  - a future-dated change applies only from its date (and can be cancelled until then);
 *  - admins only (technicians 403); 400/404/409 with their messages; every change audited.
 */
import { randomUUID } from 'node:crypto';
import { PaymentSucceeded } from '@tyres/events';
import { formatMoney, toCents, withCardSurcharge } from '@tyres/kernel';
import {
  bookingBody,
  businessDays,
  startTestBooking,
  type BookingUnderTest,
} from '../../services/booking/test/integration/harness';
import { PRICE_MSG, scheduledLaterMessage } from '../../services/booking/src/domain/price-list';

jest.setTimeout(120_000);

let app: BookingUnderTest;
const nextDay = businessDays('2032-01-12');
const admin = () => app.identity('admin');
const tech = () => app.identity('technician');
const SIZE = '205/55R16';

interface Quote {
  items: { description: string; price: string }[];
  subtotal: string;
  discount: string;
  total: string;
  callbackRequired: boolean;
}
interface TyreView {
  id: string;
  size: string;
  brand: string;
  model: string;
  price: string;
  inStock: boolean;
  scheduled: { id: string; effectiveFrom: string; price: string }[];
}
interface PriceListView {
  fees: { id: string; fees: Record<string, string>; effectiveFrom: string };
  scheduledFees: { id: string; effectiveFrom: string; fees: Record<string, string> }[];
  tyres: TyreView[];
  fixed: { key: string; value: string }[];
}

const FEES = {
  calloutFee: '89.80',
  punctureRepair: '40.00',
  fittingPerTyre: '25.00',
  balancingPerTyre: '15.00',
  prepaidDiscount: '30.00',
  cardSurchargeRate: '1.70',
};

const quote = async (over: object = {}) => {
  const res = await app.request('POST', '/api/pricing/quote', {
    serviceType: 'new-tyres',
    tyreSize: SIZE,
    quantity: 2,
    prepaid: false,
    ...over,
  });
  expect(res.status).toBe(200);
  return res.body as unknown as Quote;
};
const priceList = async () => {
  const res = await app.request('GET', '/api/dashboard/prices', undefined, admin());
  expect(res.status).toBe(200);
  return res.body as unknown as PriceListView;
};
const putFees = (body: object, headers = admin()) =>
  app.request('PUT', '/api/dashboard/prices/fees', body, headers);
const bookingTotal = async (jobId: string) =>
  (await app.pg.query(`SELECT total::text AS total FROM booking.bookings WHERE job_id = $1`, [jobId])).rows[0]
    ?.total as string;

beforeAll(async () => {
  app = await startTestBooking('price-list');
  app.clock.set(new Date('2032-01-05T09:00:00+08:00'));
});
afterAll(async () => {
  await app?.stop();
});

describe('price list administration (issue 19 item 5)', () => {
  it("is seeded with today's prices: nothing changes for customers until an admin edits", async () => {
    const list = await priceList();
    expect(list.fees.fees).toEqual(FEES);
    expect(list.scheduledFees).toEqual([]);
    // The card surcharge is on the editable list (1.70%); only battery service is fixed.
    expect(list.fixed.map((f) => [f.key, f.value])).toEqual([['batteryService', '0.00']]);
    const cheapest = list.tyres
      .filter((t) => t.size === SIZE && t.inStock)
      .sort((a, b) => +a.price - +b.price)[0]!;
    const q = await quote();
    expect(q.items.map((i) => i.price)).toEqual([
      formatMoney(toCents(cheapest.price) * 2n),
      '50.00',
      '30.00',
      '89.80',
    ]);
    const pricing = (await app.request('GET', '/api/pricing')).body;
    expect(pricing).toMatchObject({
      calloutFee: '89.80',
      prepaidDiscount: '30.00',
      cardSurchargeRate: '1.70',
    });
  });

  it('is for admins only: a technician gets 403 on every route, nobody signed in 401', async () => {
    const id = randomUUID();
    for (const [method, path, body] of [
      ['GET', '/api/dashboard/prices', undefined],
      ['GET', '/api/dashboard/prices/audit', undefined],
      ['PUT', '/api/dashboard/prices/fees', { ...FEES, reason: 'try' }],
      ['POST', '/api/dashboard/prices/tyres', {}],
      ['PUT', `/api/dashboard/prices/tyres/${id}`, { price: '1.00', reason: 'try' }],
      ['DELETE', `/api/dashboard/prices/changes/${id}`, { reason: 'try' }],
    ] as const) {
      const res = await app.request(method, path, body, tech());
      expect([method, path, res.status, res.body.message]).toEqual([
        method,
        path,
        403,
        'Only an admin can do that',
      ]);
      expect((await app.request(method, path, body)).status).toBe(401);
    }
    const { rows } = await app.pg.query(`SELECT count(*)::int AS n FROM booking.price_list_audit`);
    expect(rows[0].n).toBe(0);
  });

  it('a price change affects new quotes only: bookings and prepaid quotes made before keep their price', async () => {
    // Before the change: an onsite booking and a prepaid quote (not yet paid).
    const before = await quote();
    const booked = await app.request('POST', '/api/bookings', bookingBody(nextDay(), '8-10 AM'));
    expect(booked.status).toBe(201);
    const booking = booked.body as unknown as { jobId: string; customerValue: string };
    expect(booking.customerValue).toBe(before.total);
    const quoted = await app.request(
      'POST',
      '/api/bookings/quote',
      bookingBody(nextDay(), '10-12 AM', { job: { paymentMethod: 'prepaid' } }),
    );
    expect(quoted.status).toBe(201);
    const prepaidQuote = quoted.body as unknown as { quoteId: string; jobId: string; amount: string };
    const prepaidBefore = formatMoney(toCents(before.total) - 3000n);
    expect(prepaidQuote.amount).toBe(prepaidBefore);

    // The admin raises the callout fee and the fitting, and the tyre's price, from now.
    const raised = await putFees({
      ...FEES,
      calloutFee: '99.80',
      fittingPerTyre: '27.50',
      effectiveFrom: null,
      reason: 'Fuel costs up',
    });
    expect(raised.status).toBe(201);
    expect(raised.body).toMatchObject({
      fees: { ...FEES, calloutFee: '99.80', fittingPerTyre: '27.50' },
      createdBy: expect.any(String),
    });
    const tyre = (await priceList()).tyres
      .filter((t) => t.size === SIZE && t.inStock)
      .sort((a, b) => +a.price - +b.price)[0]!;
    const repriced = await app.request(
      'PUT',
      `/api/dashboard/prices/tyres/${tyre.id}`,
      { price: formatMoney(toCents(tyre.price) + 1000n), reason: 'Supplier price rise' },
      admin(),
    );
    expect(repriced.status).toBe(200);
    expect(repriced.body).toMatchObject({
      id: tyre.id,
      price: formatMoney(toCents(tyre.price) + 1000n),
      inStock: true,
    });

    // New quotes use the list in force.
    const after = await quote();
    expect(after.items.map((i) => i.price)).toEqual([
      formatMoney((toCents(tyre.price) + 1000n) * 2n),
      '55.00',
      '30.00',
      '99.80',
    ]);
    expect(toCents(after.total) - toCents(before.total)).toBe(2000n + 500n + 1000n);
    expect((await app.request('GET', '/api/pricing')).body).toMatchObject({
      calloutFee: '99.80',
      fittingPerTyre: '27.50',
    });
    const puncture = await quote({ serviceType: 'puncture-repair', tyreSize: null, quantity: 1 });
    expect(puncture.total).toBe('139.80');
    const newBooking = await app.request('POST', '/api/bookings', bookingBody(nextDay(), '8-10 AM'));
    expect((newBooking.body as unknown as { customerValue: string }).customerValue).toBe(after.total);

    // The booking made before keeps its price: its row and the BookingCreated it announced.
    expect(await bookingTotal(booking.jobId)).toBe(before.total);
    const created = await app.events.waitFor<{ jobId: string; customerValue: string }>(
      'booking.created.v1',
      (d) => d.jobId === booking.jobId,
    );
    expect(created.data.customerValue).toBe(before.total);

    // The prepaid quote made before keeps its price through payment: the booking it becomes is at the old price.
    const charged = withCardSurcharge(toCents(prepaidQuote.amount));
    await app.publish(PaymentSucceeded, {
      paymentId: randomUUID(),
      paymentIntentId: `pi_${randomUUID().replace(/-/g, '')}`,
      quoteId: prepaidQuote.quoteId,
      jobId: null,
      originalAmount: prepaidQuote.amount,
      surchargeAmount: formatMoney(charged.surcharge),
      amount: formatMoney(charged.total),
      currency: 'AUD',
      mode: 'test',
      succeededAt: app.clock.now().toISOString(),
    });
    const confirmed = await app.events.waitFor<{
      jobId: string;
      customerValue: string;
      paymentStatus: string;
    }>('booking.created.v1', (d) => d.jobId === prepaidQuote.jobId, 20_000);
    expect(confirmed.data.customerValue).toBe(prepaidBefore);
    expect(await bookingTotal(prepaidQuote.jobId)).toBe(prepaidBefore);
  });

  it('a future-dated change applies only from its date, and can be cancelled until then', async () => {
    const now = await quote({ serviceType: 'emergency-callout', tyreSize: null, quantity: 1 });
    expect(now.total).toBe('99.80');
    const scheduled = await putFees({
      ...FEES,
      calloutFee: '109.80',
      fittingPerTyre: '27.50',
      effectiveFrom: '2032-02-01',
      reason: 'February price list',
    });
    expect(scheduled.status).toBe(201);
    expect(scheduled.body).toMatchObject({ effectiveFrom: '2032-01-31T16:00:00.000Z' });
    const other = await putFees({
      ...FEES,
      calloutFee: '119.80',
      effectiveFrom: '2032-03-01',
      reason: 'Maybe March',
    });
    expect(other.status).toBe(201);

    let list = await priceList();
    expect(list.fees.fees.calloutFee).toBe('99.80');
    expect(list.scheduledFees.map((f) => [f.effectiveFrom, f.fees.calloutFee])).toEqual([
      ['2032-01-31T16:00:00.000Z', '109.80'],
      ['2032-02-29T16:00:00.000Z', '119.80'],
    ]);
    // Still today's price the minute before.
    app.clock.set(new Date('2032-01-31T23:59:00+08:00'));
    expect((await quote({ serviceType: 'emergency-callout', tyreSize: null, quantity: 1 })).total).toBe(
      '99.80',
    );

    // Cancel March before it applies.
    const cancel = await app.request(
      'DELETE',
      `/api/dashboard/prices/changes/${(other.body as unknown as { id: string }).id}`,
      { reason: 'Not going ahead' },
      admin(),
    );
    expect(cancel.status).toBe(204);

    app.clock.set(new Date('2032-02-01T00:00:00+08:00'));
    expect((await quote({ serviceType: 'emergency-callout', tyreSize: null, quantity: 1 })).total).toBe(
      '109.80',
    );
    list = await priceList();
    expect(list.fees.fees.calloutFee).toBe('109.80');
    expect(list.scheduledFees).toEqual([]);
    // In force: no longer cancellable.
    const late = await app.request(
      'DELETE',
      `/api/dashboard/prices/changes/${(scheduled.body as unknown as { id: string }).id}`,
      { reason: 'Too late' },
      admin(),
    );
    expect([late.status, late.body.message]).toEqual([409, PRICE_MSG.alreadyInForce]);
    app.clock.set(new Date('2032-03-02T09:00:00+08:00'));
    expect((await quote({ serviceType: 'emergency-callout', tyreSize: null, quantity: 1 })).total).toBe(
      '109.80',
    );
  });

  it('a new tyre is quoted from its effective date; out of stock means a call-back', async () => {
    app.clock.set(new Date('2032-03-02T09:00:00+08:00'));
    const size = '305/30R22';
    expect((await quote({ tyreSize: size })).callbackRequired).toBe(true);
    const created = await app.request(
      'POST',
      '/api/dashboard/prices/tyres',
      {
        size: '305/30 r22',
        brand: 'Pirelli',
        model: 'P Zero',
        price: '489.99',
        inStock: true,
        effectiveFrom: '2032-03-03',
        reason: 'New range',
      },
      admin(),
    );
    expect(created.status).toBe(201);
    const tyre = created.body as unknown as TyreView;
    expect(tyre).toMatchObject({ size, brand: 'Pirelli', price: '489.99', inStock: false });
    expect(tyre.scheduled).toHaveLength(1);
    expect((await quote({ tyreSize: size })).callbackRequired).toBe(true);
    app.clock.set(new Date('2032-03-03T00:00:01+08:00'));
    expect((await quote({ tyreSize: size, quantity: 1 })).items[0]).toEqual({
      description: `${size} tyres (1 tyre)`,
      price: '489.99',
    });
    const out = await app.request(
      'PUT',
      `/api/dashboard/prices/tyres/${tyre.id}`,
      { inStock: false, reason: 'Sold out' },
      admin(),
    );
    expect(out.status).toBe(200);
    expect((await quote({ tyreSize: size })).callbackRequired).toBe(true);

    const dup = await app.request(
      'POST',
      '/api/dashboard/prices/tyres',
      { size, brand: 'Pirelli', model: 'P Zero', price: '1', reason: 'again' },
      admin(),
    );
    expect([dup.status, dup.body.message]).toEqual([409, PRICE_MSG.tyreExists]);
  });

  it('refuses bad input with 400/404/409 and clear messages', async () => {
    const cases: [string, string, object, number, string][] = [
      [
        'PUT',
        '/api/dashboard/prices/fees',
        { ...FEES, calloutFee: 'abc', reason: 'x y z' },
        400,
        `calloutFee ${PRICE_MSG.money}`,
      ],
      [
        'PUT',
        '/api/dashboard/prices/fees',
        { ...FEES, calloutFee: '-1', reason: 'x y z' },
        400,
        `calloutFee ${PRICE_MSG.negative}`,
      ],
      [
        'PUT',
        '/api/dashboard/prices/fees',
        { ...FEES, prepaidDiscount: '200', reason: 'x y z' },
        400,
        PRICE_MSG.discountAboveCallout,
      ],
      [
        'PUT',
        '/api/dashboard/prices/fees',
        { ...FEES, effectiveFrom: '2032-01-01', reason: 'x y z' },
        400,
        PRICE_MSG.effectiveFromPast,
      ],
      [
        'PUT',
        '/api/dashboard/prices/fees',
        { ...FEES, effectiveFrom: 'tomorrow', reason: 'x y z' },
        400,
        PRICE_MSG.effectiveFrom,
      ],
      [
        'PUT',
        '/api/dashboard/prices/fees',
        { ...FEES, calloutFee: '109.80', fittingPerTyre: '27.50', reason: 'same' },
        409,
        PRICE_MSG.sameAsInForce,
      ],
      [
        'POST',
        '/api/dashboard/prices/tyres',
        { size: '205/55', brand: 'A', model: 'B', price: '100', reason: 'new one' },
        400,
        PRICE_MSG.size,
      ],
      [
        'POST',
        '/api/dashboard/prices/tyres',
        { size: '205/55R16', brand: 'A', model: 'B', price: '0', reason: 'new one' },
        400,
        PRICE_MSG.zeroTyre,
      ],
      [
        'PUT',
        `/api/dashboard/prices/tyres/${randomUUID()}`,
        { price: '100', reason: 'change it' },
        404,
        PRICE_MSG.tyreNotFound,
      ],
      [
        'PUT',
        '/api/dashboard/prices/tyres/not-an-id',
        { price: '100', reason: 'change it' },
        404,
        PRICE_MSG.tyreNotFound,
      ],
      [
        'DELETE',
        `/api/dashboard/prices/changes/${randomUUID()}`,
        { reason: 'cancel it' },
        404,
        PRICE_MSG.changeNotFound,
      ],
    ];
    for (const [method, path, body, status, message] of cases) {
      const res = await app.request(method, path, body, admin());
      expect([method, path, res.status, res.body.message]).toEqual([method, path, status, message]);
    }
    const noReason = await putFees({ ...FEES, calloutFee: '1.00', prepaidDiscount: '1.00' });
    expect(noReason.status).toBe(400);
    expect(String(noReason.body.message)).toContain(PRICE_MSG.reason);
  });

  it('every change is audited: who, when, why, before and after', async () => {
    const res = await app.request('GET', '/api/dashboard/prices/audit', undefined, admin());
    expect(res.status).toBe(200);
    const audit = res.body as unknown as {
      action: string;
      actor: string;
      reason: string;
      before: Record<string, unknown> | null;
      after: Record<string, unknown> | null;
    }[];
    expect(audit.map((a) => [a.action, a.reason]).reverse()).toEqual([
      ['fees.scheduled', 'Fuel costs up'],
      ['tyre.changed', 'Supplier price rise'],
      ['fees.scheduled', 'February price list'],
      ['fees.scheduled', 'Maybe March'],
      ['fees.cancelled', 'Not going ahead'],
      ['tyre.created', 'New range'],
      ['tyre.changed', 'Sold out'],
    ]);
    const first = audit[audit.length - 1]!;
    expect(first.before).toEqual(FEES);
    expect(first.after).toEqual({ ...FEES, calloutFee: '99.80', fittingPerTyre: '27.50' });
    expect(first.actor).toEqual(expect.any(String));
    expect(audit[0]).toMatchObject({ before: { inStock: true, price: '489.99' }, after: { inStock: false } });
    const { rows } = await app.pg.query(
      `SELECT count(*)::int AS n, count(actor_id)::int AS actors FROM booking.price_list_audit`,
    );
    expect(rows[0]).toEqual({ n: 7, actors: 7 });
  });

  it('refuses (409, nothing written) a change that a version already scheduled after it would undo', async () => {
    app.clock.set(new Date('2032-03-03T09:00:00+08:00'));
    const counts = async () =>
      (
        await app.pg.query(
          `SELECT (SELECT count(*)::int FROM booking.price_list_audit) AS audit,
                  (SELECT count(*)::int FROM booking.tyre_price_versions) AS tyres,
                  (SELECT count(*)::int FROM booking.price_fee_versions) AS fees`,
        )
      ).rows[0] as { audit: number; tyres: number; fees: number };
    const tyre = (await priceList()).tyres
      .filter((t) => t.size === SIZE && t.inStock)
      .sort((a, b) => +a.price - +b.price)[0]!;
    const tyrePath = `/api/dashboard/prices/tyres/${tyre.id}`;

    // A tyre: a price rise from 1 April, then out of stock from now.
    const rise = await app.request(
      'PUT',
      tyrePath,
      { price: formatMoney(toCents(tyre.price) + 500n), effectiveFrom: '2032-04-01', reason: 'April rise' },
      admin(),
    );
    expect(rise.status).toBe(200);
    const riseId = (rise.body as unknown as TyreView).scheduled[0]!.id;
    // The same instant supersedes, as before (the later-recorded wins).
    const same = await app.request(
      'PUT',
      tyrePath,
      {
        price: formatMoney(toCents(tyre.price) + 600n),
        effectiveFrom: '2032-04-01',
        reason: 'April rise, revised',
      },
      admin(),
    );
    expect(same.status).toBe(200);
    const sameId = (same.body as unknown as TyreView).scheduled.find((v) => v.id !== riseId)!.id;
    let before = await counts();
    const out = await app.request('PUT', tyrePath, { inStock: false, reason: 'Sold out' }, admin());
    expect([out.status, out.body.message, out.body.code]).toEqual([
      409,
      scheduledLaterMessage('tyre', '1 Apr 2032 (Perth)'),
      'scheduled_change_later',
    ]);
    expect(out.body.message).toBe(
      'A change to this tyre is scheduled for 1 Apr 2032 (Perth). Cancel that scheduled change first, so it does not undo this one (then schedule it again with this change in it).',
    );
    // A future change before the scheduled one is refused too.
    const march = await app.request(
      'PUT',
      tyrePath,
      { inStock: false, effectiveFrom: '2032-03-10', reason: 'Sold out from the 10th' },
      admin(),
    );
    expect(march.status).toBe(409);
    expect(await counts()).toEqual(before);
    expect((await quote()).callbackRequired).toBe(false);
    for (const id of [riseId, sameId]) {
      const cancelled = await app.request(
        'DELETE',
        `/api/dashboard/prices/changes/${id}`,
        { reason: 'Redo' },
        admin(),
      );
      expect(cancelled.status).toBe(204);
    }
    const outNow = await app.request('PUT', tyrePath, { inStock: false, reason: 'Sold out' }, admin());
    expect(outNow.status).toBe(200);
    expect(outNow.body).toMatchObject({ id: tyre.id, inStock: false, scheduled: [] });
    // A change after the last one is fine.
    const back = await app.request(
      'PUT',
      tyrePath,
      { inStock: true, effectiveFrom: '2032-04-01', reason: 'Restock in April' },
      admin(),
    );
    expect(back.status).toBe(200);

    // The fee schedule: a new callout from 1 April, then a change from now.
    const current = (await priceList()).fees.fees;
    const aprilFees = await putFees({
      ...current,
      calloutFee: '129.80',
      effectiveFrom: '2032-04-01',
      reason: 'April fees',
    });
    expect(aprilFees.status).toBe(201);
    before = await counts();
    const nowFees = await putFees({ ...current, calloutFee: '119.80', reason: 'Callout up now' });
    expect([nowFees.status, nowFees.body.message, nowFees.body.code]).toEqual([
      409,
      scheduledLaterMessage('fees', '1 Apr 2032 (Perth)'),
      'scheduled_change_later',
    ]);
    expect(nowFees.body.message).toContain('A new fee schedule is scheduled for 1 Apr 2032 (Perth).');
    expect(await counts()).toEqual(before);
    expect((await quote({ serviceType: 'emergency-callout', tyreSize: null, quantity: 1 })).total).toBe(
      current.calloutFee,
    );
    const cancelFees = await app.request(
      'DELETE',
      `/api/dashboard/prices/changes/${(aprilFees.body as unknown as { id: string }).id}`,
      { reason: 'Redo' },
      admin(),
    );
    expect(cancelFees.status).toBe(204);
    const nowFeesAgain = await putFees({ ...current, calloutFee: '119.80', reason: 'Callout up now' });
    expect(nowFeesAgain.status).toBe(201);
    expect((await quote({ serviceType: 'emergency-callout', tyreSize: null, quantity: 1 })).total).toBe(
      '119.80',
    );
  });
});
