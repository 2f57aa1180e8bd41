/**
 * The booking horizon (issue 14 item 6): bookings open a configurable number of days ahead (BOOKING_HORIZON_DAYS,
 * default 90). Later dates list no bookable slot, and quotes, holds, bookings and moves to them are refused with
 * the last date the customer can choose. Dates on the Perth calendar of @tyres/kernel.
 */
import { addDays, perthDate } from '@tyres/kernel';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "22 February 2027" for 2027-02-22 (a calendar date has no zone). */
export function formatDayMonthYear(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return `${day} ${MONTHS[month - 1]} ${year}`;
}

export interface BookingHorizon {
  /** How many days ahead bookings open. */
  days: number;
  /** The last date that can be booked: today in Perth plus `days`. */
  lastDate: string;
}

// The horizon moves once a day; a slot list must not pay for a time zone conversion each time.
let cached: { minute: number; days: number; horizon: BookingHorizon } | undefined;

export function bookingHorizon(now: Date, days: number): BookingHorizon {
  // Zone offsets are whole minutes, so a minute never spans midnight in Perth.
  const minute = Math.floor(now.getTime() / 60_000);
  if (cached?.minute !== minute || cached.days !== days)
    cached = { minute, days, horizon: { days, lastDate: addDays(perthDate(now), days) } };
  return cached.horizon;
}

export const isBeyondHorizon = (date: string, horizon: BookingHorizon) => date > horizon.lastDate;

/** Why a date past the horizon cannot be booked: the 400 message of a booking, quote or move. */
export const horizonMessage = (horizon: BookingHorizon) =>
  `Bookings open ${horizon.days} days ahead. Please choose a date on or before ${formatDayMonthYear(horizon.lastDate)}.`;

/** The reason each slot of such a date shows in the booking dialog (under the slot, like "Time has passed"). */
export const horizonSlotReason = (horizon: BookingHorizon) => `Bookings open ${horizon.days} days ahead`;
