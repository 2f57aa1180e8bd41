import { BOOKING_MESSAGES, customerBookingSchema, SERVICE_LABELS, SERVICE_TYPES } from '@tyres/kernel';
import { SERVICE_OPTIONS } from '../site/content';
import {
  bookingSchema,
  defaultValues,
  digitsOnly,
  MESSAGES,
  nextStep,
  prepaidAllowed,
  previousStep,
  STEP_FIELDS,
  stepPercent,
  tyreSizeOf,
  type BookingValues,
} from './schema';
import { bookingPayload } from './submit';

const schema = bookingSchema(2027);

function messagesFor(values: Partial<BookingValues>): Record<string, string> {
  const result = schema.safeParse({ ...defaultValues(), ...values });
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

describe('booking steps', () => {
  test('puncture repair and battery service skip the tyre step both ways', () => {
    expect(nextStep(2, 'puncture-repair')).toBe(4);
    expect(nextStep(2, 'battery-service')).toBe(4);
    expect(previousStep(4, 'puncture-repair')).toBe(2);
    expect(previousStep(4, 'battery-service')).toBe(2);
  });

  test('new tyres and emergency callouts go through the tyre step', () => {
    expect(nextStep(2, 'new-tyres')).toBe(3);
    expect(nextStep(2, 'emergency-callout')).toBe(3);
    expect(previousStep(4, 'new-tyres')).toBe(3);
    expect(nextStep(3, 'new-tyres')).toBe(4);
  });

  test('seven steps, shown with a percentage', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((s) => stepPercent(s as 1))).toEqual([14, 29, 43, 57, 71, 86, 100]);
    expect(nextStep(6, 'new-tyres')).toBe(7);
    expect(nextStep(7, 'new-tyres')).toBe(7);
    expect(previousStep(1, 'new-tyres')).toBe(1);
  });

  test('each step validates its own fields; photos have none', () => {
    expect(STEP_FIELDS[1]).toEqual(['date', 'timeSlot']);
    expect(STEP_FIELDS[2]).toEqual(['serviceType']);
    expect(STEP_FIELDS[5]).toEqual([]);
  });
});

describe('validation messages (spec section 5)', () => {
  test('an empty form reports every required field with the spec message', () => {
    expect(messagesFor({})).toEqual({
      date: MESSAGES.date,
      timeSlot: MESSAGES.timeSlot,
      serviceType: 'Please select a service',
      address: 'Please enter your address',
      suburb: 'Suburb is required',
      postcode: 'Please enter a valid postcode',
      vehicleMake: 'Vehicle make is required',
      vehicleModel: 'Vehicle model is required',
      vehicleYear: 'Vehicle year must be between 1900 and 2027',
      registration: 'Registration is required',
      customerName: 'Name is required',
      customerPhone: 'Valid phone number required',
      customerEmail: 'Valid email required',
    });
    expect(MESSAGES.date).toBe('Please select a date');
    expect(MESSAGES.timeSlot).toBe('Please select a time slot');
  });

  test('phone needs 10 characters, postcode 4 digits, the year 1900 to next year', () => {
    expect(messagesFor({ customerPhone: '041234567' }).customerPhone).toBe('Valid phone number required');
    expect(messagesFor({ customerPhone: '0412345678' }).customerPhone).toBeUndefined();
    expect(messagesFor({ postcode: '616' }).postcode).toBe('Please enter a valid postcode');
    expect(messagesFor({ postcode: '6168' }).postcode).toBeUndefined();
    expect(messagesFor({ vehicleYear: '1899' }).vehicleYear).toBe(
      'Vehicle year must be between 1900 and 2027',
    );
    expect(messagesFor({ vehicleYear: '2028' }).vehicleYear).toBe(
      'Vehicle year must be between 1900 and 2027',
    );
    expect(messagesFor({ vehicleYear: '2027' }).vehicleYear).toBeUndefined();
    expect(messagesFor({ customerEmail: 'sam@' }).customerEmail).toBe('Valid email required');
  });

  test('quantity is 1 to 4, default 1; payment defaults to prepaid', () => {
    expect(defaultValues().quantity).toBe(1);
    expect(defaultValues().paymentMethod).toBe('prepaid');
    expect(messagesFor({ quantity: 5 }).quantity).toBe('Quantity must be between 1 and 4');
    expect(messagesFor({ quantity: 0 }).quantity).toBe('Quantity must be between 1 and 4');
  });
});

describe('tyre size and payment rules', () => {
  test('digits only, width up to 3, profile and rim up to 2', () => {
    expect(digitsOnly('2a05x', 3)).toBe('205');
    expect(digitsOnly('5555', 2)).toBe('55');
    expect(digitsOnly('R16', 2)).toBe('16');
  });

  test('the size is known only when width, profile and rim are complete', () => {
    expect(tyreSizeOf({ tyreWidth: '205', tyreProfile: '55', tyreRim: '16' })).toBe('205/55R16');
    expect(tyreSizeOf({ tyreWidth: '205', tyreProfile: '55', tyreRim: '' })).toBeNull();
    expect(tyreSizeOf({ tyreWidth: '20', tyreProfile: '55', tyreRim: '16' })).toBeNull();
  });

  test('prepaid is not offered for battery service or callback quotes', () => {
    expect(prepaidAllowed('new-tyres', false)).toBe(true);
    expect(prepaidAllowed('battery-service', false)).toBe(false);
    expect(prepaidAllowed('new-tyres', true)).toBe(false);
  });
});

describe('the booking contract (@tyres/kernel): the dialog refuses what the booking service refuses', () => {
  const valid: Partial<BookingValues> = {
    date: '2030-06-04',
    timeSlot: '8-10 AM',
    serviceType: 'new-tyres',
    address: '12 Smith St',
    suburb: 'Mandurah',
    postcode: '6210',
    vehicleMake: 'Toyota',
    vehicleModel: 'Corolla',
    vehicleYear: '2018',
    registration: '1abc 234',
    customerName: 'Jane Citizen',
    customerPhone: '0412 345 678',
    customerEmail: 'jane@example.com',
  };
  const serverMessage = (values: Partial<BookingValues>) => {
    const v = { ...defaultValues(), ...valid, ...values };
    const result = customerBookingSchema.safeParse(
      bookingPayload(v, tyreSizeOf(v), v.paymentMethod === 'prepaid' ? 'prepaid' : 'onsite'),
    );
    return result.success ? undefined : result.error.issues[0]?.message;
  };

  test('a complete form passes both', () => {
    expect(messagesFor(valid)).toEqual({});
    expect(serverMessage({})).toBeUndefined();
  });

  test.each<[keyof BookingValues, string]>([
    ['customerPhone', '0412 345 67x'],
    ['customerPhone', '0'.repeat(31)],
    ['postcode', 'WA62'],
    ['registration', 'A'.repeat(21)],
    ['customerEmail', 'jane@'],
    ['notes', 'x'.repeat(2001)],
    ['address', 'x'.repeat(501)],
  ])('%s %j: the same message on both sides', (field, value) => {
    const dialog = messagesFor({ ...valid, [field]: value })[field];
    expect(dialog).toBeDefined();
    expect(dialog).toBe(serverMessage({ [field]: value }));
  });

  test('messages and service labels are the contract’s', () => {
    expect(MESSAGES.dateAndSlot).toBe(BOOKING_MESSAGES.selectDateAndSlot);
    expect(MESSAGES.slotTaken).toBe(BOOKING_MESSAGES.slotJustBooked);
    expect(SERVICE_OPTIONS.map((o) => o.label)).toEqual(SERVICE_TYPES.map((id) => SERVICE_LABELS[id]));
  });
});
