import { HttpError } from '@tyres/service-kit';
import { BOOKING_UNAVAILABLE } from '../domain/messages';

/**
 * What the slot changes need from booking, which owns slot reservations and their uniqueness. The HTTP client is
 * src/http/booking-client.ts; the integration tests put a fake booking server behind it.
 */
export interface ReservationApi {
  /** Holds `slot` for the job (absolute: the job's previous reservation, if any, is released). */
  moveReservation(jobId: string, slot: Slot, auth: BookingAuth): Promise<void>;
  /** Frees the job's slot (idempotent). */
  releaseReservation(jobId: string, auth: BookingAuth): Promise<void>;
}

export interface Slot {
  scheduledDate: string;
  timeSlot: string;
}

/** The caller's gateway-signed identity and request id, forwarded to booking. */
export interface BookingAuth {
  identityToken?: string;
  requestId?: string;
}

/**
 * Booking could not be reached or failed. `maybeApplied` is false only when the request certainly never arrived
 * (connection refused, unknown host): after a timeout or a 5xx the change may have happened, and the caller must
 * put the previous reservation back.
 */
export class BookingUnavailableError extends HttpError {
  constructor(
    readonly maybeApplied: boolean,
    cause?: unknown,
  ) {
    super(503, BOOKING_UNAVAILABLE, 'booking_unavailable');
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }
}
