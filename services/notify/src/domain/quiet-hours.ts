/**
 * Quiet hours (issue 18): between 8 pm and 8 am Perth nothing reaches a customer but the "technician en route"
 * SMS (the technician is on the way now; holding it would defeat it). Any other SMS or email due then waits until
 * 8 am Perth. One rule, used wherever notify queues a message (app/delivery-requests.ts).
 */
import { addDays, perthClock, perthDate, perthInstant } from '@tyres/kernel';

export const QUIET_FROM = '20:00';
export const QUIET_UNTIL = '08:00';

/** The purpose of the SMS the jobs service requests when work starts (services/jobs/src/domain/sms.ts). */
export const EN_ROUTE_PURPOSE = 'technician-en-route';

/** Whether an instant falls in quiet hours: 20:00 inclusive to 08:00 exclusive, Perth wall clock. */
export function inQuietHours(instant: Date): boolean {
  const clock = perthClock(instant);
  return clock >= QUIET_FROM || clock < QUIET_UNTIL;
}

/**
 * When a message with this purpose, due at `due`, may go out: `due` itself outside quiet hours (or for the en route
 * SMS), else 8 am Perth on the morning that ends the quiet period.
 */
export function releaseAfterQuietHours(due: Date, purpose: string): Date {
  if (purpose === EN_ROUTE_PURPOSE || !inQuietHours(due)) return due;
  const today = perthDate(due);
  // Evening (20:00-23:59): tomorrow's 8 am; early morning (00:00-07:59): today's.
  const morning = perthClock(due) >= QUIET_FROM ? addDays(today, 1) : today;
  return perthInstant(morning, QUIET_UNTIL);
}
