/** The business calendar's admin inputs (issue 19): request schemas and their messages. Pure. */
import { isCalendarDate, TIME_SLOT_LABELS } from '@tyres/kernel';
import { z } from 'zod';

export const CALENDAR_MSG = {
  reason: 'Please enter a reason',
  reasonTooLong: 'The reason must be 200 characters or fewer',
  date: 'Please choose a valid date',
  pastDate: 'Dates must be today or later',
  endBeforeStart: 'The end date must be on or after the start date',
  rangeTooLong: 'A block or leave can cover at most 366 days',
  tooFarAhead: 'Dates can be at most a year ahead',
  weekday: 'Please choose a weekday (Monday to Friday)',
  weekdays: 'Weekdays must be a list of ISO weekdays (1 = Monday ... 7 = Sunday)',
  slot: 'Please choose a time slot',
  notHoliday: 'That date is not a WA public holiday',
  technicianNotFound: 'Technician not found',
  leaveNotFound: 'Leave not found',
  blockNotFound: 'Block not found',
} as const;

export const MAX_RANGE_DAYS = 366;
/** Blocks and leave are planned at most this many days ahead (a recurring block without an end runs on). */
export const MAX_PLAN_DAYS = 366;

const reason = z
  .string({ error: CALENDAR_MSG.reason })
  .trim()
  .min(1, CALENDAR_MSG.reason)
  .max(200, CALENDAR_MSG.reasonTooLong);
const date = z.string({ error: CALENDAR_MSG.date }).refine((v) => isCalendarDate(v), CALENDAR_MSG.date);
const slot = z.enum(TIME_SLOT_LABELS as [string, ...string[]], { error: CALENDAR_MSG.slot });

export const calendarBlockSchema = z
  .discriminatedUnion(
    'kind',
    [
      z.object({ kind: z.literal('day'), date, reason }).meta({ description: 'A whole day.' }),
      z
        .object({
          kind: z.literal('range'),
          startDate: date,
          endDate: date,
          timeSlot: slot.optional(),
          reason,
        })
        .meta({ description: 'A date range (inclusive), every slot or one slot.' }),
      z
        .object({
          kind: z.literal('recurring'),
          weekday: z
            .number({ error: CALENDAR_MSG.weekday })
            .int()
            .min(1, CALENDAR_MSG.weekday)
            .max(5, CALENDAR_MSG.weekday),
          timeSlot: slot,
          startDate: date.optional(),
          endDate: date.optional(),
          reason,
        })
        .meta({
          description: 'A slot every week (ISO weekday 1 = Monday), from startDate (today) until endDate.',
        }),
    ],
    { error: 'kind must be day, range or recurring' },
  )
  .meta({ id: 'CalendarBlockInput' });
export type CalendarBlockInput = z.infer<typeof calendarBlockSchema>;

export const rosterDaysSchema = z
  .object({
    weekdays: z
      .array(z.number().int().min(1).max(7), { error: CALENDAR_MSG.weekdays })
      .max(7, CALENDAR_MSG.weekdays)
      .meta({ description: 'ISO weekdays worked: 1 = Monday ... 7 = Sunday.' }),
  })
  .meta({ id: 'RosterDaysInput' });

export const leaveSchema = z
  .object({ startDate: date, endDate: date, reason })
  .meta({ id: 'TechnicianLeaveInput' });

export const holidayOpenSchema = z
  .object({ reason: z.string().trim().max(200, CALENDAR_MSG.reasonTooLong).optional() })
  .meta({ id: 'HolidayOpenInput' });
