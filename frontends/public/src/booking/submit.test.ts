import { ApiError } from '@tyres/platform/api';
import type { PriceQuote, QuoteInput, TimeSlotState } from './api';
import { defaultValues, type BookingValues } from './schema';
import { bookingPayload, submitBooking, type SubmitCalls } from './submit';
import { bookingConfirmation, prepaidQuote } from '../testing/fixtures';

// Monday 23 November 2026, 9:30 am in Perth: the 8-10 AM slot of today has started.
const NOW = new Date('2026-11-23T09:30:00+08:00');

const FREE: TimeSlotState[] = [
  { slot: '8-10 AM', isAvailable: false, blockedReason: 'Time has passed' },
  { slot: '10-12 AM', isAvailable: true, blockedReason: null },
  { slot: '12-2 PM', isAvailable: true, blockedReason: null },
  { slot: '2-4 PM', isAvailable: true, blockedReason: null },
];

function values(overrides: Partial<BookingValues> = {}): BookingValues {
  return {
    ...defaultValues(),
    date: '2026-11-24',
    timeSlot: '12-2 PM',
    serviceType: 'new-tyres',
    tyreWidth: '205',
    tyreProfile: '55',
    tyreRim: '16',
    quantity: 2,
    address: ' 12 Smith Street ',
    suburb: 'Rockingham',
    postcode: '6168',
    vehicleMake: 'Toyota',
    vehicleModel: 'Corolla',
    vehicleYear: '2018',
    registration: '1abc234',
    customerName: 'Jane Citizen',
    customerPhone: '0412 345 678',
    customerEmail: 'jane@example.com',
    paymentMethod: 'onsite',
    notes: '',
    ...overrides,
  };
}

const price = (total: string, callbackRequired = false): PriceQuote => ({
  items: [],
  subtotal: total,
  discount: '0.00',
  gst: '0.00',
  total,
  callbackRequired,
});

const photo = new File(['x'], 'tyre.jpg', { type: 'image/jpeg' });

/** Stand-in calls: prepaid prices 30 less; each call is logged in order. */
function calls(overrides: Partial<SubmitCalls> = {}) {
  const log: string[] = [];
  const api: SubmitCalls = {
    recheckTimeSlots: jest.fn(async (date: string) => {
      log.push(`recheck ${date}`);
      return FREE;
    }),
    quoteFor: jest.fn(async (input: QuoteInput) => {
      log.push(`price ${input.prepaid ? 'prepaid' : 'onsite'}`);
      return price(input.prepaid ? '457.80' : '487.80');
    }),
    createQuote: jest.fn(async () => {
      log.push('quote');
      return prepaidQuote({ jobId: 'j1' });
    }),
    createBooking: jest.fn(async () => {
      log.push('book');
      return bookingConfirmation({ jobId: 'j2', jobNumber: 'JOB-0002' });
    }),
    uploadPhotos: jest.fn(async (jobId: string) => {
      log.push(`photos ${jobId}`);
      return {};
    }),
    keyFor: jest.fn(() => 'idem-1'),
    ...overrides,
  };
  return { api, log };
}

