/**
 * Open payment holds per client (issue 14 item 5): with the gateway's x-client-address, POST /api/bookings/quote
 * refuses a client that already has MAX_OPEN_HOLDS_PER_CLIENT unpaid, unexpired holds (429 + Retry-After), also
 * when its quotes race; and the runtime's maintenance purges booking's inbox and Idempotency-Keys.
 */
import { randomUUID } from 'node:crypto';
import { PaymentSucceeded } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { bookingBody, businessDays, startTestBooking, type BookingUnderTest, type Http } from './harness';

jest.setTimeout(60_000);

let app: BookingUnderTest;
const nextDay = businessDays('2031-05-05');
const TOO_MANY =
  'You already have bookings waiting for payment. Please complete or wait for one to expire before starting another.';

beforeAll(async () => {
  // The default cap (3), as production runs it.
  app = await startTestBooking('booking-holds');
});
afterAll(async () => {
  await app?.stop();
});
afterEach(() => app.clock.reset());

let addressSeq = 0;
/** A client address of its own for each test (documentation range, RFC 5737). */
const newClient = () => `198.51.100.${++addressSeq}`;

function quote(
  client: string | undefined,
  headers: Record<string, string> = {},
  body?: object,
): Promise<Http> {
  return app.request(
    'POST',
    '/api/bookings/quote',
    body ?? bookingBody(nextDay(), '8-10 AM', { job: { paymentMethod: 'prepaid' } }),
    { ...(client ? { 'x-client-address': client } : {}), ...headers },
  );
}

async function holdsOf(client: string): Promise<number> {
  const { rows } = await app.pg.query(
    `SELECT count(*)::int AS n FROM booking.bookings WHERE client_address = $1 AND status = 'quoted'`,
    [client],
  );
  return rows[0].n;
}

describe('open payment holds per client', () => {
  it('the fourth open hold is refused with 429, Retry-After until the oldest runs out, and a friendly message', async () => {
    const client = newClient();
    for (let i = 0; i < 3; i++) expect((await quote(client)).status).toBe(201);
    const refused = await quote(client);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(TOO_MANY);
    const retryAfter = Number(refused.headers.get('retry-after'));
    // The oldest hold was made moments ago and runs 30 minutes.
    expect(retryAfter).toBeGreaterThan(29 * 60);
    expect(retryAfter).toBeLessThanOrEqual(30 * 60);
    expect(await holdsOf(client)).toBe(3);

    // Other clients, onsite bookings and calls without the header are not affected.
    expect((await quote(newClient())).status).toBe(201);
    expect((await quote(undefined)).status).toBe(201);
    const onsite = await app.request('POST', '/api/bookings', bookingBody(nextDay(), '10-12 AM'), {
      'x-client-address': client,
    });
    expect(onsite.status).toBe(201);
  });

  it('holds are counted only while they hold: an expired or a paid one frees a place', async () => {
    const client = newClient();
    const first = await quote(client);
    expect(first.status).toBe(201);
    app.clock.advance(10 * 60_000);
    for (let i = 0; i < 2; i++) expect((await quote(client)).status).toBe(201);
    expect((await quote(client)).status).toBe(429);

    // The first hold runs out 30 minutes after it was made: 20 minutes from the clock's "now".
    app.clock.advance(20 * 60_000 + 1_000);
    const afterExpiry = await quote(client);
    expect(afterExpiry.status).toBe(201);
    expect((await quote(client)).status).toBe(429);

    // Paying one of the open holds (billing's PaymentSucceeded) frees a place too.
    const paidQuote = afterExpiry.body as unknown as { quoteId: string; amount: string };
    await app.publish(PaymentSucceeded, {
      paymentId: randomUUID(),
      paymentIntentId: `pi_${randomUUID().replace(/-/g, '')}`,
      quoteId: paidQuote.quoteId,
      jobId: null,
      originalAmount: paidQuote.amount,
      surchargeAmount: '0.00',
      amount: paidQuote.amount,
      currency: 'AUD',
      mode: 'test',
      succeededAt: new Date().toISOString(),
    });
    await waitFor(
      async () =>
        (await app.pg.query(`SELECT status FROM booking.bookings WHERE id = $1`, [paidQuote.quoteId])).rows[0]
          ?.status === 'confirmed',
      { timeoutMs: 15_000, message: 'quote confirmed by the payment' },
    );
    expect((await quote(client)).status).toBe(201);
  });

  it('parallel quotes from one client at the edge of the cap: only one passes', async () => {
    const client = newClient();
    for (let i = 0; i < 2; i++) expect((await quote(client)).status).toBe(201);
    const results = await Promise.all(Array.from({ length: 6 }, () => quote(client)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 429, 429, 429, 429, 429]);
    expect(await holdsOf(client)).toBe(3);
  });

  it('a replayed Idempotency-Key is answered as before, whatever the cap', async () => {
    const client = newClient();
    const key = randomUUID();
    const body = bookingBody(nextDay(), '12-2 PM', { job: { paymentMethod: 'prepaid' } });
    const first = await quote(client, { 'Idempotency-Key': key }, body);
    expect(first.status).toBe(201);
    for (let i = 0; i < 2; i++) expect((await quote(client)).status).toBe(201);
    const again = await quote(client, { 'Idempotency-Key': key }, body);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.bookingToken).toBe(first.body.bookingToken);
    expect((await quote(client)).status).toBe(429);
  });

  it('staff signed in are not capped', async () => {
    const client = newClient();
    const staff = app.identity('admin');
    for (let i = 0; i < 4; i++) expect((await quote(client, staff)).status).toBe(201);
  });
});

describe("booking's table maintenance (service-kit, run by the runtime)", () => {
  it('purges inbox rows older than 30 days and Idempotency-Keys older than a day', async () => {
    const [oldEvent, newEvent] = [randomUUID(), randomUUID()];
    await app.pg.query(
      `INSERT INTO booking.inbox_events (event_id, handler, handled_at)
       VALUES ($1, 'test.old', now() - interval '31 days'), ($2, 'test.new', now())`,
      [oldEvent, newEvent],
    );
    await app.pg.query(
      `INSERT INTO booking.idempotency_keys (scope, key, request_hash, status_code, response, created_at)
       VALUES ('test', $1, 'x', 201, '{}'::jsonb, now() - interval '25 hours'),
              ('test', $2, 'x', 201, '{}'::jsonb, now())`,
      [`old-${oldEvent}`, `new-${newEvent}`],
    );
    const purged = await app.service.runtime.maintenance.runOnce();
    expect(purged.inboxRows).toBeGreaterThanOrEqual(1);
    expect(purged.idempotencyKeys).toBeGreaterThanOrEqual(1);
    const left = await app.pg.query(
      `SELECT (SELECT count(*)::int FROM booking.inbox_events WHERE event_id IN ($1, $2)) AS inbox,
              (SELECT count(*)::int FROM booking.idempotency_keys WHERE key IN ($3, $4)) AS keys`,
      [oldEvent, newEvent, `old-${oldEvent}`, `new-${newEvent}`],
    );
    expect(left.rows[0]).toEqual({ inbox: 1, keys: 1 });
  });
});
