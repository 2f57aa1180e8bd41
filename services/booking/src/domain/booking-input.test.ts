import type { BookingRequest } from '@tyres/kernel';
import { directBookingPayment, normalizeBooking } from './booking-input';

/** A booking request as the kernel's contract parses it (the service's input after validation). */
function parsed(job: Partial<BookingRequest['job']> = {}): BookingRequest {
  return {
    customer: { name: 'Jane Citizen', email: 'jane@example.com', phone: '0412 345 678' },
    vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, color: null, registration: '1ABC234' },
    job: {
      serviceType: 'new-tyres',
      scheduledDate: '2030-06-04',
      timeSlot: '8-10 AM',
      address: '12 Smith St',
      suburb: 'Mandurah',
      postcode: '6210',
      tyreSize: '205/55R16',
      tyreQuantity: undefined,
      tyreBrand: 'Michelin',
      notes: null,
      paymentMethod: 'onsite',
      ...job,
    },
  };
}

describe('normalizeBooking', () => {
  it('defaults the quantity to 1 online and 4 for staff, only for new tyres', () => {
    expect(normalizeBooking(parsed(), 'online', 'onsite').job.tyreQuantity).toBe(1);
    expect(normalizeBooking(parsed(), 'staff', 'onsite').job.tyreQuantity).toBe(4);
    expect(normalizeBooking(parsed({ tyreQuantity: 2 }), 'staff', 'onsite').job.tyreQuantity).toBe(2);
    expect(
      normalizeBooking(parsed({ serviceType: 'puncture-repair' }), 'online', 'onsite').job,
    ).toMatchObject({
      tyreQuantity: null,
      tyreSize: null,
      tyreBrand: null,
    });
  });
});

describe('directBookingPayment', () => {
  it('the public dialog books onsite whatever it sends; the staff form records what it chose', () => {
    expect(directBookingPayment('online', 'prepaid')).toBe('onsite');
    expect(directBookingPayment('online', undefined)).toBe('onsite');
    expect(directBookingPayment('staff', 'prepaid')).toBe('prepaid');
    expect(directBookingPayment('staff', undefined)).toBe('onsite');
  });
});
