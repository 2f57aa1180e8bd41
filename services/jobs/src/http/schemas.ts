import {
  formatMoney,
  isTimeSlot,
  LINE_ITEM_CATEGORIES,
  parseMoneyInput,
  TIME_SLOT_LABELS,
  toBusinessDate,
} from '@tyres/kernel';
import { z } from 'zod';
import { SCHEDULE_STATUSES, selectionForSchedule, type StatusSelection } from '../domain/schedule';
import { JOB_STATUSES, normaliseStatusInput, type JobStatus } from '../domain/status';

/** Request schemas; messages are the spec's where it has one (sections 5 and 8). */

export const BOTH_REQUIRED = 'Please select both date and time slot';
export const INVALID_DATE = 'Invalid date or time slot selected';
export const INVALID_SLOT = 'Invalid time slot';
export const STATUS_MESSAGE = `Status must be one of ${JOB_STATUSES.join(', ')}`;

export const uuid = z.uuid();

/** For the OpenAPI document: the schedule's spelling is read too. */
const STATUS_ALIAS_DOC = 'The job status; the schedule spelling in_progress is read as in-progress.';

export const statusBody = z.object({
  status: z
    .string({ error: 'Status is required' })
    .trim()
    .transform(normaliseStatusInput)
    .pipe(z.enum(JOB_STATUSES, { error: STATUS_MESSAGE }))
    .meta({ override: { type: 'string', enum: [...JOB_STATUSES] }, description: STATUS_ALIAS_DOC }),
  notifyCustomer: z.boolean({ error: 'notifyCustomer must be true or false' }).optional(),
});

/** `null`, '' or 'unassigned' (the schedule's Unassigned option) unassign. */
export const assignBody = z.object({
  technicianId: z.preprocess(
    (v) => (v === '' || v === 'unassigned' ? null : v),
    z.union([z.uuid({ error: 'Jobs can only be assigned to an active technician.' }), z.null()], {
      error: 'Select a technician or Unassigned',
    }),
  ),
});

const requiredText = z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.string().min(1));

export const rescheduleBody = z
  .unknown()
  .transform((raw, ctx) => {
    const body = (raw && typeof raw === 'object' ? raw : {}) as {
      scheduledDate?: unknown;
      timeSlot?: unknown;
    };
    const date = requiredText.safeParse(body.scheduledDate);
    const slot = requiredText.safeParse(body.timeSlot);
    if (!date.success || !slot.success) {
      ctx.addIssue({
        code: 'custom',
        path: [!date.success ? 'scheduledDate' : 'timeSlot'],
        message: BOTH_REQUIRED,
      });
      return z.NEVER;
    }
    // `YYYY-MM-DD`, or a date-time (the staff form sends the slot's start) read as a Perth calendar date.
    const scheduledDate = toBusinessDate(date.data);
    if (!scheduledDate) {
      ctx.addIssue({ code: 'custom', path: ['scheduledDate'], message: INVALID_DATE });
      return z.NEVER;
    }
    if (!isTimeSlot(slot.data)) {
      ctx.addIssue({
        code: 'custom',
        path: ['timeSlot'],
        message: INVALID_SLOT,
        params: { allowed: TIME_SLOT_LABELS },
      });
      return z.NEVER;
    }
    return { scheduledDate, timeSlot: slot.data };
  })
  .meta({
    // The parse above takes any body so a missing field is the spec's one message; this is the body it accepts.
    override: {
      type: 'object',
      required: ['scheduledDate', 'timeSlot'],
      properties: {
        scheduledDate: {
          type: 'string',
          description: 'YYYY-MM-DD, or a date-time read as a Perth calendar date',
          examples: ['2026-12-01'],
        },
        timeSlot: { type: 'string', enum: [...TIME_SLOT_LABELS] },
      },
    },
  });

const positiveInt = (message: string, max?: number) => {
  let s = z.coerce.number({ error: message }).int(message).min(1, message);
  if (max !== undefined) s = s.max(max, message);
  return s;
};

export const MAX_PAGE_SIZE = 100;
/** Far beyond any real list; keeps OFFSET a sane number (a page past the end is simply []). */
export const MAX_PAGE = 1_000_000;
export const DEFAULT_PAGE_SIZE = 50;

/** The longest scheduled-date range a list may ask for (a month view plus its edges; docs/decisions.md). */
export const MAX_SCHEDULED_RANGE_DAYS = 62;

/** `YYYY-MM-DD` naming a real calendar day (2026-02-30 is not). */
function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** List filters: `status` in the dashboard vocabulary, or `scheduleStatus` in the schedule's (README). */
export const listQueryFields = z.object({
  status: z
    .string()
    .trim()
    .transform(normaliseStatusInput)
    .pipe(
      z.enum(['all', ...JOB_STATUSES], {
        error: `status must be all or one of ${JOB_STATUSES.join(', ')}`,
      }),
    )
    .meta({ override: { type: 'string', enum: ['all', ...JOB_STATUSES] }, description: STATUS_ALIAS_DOC })
    .optional(),
  scheduleStatus: z
    .enum(['all', ...SCHEDULE_STATUSES], {
      error: `scheduleStatus must be all or one of ${SCHEDULE_STATUSES.join(', ')}`,
    })
    .optional(),
  scheduledFrom: z
    .string()
    .trim()
    .refine(isCalendarDate, { error: 'scheduledFrom must be a date YYYY-MM-DD' })
    .meta({ description: 'Only jobs scheduled on or after this Perth date (YYYY-MM-DD); with scheduledTo.' })
    .optional(),
  scheduledTo: z
    .string()
    .trim()
    .refine(isCalendarDate, { error: 'scheduledTo must be a date YYYY-MM-DD' })
    .meta({
      description: `Only jobs scheduled on or before this Perth date (YYYY-MM-DD, inclusive); with scheduledFrom, at most ${MAX_SCHEDULED_RANGE_DAYS} days.`,
    })
    .optional(),
  page: positiveInt(`page must be a whole number from 1 to ${MAX_PAGE}`, MAX_PAGE).default(1),
  pageSize: positiveInt(`pageSize must be a whole number from 1 to ${MAX_PAGE_SIZE}`, MAX_PAGE_SIZE).default(
    DEFAULT_PAGE_SIZE,
  ),
});

