/**
 * The day-before reminder (issue 18): at 5 pm Perth on the day before the booked slot, an SMS and an email.
 * Pure timing rules; the delayed BullMQ job and the run-time checks are app/booking-reminders.ts.
 */
import { addDays, perthInstant, type TimeSlot } from '@tyres/kernel';

export const REMINDER_CLOCK = '17:00';

/** 5 pm Perth on the calendar day before the booking's date. */
export function reminderDueAt(scheduledDate: string): Date {
  return perthInstant(addDays(scheduledDate, -1), REMINDER_CLOCK);
}

export type ReminderPlan = { kind: 'schedule'; at: Date } | { kind: 'skip'; reason: 'too-late' };

/**
 * When the reminder for a slot goes out, seen at `now`. If 5 pm the day before has already passed (a booking for
 * tomorrow made at 6 pm, a same-day booking, a move to tomorrow in the evening) there is no reminder: the
 * confirmation or the reschedule notice the customer has just been sent carries the same details
 * (docs/decisions.md, "Reminders and quiet hours").
 */
export function planReminder(slot: { scheduledDate: string; timeSlot: TimeSlot }, now: Date): ReminderPlan {
  const at = reminderDueAt(slot.scheduledDate);
  return at.getTime() > now.getTime() ? { kind: 'schedule', at } : { kind: 'skip', reason: 'too-late' };
}
