/**
 * Bad input is 4xx, never 500: malformed JSON, wrong types, huge strings, NUL bytes (Postgres refuses them in text),
 * impossible dates, unknown slots, undecodable URLs, on every public and staff route.
 */
import { bookingBody, businessDays, startTestBooking, type BookingUnderTest } from './harness';

jest.setTimeout(60_000);

let app: BookingUnderTest;
const nextDay = businessDays('2031-10-06');

beforeAll(async () => {
  app = await startTestBooking('booking-robust');
});
afterAll(async () => {
  await app?.stop();
});

async function raw(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const res = await fetch(app.url + path, {
    method,
    headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body,
  });
  const text = await res.text();
  let json: { message?: string } | undefined;
  try {
    json = JSON.parse(text) as { message?: string };
  } catch {
    json = undefined;
  }
  return { status: res.status, message: json?.message, text };
}

const is4xx = (status: number) => status >= 400 && status < 500;

describe('bad JSON bodies', () => {
  it.each([
    ['truncated', '{"job":'],
    ['not JSON', 'hello'],
    ['a string', '"booking"'],
    ['null', 'null'],
    ['a number', '42'],
    ['an array', '[]'],
    ['an array of bookings', '[{"job":{}}]'],
    ['nested wrong types', '{"job":"x","vehicle":7,"customer":[]}'],
  ])('POST /api/bookings with %s: 400', async (_label, body) => {
    for (const path of ['/api/bookings', '/api/bookings/quote', '/api/pricing/quote']) {
      const res = await raw('POST', path, body);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
    }
  });

  it('a body over the JSON limit is 413', async () => {
    const res = await raw('POST', '/api/bookings', JSON.stringify({ notes: 'x'.repeat(200_000) }));
    expect(res.status).toBe(413);
  });

  it('a body of another content type is read as empty: 400 with the first spec message', async () => {
    const res = await raw('POST', '/api/bookings', 'job=1', { 'Content-Type': 'text/plain' });
    expect({ status: res.status, message: res.message }).toEqual({
      status: 400,
      message: 'Please select a date',
    });
  });
});

