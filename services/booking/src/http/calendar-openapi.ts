/** Issue 19: the business calendar's routes (calendar-routes.ts) in booking's OpenAPI document, merged by openapi.ts. */
import { errors, json, jsonBody, STAFF_ERRORS, type RoutePaths } from '@tyres/service-kit';
import { z } from 'zod';
import {
  calendarBlockSchema,
  CALENDAR_MSG,
  holidayOpenSchema,
  leaveSchema,
  rosterDaysSchema,
} from '../domain/calendar';
import { keptBookingsField } from './responses';

const ADMIN_ERRORS = { 401: STAFF_ERRORS[401], 403: 'Only an admin can do that' } as const;
const security = [{ gatewayIdentity: [] }];
const tags = ['Dashboard'];
const IsoDate = z.string().meta({ description: 'YYYY-MM-DD (Perth calendar date).' });
const VALIDATION = 'The first problem with the request (details lists each field)';

const LeaveSchema = z
  .object({ id: z.string(), userId: z.string(), startDate: IsoDate, endDate: IsoDate, reason: z.string() })
  .meta({ id: 'TechnicianLeave' });
const RosterTechnicianSchema = z
  .object({
    userId: z.string(),
    username: z.string(),
    isActive: z.boolean(),
    weekdays: z
      .array(z.number().int())
      .meta({ description: 'ISO weekdays worked: 1 = Monday ... 7 = Sunday.' }),
    leave: z.array(LeaveSchema).meta({ description: 'Leave ending today or later.' }),
  })
  .meta({ id: 'RosterTechnician' });
const CalendarBlockSchema = z
  .object({
    id: z.string(),
    kind: z.enum(['day', 'range', 'recurring']),
    startDate: IsoDate,
    endDate: IsoDate.nullable(),
    weekday: z.number().int().nullable().meta({ description: 'Recurring blocks: ISO weekday (1 = Monday).' }),
    timeSlot: z.string().nullable().meta({ description: 'One slot, or null for the whole day.' }),
    reason: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'CalendarBlock' });
const AddedCalendarBlockSchema = CalendarBlockSchema.extend({ keptBookings: keptBookingsField }).meta({
  id: 'AddedCalendarBlock',
});
const HolidaySchema = z
  .object({
    date: IsoDate,
    name: z.string(),
    substitute: z.boolean().meta({ description: 'The weekday added for a holiday that falls on a weekend.' }),
    opened: z.boolean().meta({ description: 'Opened by an admin for bookings (closed otherwise).' }),
    openedReason: z.string().nullable(),
  })
  .meta({ id: 'PublicHoliday' });
const FreeTechnicianSchema = z
  .object({ userId: z.string(), username: z.string(), jobsThatDay: z.number().int() })
  .meta({ id: 'FreeTechnician' });
const DayCapacitySchema = z
  .object({
    date: IsoDate,
    rostered: z.number().int(),
    onLeave: z.number().int(),
    capacity: z
      .number()
      .int()
      .meta({
        description:
          'Jobs per slot: rostered minus leave; 0 on a weekday nobody is rostered on; 1 only when the business has no active technician at all.',
      }),
    holiday: z.object({ name: z.string(), opened: z.boolean() }).nullable(),
    slots: z.array(
      z.object({
        slot: z.string(),
        capacity: z.number().int(),
        taken: z.number().int().meta({ description: 'Live jobs and unexpired holds.' }),
        freeTechnicians: z.array(FreeTechnicianSchema).meta({ description: 'The first is the suggestion.' }),
      }),
    ),
  })
  .meta({ id: 'DayCapacity' });
const SuggestionSchema = z
  .object({
    jobId: z.string(),
    scheduledDate: IsoDate,
    timeSlot: z.string(),
    suggestedTechnicianId: z.string().nullable().meta({
      description:
        'The free technician to preselect in the assign selector (fewest jobs that day); null when none is free.',
    }),
    freeTechnicians: z.array(FreeTechnicianSchema),
  })
  .meta({ id: 'TechnicianSuggestion' });

const userParam = z.object({
  userId: z.string().meta({ description: 'The technician (a gateway user id).' }),
});
const dateParam = z.object({ date: IsoDate });

