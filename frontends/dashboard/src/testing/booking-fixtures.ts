import { bookingDefaults, type StaffBookingValues } from '../forms/booking';
import { addDaysToDate, perthToday } from '../lib/dates';

/** A staff New Booking form filled in correctly (new tyres, three days ahead), for tests to vary one field at a time. */
export function validStaffBooking(): StaffBookingValues & Record<string, unknown> {
  return {
    ...bookingDefaults(),
    scheduledDate: addDaysToDate(perthToday(), 3),
    timeSlot: '10-12 AM',
    serviceType: 'new-tyres',
    tyreWidth: '205',
    tyreProfile: '55',
    tyreRim: '16',
    customerName: 'Olivia Smith',
    customerPhone: '0412 345 678',
    customerEmail: 'olivia@example.com',
    vehicleMake: 'Toyota',
    vehicleModel: 'Hilux',
    vehicleYear: '2019',
    vehicleColor: 'White',
    registration: '1abc234',
    address: '12 Ocean Reef Road',
    suburb: 'Joondalup',
    postcode: '6027',
  };
}