describe('submitBooking: onsite', () => {
  test('re-check, price, create, then the photos; the booking carries the on-site price', async () => {
    const { api, log } = calls();
    const result = await submitBooking({ values: values(), photos: [photo], now: NOW }, api);
    expect(log).toEqual(['recheck 2026-11-24', 'price onsite', 'book', 'photos j2']);
    expect(result).toEqual({
      kind: 'booked',
      outcome: {
        kind: 'onsite',
        jobNumber: 'JOB-0002',
        values: values(),
        total: '487.80',
        photosFailed: false,
      },
    });
    expect(api.createBooking).toHaveBeenCalledWith(
      {
        customer: { name: 'Jane Citizen', email: 'jane@example.com', phone: '0412 345 678' },
        vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, registration: '1ABC234' },
        job: {
          serviceType: 'new-tyres',
          scheduledDate: '2026-11-24',
          timeSlot: '12-2 PM',
          address: '12 Smith Street',
          suburb: 'Rockingham',
          postcode: '6168',
          tyreSize: '205/55R16',
          tyreQuantity: 2,
          notes: null,
          paymentMethod: 'onsite',
        },
      },
      'idem-1',
    );
  });

  test('no photos: nothing is uploaded', async () => {
    const { api, log } = calls();
    await submitBooking({ values: values(), photos: [], now: NOW }, api);
    expect(log).not.toContain('photos j2');
  });

  test('a callback quote books on site without a price (prepaid is not offered)', async () => {
    const { api, log } = calls({
      quoteFor: jest.fn(async (input: QuoteInput) => {
        log.push(`price ${input.prepaid ? 'prepaid' : 'onsite'}`);
        return price('0.00', true);
      }),
    });
    const result = await submitBooking(
      { values: values({ paymentMethod: 'prepaid' }), photos: [], now: NOW },
      api,
    );
    expect(log).toEqual(['recheck 2026-11-24', 'price prepaid', 'price onsite', 'book']);
    expect(result).toMatchObject({ kind: 'booked', outcome: { kind: 'onsite', total: null } });
    const payload = (api.createBooking as jest.Mock).mock.calls[0][0] as { job: Record<string, unknown> };
    expect(payload.job.paymentMethod).toBe('onsite');
    expect(payload.job).not.toHaveProperty('customerValue');
  });

  test('battery service and puncture repair carry no tyres', () => {
    const payload = bookingPayload(values({ serviceType: 'battery-service', quantity: 3 }), null, 'onsite');
    expect(payload.job).toMatchObject({ tyreSize: null });
    expect(payload.job).not.toHaveProperty('tyreQuantity');
  });
});

describe('submitBooking: prepaid', () => {
  test('hold the slot with a quote, upload the photos, then offer the payment', async () => {
    const { api, log } = calls();
    const result = await submitBooking(
      { values: values({ paymentMethod: 'prepaid', notes: ' gate code 12 ' }), photos: [photo], now: NOW },
      api,
    );
    expect(log).toEqual(['recheck 2026-11-24', 'price prepaid', 'quote', 'photos j1']);
    expect(api.createBooking).not.toHaveBeenCalled();
    const payload = (api.createQuote as jest.Mock).mock.calls[0][0] as { job: Record<string, unknown> };
    expect(payload.job).toMatchObject({ paymentMethod: 'prepaid', notes: 'gate code 12' });
    expect(payload.job).not.toHaveProperty('customerValue');
    expect(result).toMatchObject({
      kind: 'booked',
      outcome: {
        kind: 'prepaid',
        bookingToken: 'tok-1',
        amount: '457.80',
        currency: 'AUD',
        photosFailed: false,
      },
    });
  });
});

describe('submitBooking: photo upload failure', () => {
  test.each(['onsite', 'prepaid'] as const)(
    '%s: the booking stands and the confirmation says so',
    async (method) => {
      const { api } = calls({ uploadPhotos: jest.fn(() => Promise.reject(new ApiError(500, 'Error', ''))) });
      const result = await submitBooking(
        { values: values({ paymentMethod: method }), photos: [photo], now: NOW },
        api,
      );
      expect(result).toMatchObject({ kind: 'booked', outcome: { kind: method, photosFailed: true } });
    },
  );
});

