/**
 * Pins every business constant and user-facing message the product spec states (sections 5, 7, 8 and 9) and the
 * issue's decisions, so a change to one of them is a deliberate, visible edit.
 */
import { BUSINESS_TIME_ZONE, MAX_TYRE_QUANTITY, MIN_TYRE_QUANTITY, SERVICE_TYPES } from '@tyres/kernel';
import { configSchema } from '../config';
import {
  ADDRESS_MAX_SUGGESTIONS,
  ADDRESS_MIN_CHARS,
  GST_PERCENT,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_FILES,
  PHOTO_MAX_FILES_UNKNOWN_SIZE,
  PHOTO_MIME_TYPES,
  PHOTO_TYPES,
  PRICES,
  PRICING_TIME_SLOTS,
  RESPONSE_TIME,
} from './constants';
import { MSG } from './messages';
import { TIME_PASSED_REASON, WEEKEND_REASON } from './slots';

describe('business constants (spec section 9)', () => {
  it('prices in cents', () => {
    expect(PRICES).toEqual({
      calloutFee: 8980n,
      punctureRepair: 4000n,
      prepaidDiscount: 3000n,
      fittingPerTyre: 2500n,
      balancingPerTyre: 1500n,
      batteryService: 0n,
      newTyresBasePrice: 13900n,
    });
    expect(GST_PERCENT).toBe(10n);
  });

  it('time slots, their Perth start times and the business time zone (section 7)', () => {
    expect(PRICING_TIME_SLOTS).toEqual([
      { slot: '8-10 AM', start: '08:00' },
      { slot: '10-12 AM', start: '10:00' },
      { slot: '12-2 PM', start: '12:00' },
      { slot: '2-4 PM', start: '14:00' },
    ]);
    expect(BUSINESS_TIME_ZONE).toBe('Australia/Perth');
    expect(TIME_PASSED_REASON).toBe('Time has passed');
    expect(WEEKEND_REASON).toBe('Closed on weekends (we work Monday to Friday, 8am-4pm)');
  });

  it('service types, quantities, response time, address suggestions', () => {
    expect(SERVICE_TYPES).toEqual(['new-tyres', 'puncture-repair', 'battery-service', 'emergency-callout']);
    expect([MIN_TYRE_QUANTITY, MAX_TYRE_QUANTITY]).toEqual([1, 4]);
    expect(RESPONSE_TIME).toBe('30-60 mins');
    expect([ADDRESS_MIN_CHARS, ADDRESS_MAX_SUGGESTIONS]).toEqual([3, 5]);
  });

  it('photos: jpeg, png, webp; 5 files of 5 MB, 3 when the tyre size is unknown; type tyre-condition', () => {
    expect(PHOTO_MIME_TYPES).toEqual(['image/jpeg', 'image/png', 'image/webp']);
    expect(PHOTO_MAX_BYTES).toBe(5 * 1024 * 1024);
    expect([PHOTO_MAX_FILES, PHOTO_MAX_FILES_UNKNOWN_SIZE]).toEqual([5, 3]);
    expect(PHOTO_TYPES).toEqual(['tyre-condition']);
  });

  it('hold time 30 minutes and photo window 60 minutes by default', () => {
    expect(configSchema.shape.BOOKING_HOLD_MINUTES.parse(undefined)).toBe(30);
    expect(configSchema.shape.PHOTO_UPLOAD_WINDOW_MINUTES.parse(undefined)).toBe(60);
  });
});

describe('messages quoted by the spec are verbatim (sections 5 and 8)', () => {
  it.each([
    ['selectDate', 'Please select a date'],
    ['selectSlot', 'Please select a time slot'],
    ['selectService', 'Please select a service'],
    ['invalidDateOrSlot', 'Invalid date or time slot selected'],
    ['invalidSlot', 'Invalid time slot'],
    [
      'slotJustBooked',
      'This time slot was just booked by someone else. Please select a different time slot.',
    ],
    ['slotNoLongerAvailable', 'This time slot is no longer available. Please select a different time slot.'],
    ['callForQuote', 'Please call for a quote on this tyre size'],
    ['address', 'Please enter your address'],
    ['suburb', 'Suburb is required'],
    ['postcode', 'Please enter a valid postcode'],
    ['make', 'Vehicle make is required'],
    ['model', 'Vehicle model is required'],
    ['registration', 'Registration is required'],
    ['name', 'Name is required'],
    ['phone', 'Valid phone number required'],
    ['email', 'Valid email required'],
    ['staffName', 'Customer name is required'],
    ['staffEmail', 'Valid email address required'],
    ['staffAddress', 'Full address is required'],
    ['bookingNotFound', 'Booking Not Found'],
    ['photoType', 'Please upload jpeg, png, webp files only.'],
    ['photoTypeTitle', 'Invalid file type'],
    ['photoSize', 'File size must be less than 5MB.'],
    ['photoSizeTitle', 'File too large'],
    ['photoCountTitle', 'Too many files'],
    ['serviceAreaNotFound', 'Service Area Not Found'],
  ] as const)('%s', (key, text) => {
    expect(MSG[key]).toBe(text);
  });

  it('photo count message carries the limit', () => {
    expect(MSG.photoCount(5)).toBe('Maximum 5 files allowed.');
    expect(MSG.photoCount(3)).toBe('Maximum 3 files allowed.');
  });
});