/** The list query as the routes use it: a status selection and the page (listQueryFields is what the URL carries). */
export const listQuery = listQueryFields.transform((q, ctx) => {
  const status = q.status && q.status !== 'all' ? (q.status as JobStatus) : undefined;
  const schedule = q.scheduleStatus && q.scheduleStatus !== 'all' ? q.scheduleStatus : undefined;
  if (status && schedule) {
    ctx.addIssue({
      code: 'custom',
      path: ['status'],
      message: 'Filter by status or by scheduleStatus, not both',
    });
    return z.NEVER;
  }
  const selection: StatusSelection | undefined = status
    ? { statuses: [status] }
    : schedule
      ? selectionForSchedule(schedule)
      : undefined;
  let scheduled: { from: string; to: string } | undefined;
  if (q.scheduledFrom !== undefined || q.scheduledTo !== undefined) {
    if (q.scheduledFrom === undefined || q.scheduledTo === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [q.scheduledFrom === undefined ? 'scheduledFrom' : 'scheduledTo'],
        message: 'scheduledFrom and scheduledTo go together',
      });
      return z.NEVER;
    }
    const days = daysBetween(q.scheduledFrom, q.scheduledTo) + 1;
    if (days < 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['scheduledTo'],
        message: 'scheduledTo must not be before scheduledFrom',
      });
      return z.NEVER;
    }
    if (days > MAX_SCHEDULED_RANGE_DAYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['scheduledTo'],
        message: `The scheduled date range is at most ${MAX_SCHEDULED_RANGE_DAYS} days`,
      });
      return z.NEVER;
    }
    scheduled = { from: q.scheduledFrom, to: q.scheduledTo };
  }
  return { selection, scheduled, page: q.page, pageSize: q.pageSize };
});

const INVALID_AMOUNT = 'Must be a valid decimal amount';
/**
 * Jobs' line amounts are stricter than the kernel's money input (kept from before issue 13): a plain unsigned
 * decimal only. No sign (a line's cost or price is never negative), no "$" or thousands separators, no exponent,
 * and a number must be its cent value exactly (0.1 + 0.2 is refused, not read as 0.30). Places and the
 * Decimal(10,2) limit are the kernel's rule.
 */
const PLAIN_UNSIGNED_DECIMAL = /^\d+(\.\d+)?$/;

/** Money in: a decimal with up to 2 places, as a string or a number (spec section 5, stored data rules). */
const moneyInput = z.union([z.string(), z.number()], { error: INVALID_AMOUNT }).transform((v, ctx) => {
  const plain = PLAIN_UNSIGNED_DECIMAL.test(typeof v === 'number' ? String(v) : v.trim());
  const parsed = plain ? parseMoneyInput(v) : undefined;
  const money = parsed?.ok ? formatMoney(parsed.cents) : undefined;
  if (money === undefined || (typeof v === 'number' && Number(money) !== v)) {
    ctx.addIssue({ code: 'custom', message: INVALID_AMOUNT });
    return z.NEVER;
  }
  return money;
});

// The line categories are the kernel's (the same list the events contracts and the dashboard use).
export { LINE_ITEM_CATEGORIES };

const lineItemFields = {
  type: z.string().trim().min(1, 'Type is required').max(50, 'Type must be at most 50 characters'),
  category: z.enum(LINE_ITEM_CATEGORIES, {
    error: `Category must be one of ${LINE_ITEM_CATEGORIES.join(', ')}`,
  }),
  description: z
    .string({ error: 'Please enter a description for the line item.' })
    .trim()
    .min(1, 'Please enter a description for the line item.')
    .max(1000, 'Description must be at most 1000 characters'),
  quantity: z.coerce
    .number({ error: 'Quantity must be a whole number of at least 1' })
    .int('Quantity must be a whole number of at least 1')
    .min(1, 'Quantity must be a whole number of at least 1')
    .max(10_000, 'Quantity must be at most 10000'),
  unitCost: moneyInput,
  unitPrice: moneyInput,
};

export const lineItemBody = z.object({
  type: lineItemFields.type.default('item'),
  category: lineItemFields.category.default('labour'),
  description: lineItemFields.description,
  quantity: lineItemFields.quantity.default(1),
  unitCost: lineItemFields.unitCost.default('0.00'),
  unitPrice: lineItemFields.unitPrice,
});

export const lineItemPatch = z
  .object({
    type: lineItemFields.type.optional(),
    category: lineItemFields.category.optional(),
    description: lineItemFields.description.optional(),
    quantity: lineItemFields.quantity.optional(),
    unitCost: lineItemFields.unitCost.optional(),
    unitPrice: lineItemFields.unitPrice.optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), 'Nothing to update');