describe('submitBooking: the slot', () => {
  test.each(['onsite', 'prepaid'] as const)('%s: a 409 says "Time Slot Unavailable"', async (method) => {
    const conflict = () => Promise.reject(new ApiError(409, 'Conflict', '{"message":"Slot taken"}'));
    const { api } = calls({ createQuote: jest.fn(conflict), createBooking: jest.fn(conflict) });
    const result = await submitBooking(
      { values: values({ paymentMethod: method }), photos: [photo], now: NOW },
      api,
    );
    expect(result).toEqual({
      kind: 'slot-unavailable',
      message: {
        title: 'Time Slot Unavailable',
        description: 'This time slot was just booked by someone else. Please select a different time slot.',
      },
    });
    expect(api.uploadPhotos).not.toHaveBeenCalled();
  });

  test('a slot taken while filling in is caught by the re-check, before any booking call', async () => {
    const { api } = calls({
      recheckTimeSlots: jest.fn(async () => FREE.map((s) => ({ ...s, isAvailable: s.slot !== '12-2 PM' }))),
    });
    const result = await submitBooking({ values: values(), photos: [], now: NOW }, api);
    expect(result).toEqual({
      kind: 'slot-unavailable',
      message: {
        title: 'Time Slot Unavailable',
        description: 'This time slot is no longer available. Please select a different time slot.',
      },
    });
    expect(api.quoteFor).not.toHaveBeenCalled();
    expect(api.createBooking).not.toHaveBeenCalled();
  });

  test('a slot of today whose start has passed (Perth time) is gone without asking the server', async () => {
    const { api } = calls();
    const result = await submitBooking(
      { values: values({ date: '2026-11-23', timeSlot: '8-10 AM' }), photos: [], now: NOW },
      api,
    );
    expect(result.kind).toBe('slot-unavailable');
    expect(api.recheckTimeSlots).not.toHaveBeenCalled();
  });

  test('a re-check that fails goes ahead (the server checks again)', async () => {
    const { api } = calls({
      recheckTimeSlots: jest.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    });
    const result = await submitBooking({ values: values(), photos: [], now: NOW }, api);
    expect(result.kind).toBe('booked');
  });

  test.each<[string, Partial<BookingValues>, string]>([
    ['no date', { date: '' }, 'Please select both a date and time slot'],
    ['no slot', { timeSlot: '' }, 'Please select both a date and time slot'],
    ['a date before today (Perth)', { date: '2026-11-22' }, 'Invalid date or time slot selected'],
    ['a date that does not exist', { date: '2026-02-30' }, 'Invalid date or time slot selected'],
    ['an unknown slot', { timeSlot: '4-6 PM' }, 'Invalid date or time slot selected'],
  ])('%s: "%s", nothing is called', async (_label, overrides, title) => {
    const { api, log } = calls();
    await expect(submitBooking({ values: values(overrides), photos: [], now: NOW }, api)).resolves.toEqual({
      kind: 'invalid',
      message: { title },
    });
    expect(log).toEqual([]);
  });
});

describe('submitBooking: failures', () => {
  const tooMany = () =>
    Promise.reject(new ApiError(429, 'Too Many Requests', '{"message":"Too many requests"}'));

  test('prepaid, 429: "Booking Failed" with the server message', async () => {
    const { api } = calls({ createQuote: jest.fn(tooMany) });
    const result = await submitBooking(
      { values: values({ paymentMethod: 'prepaid' }), photos: [], now: NOW },
      api,
    );
    expect(result).toEqual({
      kind: 'failed',
      message: { title: 'Booking Failed', description: 'Too many requests' },
    });
  });

  test('onsite, 429: "Booking Error"', async () => {
    const { api } = calls({ createBooking: jest.fn(tooMany) });
    const result = await submitBooking({ values: values(), photos: [], now: NOW }, api);
    expect(result).toEqual({
      kind: 'failed',
      message: {
        title: 'Booking Error',
        description: 'There was an issue creating your booking. Please try again.',
      },
    });
  });

  test('prepaid, network error: "Booking Failed" with the default text', async () => {
    const { api } = calls({ createQuote: jest.fn(() => Promise.reject(new TypeError('Failed to fetch'))) });
    const result = await submitBooking(
      { values: values({ paymentMethod: 'prepaid' }), photos: [], now: NOW },
      api,
    );
    expect(result).toEqual({
      kind: 'failed',
      message: {
        title: 'Booking Failed',
        description: 'There was an error creating your booking. Please try again.',
      },
    });
  });

  test('onsite, network error: "Booking Error"', async () => {
    const { api } = calls({ createBooking: jest.fn(() => Promise.reject(new TypeError('Failed to fetch'))) });
    const result = await submitBooking({ values: values(), photos: [], now: NOW }, api);
    expect(result).toMatchObject({ kind: 'failed', message: { title: 'Booking Error' } });
  });

  test('the idempotency key is asked for the exact payload sent', async () => {
    const { api } = calls();
    await submitBooking({ values: values(), photos: [], now: NOW }, api);
    expect(api.keyFor).toHaveBeenCalledWith((api.createBooking as jest.Mock).mock.calls[0][0]);
  });
});
