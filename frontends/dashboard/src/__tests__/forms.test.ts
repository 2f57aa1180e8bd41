import '../testing/polyfills';
import {
  bookingDefaults,
  bookingRequest,
  staffBookingResolver,
  staffBookingSchema,
  tyreSizeOf,
} from '../forms/booking';
import { expenseSchema } from '../forms/expense';
import { purchaseInvoiceSchema } from '../forms/purchase-invoice';
import { rescheduleSchema } from '../forms/reschedule';
import { blockSlotSchema } from '../forms/block-slot';
import { newUserSchema } from '../forms/user';
import { expensePayload } from '../tabs/ExpensesTab';
import { addDaysToDate, perthToday } from '../lib/dates';
import { validStaffBooking } from '../testing/booking-fixtures';

const messages = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('staff booking form (spec section 5)', () => {
  test('an empty form reports every required field with the spec messages', () => {
    const m = messages(staffBookingSchema.safeParse(bookingDefaults()));
    expect(m).toMatchObject({
      scheduledDate: 'Please select a date',
      timeSlot: 'Please select a time slot',
      serviceType: 'Please select a service',
      customerName: 'Customer name is required',
      customerPhone: 'Valid phone number required',
      customerEmail: 'Valid email address required',
      vehicleMake: 'Vehicle make is required',
      vehicleModel: 'Vehicle model is required',
      vehicleColor: 'Vehicle color is required',
      registration: 'Registration is required',
      address: 'Full address is required',
      suburb: 'Suburb is required',
      postcode: 'Please enter a valid postcode',
    });
    expect(m.vehicleYear).toBeDefined();
    // Optional fields are not reported.
    expect(m).not.toHaveProperty('tyreBrand');
    expect(m).not.toHaveProperty('notes');
  });

  const valid = validStaffBooking();

  test('the vehicle-year limit is next year at the moment of checking (a tab left open over New Year)', async () => {
    const check = async (now: string) => {
      jest.useFakeTimers({ now: new Date(now), doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
      try {
        const values = { ...valid, scheduledDate: addDaysToDate(perthToday(), 3), vehicleYear: '2028' };
        const result = await staffBookingResolver(values, undefined, {
          fields: {},
          shouldUseNativeValidation: false,
        });
        return result.errors.vehicleYear?.message;
      } finally {
        jest.useRealTimers();
      }
    };
    expect(await check('2026-12-31T12:00:00+08:00')).toMatch(/2027/);
    expect(await check('2027-01-01T09:00:00+08:00')).toBeUndefined();
  });

  test('minimum lengths: name 2, phone 10, year 4, address 5, suburb 2, postcode 4; past dates refused', () => {
    const m = messages(
      staffBookingSchema.safeParse({
        ...valid,
        customerName: 'O',
        customerPhone: '041234567',
        vehicleYear: '219',
        address: '12 O',
        suburb: 'J',
        postcode: '602',
        scheduledDate: addDaysToDate(perthToday(), -1),
      }),
    );
    expect(m).toMatchObject({
      customerName: 'Customer name is required',
      customerPhone: 'Valid phone number required',
      address: 'Full address is required',
      suburb: 'Suburb is required',
      postcode: 'Please enter a valid postcode',
      scheduledDate: 'Past dates are not allowed',
    });
    expect(m.vehicleYear).toBeDefined();
  });

  test('quantity is 1-4 (default 4)', () => {
    expect(bookingDefaults().tyreQuantity).toBe(4);
    expect(messages(staffBookingSchema.safeParse({ ...valid, tyreQuantity: 5 })).tyreQuantity).toBe(
      'Quantity must be between 1 and 4',
    );
    expect(staffBookingSchema.safeParse({ ...valid, tyreQuantity: 1 }).success).toBe(true);
  });

  test('the request: date-time from date and slot start, size only when all three parts are given, rego upper case', () => {
    const body = bookingRequest(staffBookingSchema.parse(valid));
    expect(body).toEqual({
      customer: { name: 'Olivia Smith', email: 'olivia@example.com', phone: '0412 345 678' },
      vehicle: { make: 'Toyota', model: 'Hilux', year: 2019, color: 'White', registration: '1ABC234' },
      job: {
        serviceType: 'new-tyres',
        scheduledDate: `${valid.scheduledDate}T10:00:00+08:00`,
        timeSlot: '10-12 AM',
        address: '12 Ocean Reef Road',
        suburb: 'Joondalup',
        postcode: '6027',
        tyreSize: '205/55R16',
        tyreQuantity: 4,
        paymentMethod: 'onsite',
      },
    });
    expect(tyreSizeOf({ tyreWidth: '205', tyreProfile: '', tyreRim: '16' })).toBeUndefined();
    expect(
      bookingRequest(staffBookingSchema.parse({ ...valid, serviceType: 'puncture-repair' })).job,
    ).not.toHaveProperty('tyreSize');
  });

  test('an invalid time slot throws "Invalid time slot"', () => {
    expect(() => bookingRequest({ ...staffBookingSchema.parse(valid), timeSlot: '6-8 PM' })).toThrow(
      'Invalid time slot',
    );
  });
});

describe('purchase invoice and expense dialogs', () => {
  test('purchase invoice messages', () => {
    expect(
      messages(
        purchaseInvoiceSchema.safeParse({
          invoiceNumber: ' ',
          supplierName: '',
          invoiceDate: '2026-11-21',
          totalIncGst: '',
          gstFree: false,
        }),
      ),
    ).toEqual({
      invoiceNumber: 'Invoice number is required',
      supplierName: 'Supplier name is required',
      totalIncGst: 'Total must be a valid number',
    });
    const total = (v: string) =>
      messages(
        purchaseInvoiceSchema.safeParse({
          invoiceNumber: 'A1',
          supplierName: 'S',
          invoiceDate: '2026-11-21',
          totalIncGst: v,
          gstFree: false,
        }),
      ).totalIncGst;
    expect(total('abc')).toBe('Total must be a valid number');
    expect(total('Infinity')).toBe('Total must be a valid number');
    expect(total('0')).toBe('Total must be greater than $0');
    expect(total('-5')).toBe('Total must be greater than $0');
    expect(total('10.555')).toBe('Must be a valid decimal amount');
    expect(total('$1,210.50')).toBeUndefined();
  });

  test('expense messages, and the payload: GST = amount / 11, blanks become null', () => {
    const base = {
      supplierName: '',
      invoiceNumber: '',
      description: '',
      category: '',
      expenseDate: null,
      totalIncGst: '',
      dueDate: null,
      isPaid: false,
      notes: '',
      gstFree: false,
    };
    expect(messages(expenseSchema.safeParse(base))).toEqual({
      supplierName: 'Supplier name is required',
      description: 'Description is required',
      category: 'Category is required',
      expenseDate: 'Expense date is required',
      totalIncGst: 'Total must be a valid number',
    });
    const values = expenseSchema.parse({
      ...base,
      supplierName: ' BP ',
      description: 'Fuel',
      category: 'fuel',
      expenseDate: '2026-11-20',
      totalIncGst: '110',
    });
    expect(expensePayload(values)).toEqual({
      supplierName: 'BP',
      invoiceNumber: null,
      description: 'Fuel',
      amount: '110.00',
      gstAmount: '10.00',
      category: 'fuel',
      expenseDate: '2026-11-20',
      dueDate: null,
      isPaid: false,
      notes: null,
      gstFree: false,
    });
    // GST-free: no GST in the amount.
    expect(expensePayload({ ...values, gstFree: true })).toMatchObject({
      amount: '110.00',
      gstAmount: '0.00',
      gstFree: true,
    });
  });
});

describe('small forms', () => {
  test('reschedule needs both a date and a slot', () => {
    expect(messages(rescheduleSchema.safeParse({ scheduledDate: '2026-11-25', timeSlot: null }))).toEqual({
      timeSlot: 'Please select both date and time slot',
    });
    expect(messages(rescheduleSchema.safeParse({ scheduledDate: null, timeSlot: '8-10 AM' }))).toEqual({
      timeSlot: 'Please select both date and time slot',
    });
    expect(rescheduleSchema.safeParse({ scheduledDate: '2026-11-25', timeSlot: '8-10 AM' }).success).toBe(
      true,
    );
  });
  test('blocking a slot needs a non-blank reason', () => {
    expect(blockSlotSchema.safeParse({ reason: '   ' }).success).toBe(false);
    expect(blockSlotSchema.safeParse({ reason: 'Van service' }).success).toBe(true);
  });
  test('add user: username 3+, password 6+, email valid or empty, role default technician', () => {
    expect(
      messages(
        newUserSchema.safeParse({ username: 'ab', password: '12345', email: 'nope', role: 'technician' }),
      ),
    ).toEqual({
      username: 'Username must be at least 3 characters',
      password: 'Password must be at least 6 characters',
      email: 'Invalid email address',
    });
    expect(
      newUserSchema.safeParse({ username: 'sam', password: '123456', email: '', role: 'technician' }).success,
    ).toBe(true);
  });
});
