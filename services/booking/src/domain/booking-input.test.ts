import { customerBookingSchema } from '@tyres/kernel';
import { directBookingPayment, normalizeBooking } from './booking-input';

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

describe('normalizeBooking', () => {
  it('defaults the quantity to 1 online and 4 for staff, only for new tyres', () => {
    const body = valid();
    delete (body.job as Partial<Body['job']>).tyreQuantity;
    const parsed = customerBookingSchema.parse(body);
    expect(normalizeBooking(parsed, 'online', 'onsite').job.tyreQuantity).toBe(1);
    expect(normalizeBooking(parsed, 'staff', 'onsite').job.tyreQuantity).toBe(4);
    const puncture = customerBookingSchema.parse({
      ...valid(),
      job: { ...valid().job, serviceType: 'puncture-repair' },
    });
    expect(normalizeBooking(puncture, 'online', 'onsite').job).toMatchObject({
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
