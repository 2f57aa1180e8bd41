import {
  bookingDateSchema,
  maxVehicleYear,
  postcodeSchema,
  registrationSchema,
  toBookingDate,
  vehicleYearInRange,
  vehicleYearProblem,
} from './fields';
import { BOOKING_MESSAGES, vehicleYearMessage } from './messages';
import {
  PAYMENT_METHOD_LABELS,
  prepaidAllowed,
  SERVICE_LABELS,
  SERVICE_OPTIONS,
  SERVICE_TYPES,
  serviceLabel,
} from './services';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? undefined : r.error?.issues[0]?.message;

describe('booking dates', () => {
  it('reads YYYY-MM-DD and zoned date-times as the Perth date', () => {
    expect(toBookingDate('2030-06-03')).toBe('2030-06-03');
    expect(toBookingDate('2030-06-02T16:00:00.000Z')).toBe('2030-06-03');
    expect(toBookingDate('2030-06-03T08:00:00')).toBe('2030-06-03');
  });
  it.each(['', '2030-6-3', '2030-02-30', '03/06/2030', 'tomorrow', '1999-12-31', '3000-01-01', 42, null])(
    'refuses %j',
    (v) => expect(toBookingDate(v)).toBeUndefined(),
  );
  it('missing is "select a date", unreadable is "invalid"', () => {
    expect(firstMessage(bookingDateSchema.safeParse(''))).toBe(BOOKING_MESSAGES.selectDate);
    expect(firstMessage(bookingDateSchema.safeParse('soon'))).toBe(BOOKING_MESSAGES.invalidDateOrSlot);
  });
});

describe('postcode: four digits, as the service requires', () => {
  it.each(['6210', ' 6000 '])('accepts %j', (v) => expect(postcodeSchema.safeParse(v).success).toBe(true));
  it.each(['621', 'WA62', '62100', '6 21', ''])('refuses %j', (v) =>
    expect(firstMessage(postcodeSchema.safeParse(v))).toBe('Please enter a valid postcode'),
  );
});

describe('vehicle year', () => {
  // 31 Dec 2030 16:30 UTC is already 2031 in Perth: next year is 2032.
  const newYearInPerth = new Date('2030-12-31T16:30:00Z');
  it('runs from 1900 to next year on the Perth calendar', () => {
    expect(maxVehicleYear(newYearInPerth)).toBe(2032);
    expect(vehicleYearProblem(2032, newYearInPerth)).toBeUndefined();
    expect(vehicleYearProblem(1900, newYearInPerth)).toBeUndefined();
    expect(vehicleYearProblem(2033, newYearInPerth)).toBe('Vehicle year must be between 1900 and 2032');
    expect(vehicleYearProblem(1899, newYearInPerth)).toBe(vehicleYearMessage(2032));
  });
  it("a form's year field: text or number, one message", () => {
    const year = vehicleYearInRange(2027);
    expect(year.parse('2018')).toBe(2018);
    expect(year.parse(2027)).toBe(2027);
    for (const bad of ['2028', '1899', '18', 'abcd', '', 2018.5])
      expect(firstMessage(year.safeParse(bad))).toBe('Vehicle year must be between 1900 and 2027');
  });
});

describe('registration', () => {
  it('drops spaces and upper-cases', () => expect(registrationSchema.parse('1abc 234')).toBe('1ABC234'));
  it('is required', () =>
    expect(firstMessage(registrationSchema.safeParse('  '))).toBe('Registration is required'));
});

describe('services and their labels (spec sections 2 and 3)', () => {
  it('four services, battery service named as on the landing page', () => {
    expect(SERVICE_TYPES).toEqual(['new-tyres', 'puncture-repair', 'battery-service', 'emergency-callout']);
    expect(SERVICE_LABELS['battery-service']).toBe('Mobile Battery Service');
    expect(serviceLabel('new-tyres')).toBe('New Tyres');
    expect(serviceLabel('wheel-alignment')).toBe('wheel alignment');
    expect(SERVICE_OPTIONS[1]).toEqual({ id: 'puncture-repair', label: 'Puncture Repair' });
  });
  it('payment method labels', () =>
    expect(PAYMENT_METHOD_LABELS).toEqual({ onsite: 'Cash on Delivery', prepaid: 'Prepaid Online' }));
  it('prepaid is not offered for battery service or a callback quote', () => {
    expect(prepaidAllowed('new-tyres', false)).toBe(true);
    expect(prepaidAllowed('new-tyres', true)).toBe(false);
    expect(prepaidAllowed('battery-service', false)).toBe(false);
  });
});
