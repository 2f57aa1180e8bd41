import '../testing/polyfills';
import { BOOKING_MESSAGES, SERVICE_LABELS, staffBookingSchema as serverStaffSchema } from '@tyres/kernel';
import { bookingRequest, staffBookingSchemaFor } from '../forms/booking';
import { serviceOptionLabel } from '../lib/format';
import { validStaffBooking } from '../testing/booking-fixtures';

const schema = staffBookingSchemaFor(2027);
const valid = validStaffBooking();
const problems = (values: object) => {
  const result = schema.safeParse(values);
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
};

describe('the staff form refuses what the booking service refuses (booking contract)', () => {
  test.each(['602a', '60 27', '60271', 'abcd'])('postcode %p is refused like the server does', (postcode) => {
    expect(problems({ ...valid, postcode }).postcode).toBe(BOOKING_MESSAGES.postcode);
  });

  test.each(['1899', '2028', '20x9'])('vehicle year %p is outside 1900 to next year', (vehicleYear) => {
    expect(problems({ ...valid, vehicleYear }).vehicleYear).toBe(
      'Vehicle year must be between 1900 and 2027',
    );
  });

  test('a tyre size typed in part ("2/5R1") is refused; none at all asks for a quote', () => {
    expect(problems({ ...valid, tyreWidth: '2', tyreProfile: '5', tyreRim: '1' }).tyreWidth).toBe(
      BOOKING_MESSAGES.tyreSize,
    );
    expect(schema.safeParse({ ...valid, tyreWidth: '', tyreProfile: '', tyreRim: '' }).success).toBe(true);
    // Reported together with the other fields' problems, not only once they are fixed.
    expect(
      problems({ ...valid, postcode: 'x', tyreWidth: '2', tyreProfile: '5', tyreRim: '1' }),
    ).toMatchObject({
      postcode: BOOKING_MESSAGES.postcode,
      tyreWidth: BOOKING_MESSAGES.tyreSize,
    });
    // Other services never carry a size.
    expect(schema.safeParse({ ...valid, serviceType: 'puncture-repair', tyreWidth: '2' }).success).toBe(true);
  });

  test('a valid form makes a body the service accepts', () => {
    const body = bookingRequest(schema.parse(valid));
    expect(serverStaffSchema.safeParse(body).success).toBe(true);
  });

  test("service labels are the contract's", () => {
    expect(serviceOptionLabel('battery-service')).toBe(SERVICE_LABELS['battery-service']);
    expect(serviceOptionLabel('battery-service')).toBe('Mobile Battery Service');
  });
});
