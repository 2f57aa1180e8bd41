/** A validated booking request (the kernel's booking contract) with each form's defaults applied. */
import {
  DEFAULT_TYRE_QUANTITY,
  takesTyres,
  type BookingRequest,
  type PaymentMethod,
  type ServiceType,
  type TimeSlot,
} from '@tyres/kernel';

export type BookingChannel = 'online' | 'staff';

export interface NormalizedBooking {
  channel: BookingChannel;
  customer: { name: string; email: string; phone: string };
  vehicle: { make: string; model: string; year: number; color: string | null; registration: string };
  job: {
    serviceType: ServiceType;
    scheduledDate: string;
    timeSlot: TimeSlot;
    address: string;
    suburb: string;
    postcode: string;
    tyreSize: string | null;
    tyreQuantity: number | null;
    tyreBrand: string | null;
    notes: string | null;
    paymentMethod: PaymentMethod;
  };
}

/**
 * Applies the defaults of each form: quantity only for new tyres (customer form default 1, staff form 4), brand
 * only for new tyres.
 */
export function normalizeBooking(
  req: BookingRequest,
  channel: BookingChannel,
  paymentMethod: PaymentMethod,
): NormalizedBooking {
  const tyres = takesTyres(req.job.serviceType);
  return {
    channel,
    customer: req.customer,
    vehicle: { ...req.vehicle, color: req.vehicle.color ?? null },
    job: {
      serviceType: req.job.serviceType,
      scheduledDate: req.job.scheduledDate,
      timeSlot: req.job.timeSlot,
      address: req.job.address,
      suburb: req.job.suburb,
      postcode: req.job.postcode,
      tyreSize: tyres ? req.job.tyreSize : null,
      tyreQuantity: tyres ? (req.job.tyreQuantity ?? DEFAULT_TYRE_QUANTITY[channel]) : null,
      tyreBrand: tyres ? req.job.tyreBrand : null,
      notes: req.job.notes,
      paymentMethod,
    },
  };
}

/**
 * The payment method of a direct booking (POST /api/bookings). The public dialog books onsite and prepays through a
 * quote (a hold, then the payment): a customer's "prepaid" there would be a discounted booking nobody pays for.
 * Only the staff form records a prepaid booking directly (staff take the payment themselves).
 */
export function directBookingPayment(
  channel: BookingChannel,
  requested: PaymentMethod | undefined,
): PaymentMethod {
  return channel === 'staff' ? (requested ?? 'onsite') : 'onsite';
}