export const calendarPaths: RoutePaths = {
  '/api/dashboard/calendar/roster': {
    get: {
      summary: 'The technicians roster: weekdays worked and upcoming leave (capacity per slot)',
      tags,
      security,
      responses: {
        '200': json('Technicians', z.array(RosterTechnicianSchema)),
        ...errors({ ...ADMIN_ERRORS }),
      },
    },
  },
  '/api/dashboard/calendar/roster/{userId}': {
    put: {
      summary: 'Set the weekdays a technician works',
      tags,
      security,
      requestParams: { path: userParam },
      requestBody: jsonBody(rosterDaysSchema),
      responses: {
        '200': json('The technician now', RosterTechnicianSchema),
        ...errors({
          400: [VALIDATION, CALENDAR_MSG.weekdays],
          ...ADMIN_ERRORS,
          404: CALENDAR_MSG.technicianNotFound,
        }),
      },
    },
  },
  '/api/dashboard/calendar/roster/{userId}/leave': {
    post: {
      summary: "Add a technician's leave (whole days, inclusive)",
      tags,
      security,
      requestParams: { path: userParam },
      requestBody: jsonBody(leaveSchema),
      responses: {
        '201': json('The leave', LeaveSchema),
        ...errors({
          400: [
            VALIDATION,
            CALENDAR_MSG.pastDate,
            CALENDAR_MSG.endBeforeStart,
            CALENDAR_MSG.rangeTooLong,
            CALENDAR_MSG.tooFarAhead,
          ],
          ...ADMIN_ERRORS,
          404: CALENDAR_MSG.technicianNotFound,
        }),
      },
    },
  },
  '/api/dashboard/calendar/roster/{userId}/leave/{leaveId}': {
    delete: {
      summary: "Remove a technician's leave",
      tags,
      security,
      requestParams: { path: userParam.extend({ leaveId: z.string() }) },
      responses: {
        '204': { description: 'Removed' },
        ...errors({ ...ADMIN_ERRORS, 404: CALENDAR_MSG.leaveNotFound }),
      },
    },
  },
  '/api/dashboard/calendar/blocks': {
    get: {
      summary: 'Calendar blocks still in force (whole days, ranges, recurring slots)',
      tags,
      security,
      responses: { '200': json('Blocks', z.array(CalendarBlockSchema)), ...errors({ ...ADMIN_ERRORS }) },
    },
    post: {
      summary:
        'Block a whole day, a date range or a recurring slot (e.g. every Friday 2-4 PM), with a reason',
      description:
        'Existing bookings in the blocked time are kept (reschedule them from the schedule); only new bookings and moves are refused. The answer lists them in keptBookings.',
      tags,
      security,
      requestBody: jsonBody(calendarBlockSchema),
      responses: {
        '201': json('The block, with the jobs it keeps', AddedCalendarBlockSchema),
        ...errors({
          400: [
            VALIDATION,
            CALENDAR_MSG.reason,
            CALENDAR_MSG.pastDate,
            CALENDAR_MSG.endBeforeStart,
            CALENDAR_MSG.rangeTooLong,
            CALENDAR_MSG.tooFarAhead,
          ],
          ...ADMIN_ERRORS,
        }),
      },
    },
  },
  '/api/dashboard/calendar/blocks/{id}': {
    delete: {
      summary: 'Remove a calendar block',
      tags,
      security,
      requestParams: { path: z.object({ id: z.string() }) },
      responses: {
        '204': { description: 'Removed' },
        ...errors({ ...ADMIN_ERRORS, 404: CALENDAR_MSG.blockNotFound }),
      },
    },
  },
  '/api/dashboard/calendar/holidays': {
    get: {
      summary:
        'WA public holidays (by the Act, substitute days included) from today to the end of next year, or of ?year',
      tags,
      security,
      requestParams: { query: z.object({ year: z.string().optional() }) },
      responses: {
        '200': json('Holidays', z.array(HolidaySchema)),
        ...errors({ 400: 'year must be a year from 2000 to 2100', ...ADMIN_ERRORS }),
      },
    },
  },
  '/api/dashboard/calendar/holidays/{date}/open': {
    put: {
      summary: 'Open a public holiday for bookings',
      tags,
      security,
      requestParams: { path: dateParam },
      requestBody: jsonBody(holidayOpenSchema),
      responses: {
        '200': json('The holiday now', HolidaySchema),
        ...errors({
          400: [CALENDAR_MSG.date, CALENDAR_MSG.notHoliday, CALENDAR_MSG.reasonTooLong],
          ...ADMIN_ERRORS,
        }),
      },
    },
    delete: {
      summary: 'Close a public holiday again',
      tags,
      security,
      requestParams: { path: dateParam },
      responses: {
        '200': json('The holiday now', HolidaySchema),
        ...errors({ 400: [CALENDAR_MSG.date, CALENDAR_MSG.notHoliday], ...ADMIN_ERRORS }),
      },
    },
  },
  '/api/dashboard/calendar/capacity': {
    get: {
      summary: "A date's capacity per slot: rostered, on leave, jobs taken, the free technicians",
      tags,
      security,
      requestParams: { query: z.object({ date: IsoDate }) },
      responses: {
        '200': json('Capacity', DayCapacitySchema),
        ...errors({ 400: CALENDAR_MSG.date, ...ADMIN_ERRORS }),
      },
    },
  },
  '/api/dashboard/calendar/jobs/{jobId}/technician-suggestion': {
    get: {
      summary:
        "The free technicians for a job's slot, the suggested one first (the assign selector's default)",
      tags,
      security,
      requestParams: { path: z.object({ jobId: z.string() }) },
      responses: {
        '200': json('The suggestion', SuggestionSchema),
        ...errors({ ...ADMIN_ERRORS, 404: 'No slot reservation for this job' }),
      },
    },
  },
};
