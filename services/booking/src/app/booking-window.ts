/**
 * When a booking, a quote or a move may be made: a business day, a slot not yet started (Perth clock), within the
 * booking horizon; and, for a booking, a plausible vehicle year. The 400s carry the field they are about.
 */
import { EMERGENCY_RESPONSE_TIME, emergencySlot, vehicleYearProblem } from '@tyres/kernel';
import { badRequest } from '@tyres/service-kit';
import type { NormalizedBooking } from '../domain/booking-input';
import { bookingHorizon, horizonMessage, isBeyondHorizon, type BookingHorizon } from '../domain/horizon';
import { MSG } from '../domain/messages';
import { bookableProblem } from '../domain/slots';

export class BookingWindow {
  constructor(
    private readonly deps: {
      clock: () => Date;
      /** Bookings open this many days ahead (config BOOKING_HORIZON_DAYS). */
      horizonDays: number;
    },
  ) {}

  horizon(): BookingHorizon {
    return bookingHorizon(this.deps.clock(), this.deps.horizonDays);
  }

  /** A booking or quote: date and slot first, then the horizon, then the vehicle year (the dialog's order). */
  checkBooking(input: NormalizedBooking): void {
    const now = this.deps.clock();
    const problem = bookableProblem(input.job.scheduledDate, input.job.timeSlot, now);
    if (problem)
      throw badRequest(problem, [{ path: 'job.scheduledDate', message: problem }], 'invalid_date_or_slot');
    this.checkHorizon(input.job.scheduledDate, 'job.scheduledDate');
    const yearProblem = vehicleYearProblem(input.vehicle.year, now);
    if (yearProblem)
      throw badRequest(yearProblem, [{ path: 'vehicle.year', message: yearProblem }], 'validation_failed');
  }

  /**
   * A booking for today's slot already under way is an emergency callout "as soon as possible" (issue 19): its notes
   * say so first, so the office and the technician see it on the job.
   */
  withEmergencyNote(input: NormalizedBooking): NormalizedBooking {
    const e = emergencySlot(this.deps.clock());
    const { job } = input;
    if (!e || !e.started || e.date !== job.scheduledDate || e.slot !== job.timeSlot) return input;
    const note = `EMERGENCY CALLOUT: as soon as possible (response time ${EMERGENCY_RESPONSE_TIME})`;
    return { ...input, job: { ...job, notes: job.notes ? `${note}\n${job.notes}` : note } };
  }

  /** A move from the jobs service: any unbookable date or slot is "Invalid date or time slot selected". */
  checkMove(date: string, slot: string): void {
    if (bookableProblem(date, slot, this.deps.clock()))
      throw badRequest(MSG.invalidDateOrSlot, undefined, 'invalid_date_or_slot');
    this.checkHorizon(date, 'scheduledDate');
  }

  /** A date past the horizon: 400 naming the last date that can be chosen. */
  private checkHorizon(date: string, path: string): void {
    const h = this.horizon();
    if (!isBeyondHorizon(date, h)) return;
    const message = horizonMessage(h);
    throw badRequest(message, [{ path, message }], 'beyond_booking_horizon');
  }
}
