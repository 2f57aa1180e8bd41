/** The booking and quote request bodies (moved from services/booking/src/domain/requests.test.ts). */
import { customerBookingSchema, priceQuoteSchema, staffBookingSchema } from './requests';

const valid = () => ({
  customer: { name: 'Jane Citizen', email: 'jane@example.com', phone: '0412 345 678' },
  vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, registration: '1abc 234' },
  job: {
    serviceType: 'new-tyres',
    scheduledDate: '2030-06-04',
    timeSlot: '8-10 AM',
    address: '12 Smith St',
    suburb: 'Mandurah',
    postcode: '6210',
    tyreSize: '205/55R16',
    tyreQuantity: 2,
    notes: '',
    paymentMethod: 'onsite',
    customerValue: '1.00',
    status: 'new',
  },
});

type Body = ReturnType<typeof valid>;
function firstMessage(schema: typeof customerBookingSchema, mutate: (b: Body) => void) {
  const body = valid();
  mutate(body);
  const result = schema.safeParse(body);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe('customer booking form (spec section 5 messages)', () => {
  it('accepts a complete booking, upper-cases the registration and ignores client prices', () => {
    const parsed = customerBookingSchema.parse(valid());
    expect(parsed.vehicle.registration).toBe('1ABC234');
    expect(parsed.job).not.toHaveProperty('customerValue');
    expect(parsed.job.notes).toBeNull();
    expect(parsed.job.tyreSize).toBe('205/55R16');
  });

  it.each<[string, (b: Body) => void, string]>([
    ['missing date', (b) => delete (b.job as Partial<Body['job']>).scheduledDate, 'Please select a date'],
    ['malformed date', (b) => (b.job.scheduledDate = '04/06/2030'), 'Invalid date or time slot selected'],
    ['missing slot', (b) => delete (b.job as Partial<Body['job']>).timeSlot, 'Please select a time slot'],
    ['unknown slot', (b) => (b.job.timeSlot = '4-6 PM'), 'Invalid time slot'],
    ['missing service', (b) => delete (b.job as Partial<Body['job']>).serviceType, 'Please select a service'],
    ['unknown service', (b) => (b.job.serviceType = 'wheel-alignment'), 'Please select a service'],
    ['quantity 0', (b) => (b.job.tyreQuantity = 0), 'Quantity must be between 1 and 4'],
    ['quantity 5', (b) => (b.job.tyreQuantity = 5), 'Quantity must be between 1 and 4'],
    ['quantity 2.5', (b) => (b.job.tyreQuantity = 2.5), 'Quantity must be between 1 and 4'],
    [
      'quantity of letters',
      (b) => ((b.job as Record<string, unknown>).tyreQuantity = 'two'),
      'Quantity must be between 1 and 4',
    ],
    [
      'tyre size not text',
      (b) => ((b.job as Record<string, unknown>).tyreSize = 205),
      'Please enter the tyre size as width/profile R rim, e.g. 205/55R16',
    ],
    ['blank address', (b) => (b.job.address = '  '), 'Please enter your address'],
    ['blank suburb', (b) => (b.job.suburb = ''), 'Suburb is required'],
    ['short postcode', (b) => (b.job.postcode = '621'), 'Please enter a valid postcode'],
    ['letters in postcode', (b) => (b.job.postcode = 'WA62'), 'Please enter a valid postcode'],
    ['missing make', (b) => (b.vehicle.make = ''), 'Vehicle make is required'],
    ['missing model', (b) => (b.vehicle.model = ''), 'Vehicle model is required'],
    ['missing registration', (b) => (b.vehicle.registration = ' '), 'Registration is required'],
    ['missing name', (b) => (b.customer.name = ''), 'Name is required'],
    ['short phone', (b) => (b.customer.phone = '041234567'), 'Valid phone number required'],
    ['bad email', (b) => (b.customer.email = 'jane@'), 'Valid email required'],
  ])('%s -> "%s"', (_label, mutate, message) => {
    expect(firstMessage(customerBookingSchema, mutate)).toBe(message);
  });

  it('reports problems in the dialog order (date first)', () => {
    const result = customerBookingSchema.safeParse({});
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'Please select a date',
      'Please select a time slot',
      'Please select a service',
      'Please enter your address',
      'Suburb is required',
      'Please enter a valid postcode',
      'Vehicle make is required',
      'Vehicle model is required',
      'Please enter the vehicle year',
      'Registration is required',
      'Name is required',
      'Valid phone number required',
      'Valid email required',
    ]);
  });

  it('accepts the year as a string and the staff form date-time', () => {
    const body = valid() as unknown as { vehicle: { year: unknown }; job: { scheduledDate: string } };
    body.vehicle.year = '2015';
    body.job.scheduledDate = '2030-06-04T08:00:00+08:00';
    const parsed = customerBookingSchema.parse(body);
    expect(parsed.vehicle.year).toBe(2015);
    expect(parsed.job.scheduledDate).toBe('2030-06-04');
  });

  it('an unrecognisable tyre size becomes unknown (a callback), not an error', () => {
    expect(
      customerBookingSchema.parse({ ...valid(), job: { ...valid().job, tyreSize: 'big ones' } }).job.tyreSize,
    ).toBeNull();
  });
});

describe('staff booking form', () => {
  it.each<[string, (b: Body) => void, string]>([
    ['one-letter name', (b) => (b.customer.name = 'J'), 'Customer name is required'],
    ['bad email', (b) => (b.customer.email = 'nope'), 'Valid email address required'],
    ['short address', (b) => (b.job.address = '1 A'), 'Full address is required'],
    ['one-letter suburb', (b) => (b.job.suburb = 'M'), 'Suburb is required'],
    ['missing colour', () => undefined, 'Vehicle color is required'],
    [
      'no payment method',
      (b) => delete (b.job as Partial<Body['job']> & { paymentMethod?: string }).paymentMethod,
      'Please select a payment method',
    ],
  ])('%s -> "%s"', (label, mutate, message) => {
    const withColour = (b: Body) => {
      if (label !== 'missing colour') (b.vehicle as Body['vehicle'] & { color?: string }).color = 'Silver';
      mutate(b);
    };
    expect(firstMessage(staffBookingSchema as unknown as typeof customerBookingSchema, withColour)).toBe(
      message,
    );
  });
});

describe('price quote', () => {
  it('price quote: quantity defaults to 1, prepaid from the flag or the payment method', () => {
    expect(priceQuoteSchema.parse({ serviceType: 'new-tyres', tyreSize: '205/55/16' })).toEqual({
      serviceType: 'new-tyres',
      tyreSize: '205/55R16',
      quantity: 1,
      tyreBrand: null,
      prepaid: false,
    });
    expect(
      priceQuoteSchema.parse({ serviceType: 'puncture-repair', paymentMethod: 'prepaid', tyreQuantity: '3' }),
    ).toMatchObject({
      quantity: 3,
      prepaid: true,
    });
    expect(
      priceQuoteSchema.safeParse({ serviceType: 'new-tyres', quantity: 9 }).error?.issues[0]?.message,
    ).toBe('Quantity must be between 1 and 4');
  });
});
