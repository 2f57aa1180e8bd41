/**
 * Issue 19: the body of an admin's job edit (PATCH /api/dashboard/jobs/{id}) and the history answer. Field rules
 * are the booking form's (packages/kernel), so staff cannot store what a booking would refuse.
 */
import {
  BOOKING_MESSAGES as MSG,
  formatMoney,
  MAX_MONEY_CENTS,
  MAX_TYRE_QUANTITY,
  MIN_TYRE_QUANTITY,
  normalizeTyreSize,
  parseMoneyInput,
  postcodeSchema,
  registrationSchema,
  requiredText,
  vehicleYearInRange,
  maxVehicleYear,
} from '@tyres/kernel';
import { z } from 'zod';
import { NOTHING_TO_EDIT, REASON_REQUIRED } from '../domain/job-edits';

export const INVALID_PRICE =
  'Price must be an amount of 0 or more with at most 2 decimal places, e.g. "189.50"';
/** The upper bound is the kernel's money limit (MAX_MONEY_CENTS), the one billing's invoice lines use too. */
export const PRICE_TOO_LARGE = `Price must be at most ${formatMoney(MAX_MONEY_CENTS)}`;
export const INVALID_VERSION =
  'version must be the whole number the job history gave (0 for a job never edited)';
export const REASON_TOO_LONG = 'Reason must be at most 500 characters';
export const TYRE_QUANTITY = `Tyre quantity must be a whole number from ${MIN_TYRE_QUANTITY} to ${MAX_TYRE_QUANTITY}, or null`;

/**
 * The price: a decimal string (exact, no floating point on the way), 0 or more, at most 2 places (the kernel's
 * money rule; more places are refused rather than rounded, so what is stored is what was typed), at most the
 * kernel's MAX_MONEY_CENTS (the largest amount a money column or an invoice line holds): more is 400 PRICE_TOO_LARGE.
 */
const price = z
  .string({ error: INVALID_PRICE })
  .transform((v, ctx) => {
    const text = v.trim();
    const parsed = /^\d+(\.\d+)?$/.test(text) ? parseMoneyInput(text) : undefined;
    if (parsed && (parsed.ok ? parsed.cents > MAX_MONEY_CENTS : parsed.reason === 'too-large')) {
      ctx.addIssue({ code: 'custom', message: PRICE_TOO_LARGE });
      return z.NEVER;
    }
    if (!parsed?.ok || parsed.cents < 0n) {
      ctx.addIssue({ code: 'custom', message: INVALID_PRICE });
      return z.NEVER;
    }
    return formatMoney(parsed.cents);
  })
  .meta({ override: { type: 'string', pattern: '^\\d+(\\.\\d{1,2})?$', examples: ['189.50'] } });

/** Free text, trimmed; null or blank clears it (stored as null). */
const clearableText = (max: number, message: string) =>
  z
    .union([z.string().trim().max(max, message), z.null()], { error: message })
    .transform((v) => (v ? v : null));

/** A tyre size as the booking form reads it ("205 55 16" → "205/55R16"); null or "" clears it. */
const tyreSize = z
  .union([z.string(), z.null()], { error: MSG.tyreSize })
  .transform((v, ctx) => {
    if (v === null || v.trim() === '') return null;
    const normalised = normalizeTyreSize(v);
    if (!normalised) {
      ctx.addIssue({ code: 'custom', message: MSG.tyreSize });
      return z.NEVER;
    }
    return normalised;
  })
  .meta({ override: { type: ['string', 'null'], examples: ['205/55R16'] } });

const vehicle = (now: Date) =>
  z.object(
    {
      make: requiredText(MSG.make, 1, 100),
      model: requiredText(MSG.model, 1, 100),
      year: vehicleYearInRange(maxVehicleYear(now)),
      // Absent keeps the job's colour (the job detail does not show it); null or blank clears it.
      color: z
        .union([z.string().trim().max(50, MSG.colorTooLong), z.null()], { error: MSG.colorTooLong })
        .transform((v) => (v ? v : null))
        .optional(),
      registration: registrationSchema,
    },
    { error: 'vehicle must be an object with make, model, year and registration' },
  );

/** Every field optional but at least one, plus the reason and the version the form was opened at. */
export const jobEditBody = (now: Date = new Date()) =>
  z
    .strictObject({
      customerValue: price.optional(),
      address: requiredText(MSG.staffAddress, 1, 500).optional(),
      suburb: requiredText(MSG.staffSuburb, 1, 100).optional(),
      postcode: postcodeSchema.optional(),
      vehicle: vehicle(now).optional(),
      notes: clearableText(2000, MSG.notesTooLong).optional(),
      tyreSize: tyreSize.optional(),
      tyreQuantity: z
        .union([z.int(), z.null()], { error: TYRE_QUANTITY })
        .refine((v) => v === null || (v >= MIN_TYRE_QUANTITY && v <= MAX_TYRE_QUANTITY), TYRE_QUANTITY)
        .optional(),
      tyreBrand: clearableText(100, MSG.tyreBrandTooLong).optional(),
      reason: z.string({ error: REASON_REQUIRED }).trim().min(1, REASON_REQUIRED).max(500, REASON_TOO_LONG),
      version: z.int({ error: INVALID_VERSION }).min(0, INVALID_VERSION),
    })
    .refine(
      (b) =>
        [
          b.customerValue,
          b.address,
          b.suburb,
          b.postcode,
          b.vehicle,
          b.notes,
          b.tyreSize,
          b.tyreQuantity,
          b.tyreBrand,
        ].some((v) => v !== undefined),
      NOTHING_TO_EDIT,
    );

/** The messages a job edit's body can be refused with (OpenAPI). */
export const JOB_EDIT_MESSAGES = [
  INVALID_PRICE,
  PRICE_TOO_LARGE,
  REASON_REQUIRED,
  REASON_TOO_LONG,
  INVALID_VERSION,
  NOTHING_TO_EDIT,
  TYRE_QUANTITY,
  MSG.tyreSize,
  MSG.staffAddress,
  MSG.staffSuburb,
  MSG.postcode,
  MSG.make,
  MSG.model,
  MSG.registration,
  MSG.registrationTooLong,
  MSG.colorTooLong,
  MSG.notesTooLong,
  MSG.tyreBrandTooLong,
  'Vehicle year must be between 1900 and {maxYear}',
  'Unrecognized key: "{key}"',
];

const fieldName = z.enum([
  'customerValue',
  'address',
  'suburb',
  'postcode',
  'vehicle',
  'notes',
  'tyreSize',
  'tyreQuantity',
  'tyreBrand',
]);

export const JobHistorySchema = z
  .object({
    jobId: z.uuid(),
    jobNumber: z.string(),
    version: z
      .int()
      .min(0)
      .meta({ description: 'The edit version now: what the next edit sends as `version`' }),
    edits: z.array(
      z.object({
        version: z.int().min(1),
        editedAt: z.string(),
        editedBy: z.object({ id: z.uuid(), username: z.string() }),
        reason: z.string(),
        changes: z.array(
          z.object({
            field: fieldName,
            before: z.unknown(),
            after: z.unknown(),
            erased: z.boolean().optional(),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'JobHistory' });