describe('wrong types and extreme values in a booking', () => {
  const date = nextDay();
  const cases: [string, object, string | RegExp][] = [
    [
      'scheduledDate 2031-02-30',
      { job: { scheduledDate: '2031-02-30' } },
      'Invalid date or time slot selected',
    ],
    [
      'scheduledDate 2031-02-29 (not a leap year)',
      { job: { scheduledDate: '2031-02-29' } },
      'Invalid date or time slot selected',
    ],
    ['scheduledDate as a number', { job: { scheduledDate: 20310106 } }, 'Invalid date or time slot selected'],
    [
      'scheduledDate as an object',
      { job: { scheduledDate: { y: 2031 } } },
      'Invalid date or time slot selected',
    ],
    [
      'scheduledDate hour 25',
      { job: { scheduledDate: `${date}T25:00:00Z` } },
      'Invalid date or time slot selected',
    ],
    [
      'scheduledDate year 99999',
      { job: { scheduledDate: '99999-01-01' } },
      'Invalid date or time slot selected',
    ],
    ['timeSlot as a number', { job: { timeSlot: 8 } }, 'Invalid time slot'],
    ['timeSlot lower case', { job: { timeSlot: '8-10 am' } }, 'Invalid time slot'],
    ['timeSlot missing', { job: { timeSlot: undefined } }, 'Please select a time slot'],
    ['serviceType missing', { job: { serviceType: undefined } }, 'Please select a service'],
    ['serviceType as an array', { job: { serviceType: ['new-tyres'] } }, 'Please select a service'],
    ['quantity 0', { job: { tyreQuantity: 0 } }, 'Quantity must be between 1 and 4'],
    ['quantity 2.5', { job: { tyreQuantity: 2.5 } }, 'Quantity must be between 1 and 4'],
    ['quantity "lots"', { job: { tyreQuantity: 'lots' } }, 'Quantity must be between 1 and 4'],
    ['year as text', { vehicle: { year: 'old' } }, /vehicle year/i],
    ['year 1e300', { vehicle: { year: 1e300 } }, /vehicle year/i],
    ['year next year + 1', { vehicle: { year: 3000 } }, /Vehicle year must be between 1900 and \d{4}/],
    ['postcode 5 digits', { job: { postcode: '62100' } }, 'Please enter a valid postcode'],
    ['postcode as a number', { job: { postcode: 6210 } }, 'Please enter a valid postcode'],
    ['phone of letters', { customer: { phone: 'call me maybe please' } }, 'Valid phone number required'],
    ['email as an object', { customer: { email: { a: 1 } } }, 'Valid email required'],
    ['name of 10k characters', { customer: { name: 'x'.repeat(10_000) } }, /name/i],
    ['address of 10k characters', { job: { address: 'x'.repeat(10_000) } }, /address/i],
    ['registration of 10k characters', { vehicle: { registration: 'x'.repeat(10_000) } }, /registration/i],
    ['notes of 10k characters', { job: { notes: 'x'.repeat(10_000) } }, /notes/i],
    ['tyreSize as a number', { job: { tyreSize: 205 } }, /tyre size/i],
    ['paymentMethod card', { job: { paymentMethod: 'card' } }, /payment method/i],
  ];
  it.each(cases)('%s: 400 with a message', async (_label, over, message) => {
    const body = bookingBody(date, '8-10 AM', over);
    const res = await app.request('POST', '/api/bookings', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
  });

  it('NUL bytes in any text field are refused (400), not passed to Postgres', async () => {
    const overs = [
      { customer: { name: 'Jane\u0000' } },
      { customer: { email: 'jane\u0000@example.com' } },
      { vehicle: { make: 'Toy\u0000ota' } },
      { vehicle: { model: 'Corolla\u0000' } },
      { vehicle: { registration: 'AB\u0000C' } },
      { job: { address: '12 Smith\u0000 St' } },
      { job: { suburb: 'Manda\u0000rah' } },
      { job: { notes: 'gate\u0000' } },
      { job: { tyreBrand: 'Mich\u0000elin' } },
    ];
    for (const over of overs) {
      const res = await app.request('POST', '/api/bookings', bookingBody(nextDay(), '8-10 AM', over));
      expect({ over, status: res.status }).toEqual({ over, status: 400 });
    }
    const quote = await app.request('POST', '/api/pricing/quote', {
      serviceType: 'new-tyres',
      tyreSize: '205/55R16',
      tyreBrand: 'Mich\u0000elin',
    });
    expect(quote.status).toBe(400);
  });

  it('staff form: a blank colour and a non-string colour are 400', async () => {
    const staff = app.identity('admin');
    for (const color of ['', 42, null]) {
      const res = await app.request(
        'POST',
        '/api/bookings',
        bookingBody(nextDay(), '8-10 AM', { vehicle: { color } }),
        staff,
      );
      expect({ color, status: res.status }).toEqual({ color, status: 400 });
    }
  });
});

describe('URLs and queries', () => {
  it.each([
    ['GET', '/api/time-slots?date=2031-02-30'],
    ['GET', '/api/time-slots?date=2031-2-3'],
    ['GET', '/api/time-slots?date[]=2031-10-06&date[]=x'],
    ['GET', `/api/time-slots?date=${'9'.repeat(5000)}`],
    ['GET', '/api/time-slots/2031-02-30'],
    ['GET', '/api/time-slots/%E0%A4%A'],
    ['GET', '/api/time-slots/availability?date=%00'],
    ['GET', '/api/tyre-pricing/%E0%A4%A'],
    ['GET', '/api/booking-token/%E0%A4%A'],
    ['GET', `/api/booking-token/${'a'.repeat(5000)}`],
    ['GET', '/api/suburbs/%E0%A4%A'],
    ['GET', `/api/suburbs/mobile-tyres-${'x'.repeat(5000)}`],
    ['GET', '/api/suburbs/mobile-tyres-%00'],
    ['POST', '/api/bookings/%E0%A4%A/photos'],
  ])('%s path #%#: 4xx', async (method, path) => {
    const res = await raw(method, path);
    expect({ path, status: res.status, ok: is4xx(res.status) }).toMatchObject({ path, ok: true });
  });

  it.each([
    '/api/suburbs/search?q=%00',
    `/api/suburbs/search?q=${'x'.repeat(5000)}`,
    '/api/suburbs/search?q[]=a',
    '/api/addresses/suggestions?q=%00%00%00',
    `/api/addresses/suggestions?q=${'12 Smith St '.repeat(500)}`,
    '/api/addresses/suggestions?q[a]=b',
    '/api/tyre-pricing/205%2F55R16?brand=%00',
    '/api/tyre-pricing/205%2F55R16?brand[]=x',
  ])('GET query #%#: not a 500', async (path) => {
    expect((await raw('GET', path)).status).toBeLessThan(500);
  });

  it('admin slot routes: undecodable or unknown dates and slots are 400', async () => {
    const admin = app.identity('admin');
    for (const path of [
      '/api/dashboard/timeslots/%E0%A4%A/8-10%20AM/block',
      '/api/dashboard/timeslots/2031-10-06/%E0%A4%A/block',
      '/api/dashboard/timeslots/2031-02-30/8-10%20AM/block',
      '/api/dashboard/timeslots/2031-10-06/8-10%20AM%00/block',
    ]) {
      const res = await raw('PATCH', path, JSON.stringify({ reason: 'x' }), admin);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
    }
    for (const reason of [42, null, ['a'], 'x'.repeat(1000), 'Training\u0000']) {
      const res = await raw(
        'PATCH',
        `/api/dashboard/timeslots/${nextDay()}/8-10%20AM/block`,
        JSON.stringify({ reason }),
        admin,
      );
      expect({ reason: String(reason).slice(0, 20), status: res.status }).toEqual({
        reason: String(reason).slice(0, 20),
        status: 400,
      });
    }
    expect((await raw('GET', '/api/dashboard/timeslots?date=2031-02-30', undefined, admin)).status).toBe(400);
    expect((await raw('GET', '/api/dashboard/jobs/%E0%A4%A/photos/x', undefined, admin)).status).toBe(400);
  });

  it('internal reservation calls: bad bodies are 400, unknown jobs 404', async () => {
    const staff = app.identity('admin');
    const job = '00000000-0000-4000-8000-000000000000';
    for (const body of [
      '{',
      '[]',
      '{"scheduledDate":"2031-02-30","timeSlot":"8-10 AM"}',
      '{"scheduledDate":7}',
    ]) {
      const res = await raw('PUT', `/internal/reservations/${job}`, body, staff);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await raw('PUT', '/internal/reservations/%E0%A4%A', '{}', staff)).status).toBeLessThan(500);
  });
});
