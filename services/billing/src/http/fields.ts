import { z } from 'zod';
import { parseDateInput, parseInstantInput, type IsoDate } from '../domain/dates';
import { parseMoneyInput, type Cents } from '@tyres/kernel';

/** Messages of the spec's stored-data rules (section 5). */
export const MESSAGES = {
  decimal: 'Must be a valid decimal amount',
  date: 'Invalid date format',
  tooLarge: 'Amount is too large',
} as const;

/**
 * The fields below take `any` and check it themselves (so each gets the spec's message); these are what they
 * accept, for the OpenAPI document (./openapi.ts).
 */
const MONEY_DOC = 'A decimal amount with up to two places, as a string ("139.5") or a number';
const DATE_DOC = 'A calendar date: YYYY-MM-DD, or a date-time read as a Perth date';

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

interface MoneyRules {
  /** Missing or blank. */
  required: string;
  /** Not a number at all. */
  invalid: string;
  positive?: string;
  nonNegative?: string;
}

/** The money rules shared by required and optional inputs: cents, or the message of the first broken rule. */
function checkMoney(value: unknown, rules: Omit<MoneyRules, 'required'>): Cents | { message: string } {
  const parsed = parseMoneyInput(value);
  if (!parsed.ok) {
    const message =
      parsed.reason === 'not-a-number'
        ? rules.invalid
        : parsed.reason === 'too-large'
          ? MESSAGES.tooLarge
          : MESSAGES.decimal;
    return { message };
  }
  if (rules.positive && parsed.cents <= 0n) return { message: rules.positive };
  if (rules.nonNegative && parsed.cents < 0n) return { message: rules.nonNegative };
  return parsed.cents;
}

/** A money input (decimal string with up to 2 places, or a number) as integer cents (kernel parseMoneyInput). */
export function money(rules: MoneyRules) {
  return z
    .any()
    .optional()
    .transform((value: unknown, ctx): Cents => {
      if (blank(value)) {
        ctx.addIssue({ code: 'custom', message: rules.required });
        return z.NEVER;
      }
      const checked = checkMoney(value, rules);
      if (typeof checked === 'object') {
        ctx.addIssue({ code: 'custom', message: checked.message });
        return z.NEVER;
      }
      return checked;
    })
    .meta({ override: { type: ['string', 'number'], description: MONEY_DOC } });
}

/** An optional money input: absent stays undefined (PATCH), blank is undefined too. */
export function optionalMoney(rules: Omit<MoneyRules, 'required'>) {
  return z
    .any()
    .optional()
    .transform((value: unknown, ctx): Cents | undefined => {
      if (blank(value)) return undefined;
      const checked = checkMoney(value, rules);
      if (typeof checked === 'object') {
        ctx.addIssue({ code: 'custom', message: checked.message });
        return z.NEVER;
      }
      return checked;
    })
    .meta({ override: { type: ['string', 'number', 'null'], description: `${MONEY_DOC}; blank is none` } });
}

/** A required calendar date (date, ISO date-time or parseable string). */
export function requiredDate(requiredMessage: string) {
  return z
    .any()
    .optional()
    .transform((value: unknown, ctx): IsoDate => {
      const parsed = parseDateInput(value);
      if (!parsed.ok) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.date });
        return z.NEVER;
      }
      if (parsed.value === null) {
        ctx.addIssue({ code: 'custom', message: requiredMessage });
        return z.NEVER;
      }
      return parsed.value;
    })
    .meta({ override: { type: 'string', description: DATE_DOC } });
}

/** An optional calendar date: absent is undefined (unchanged), empty becomes null. */
export function optionalDate() {
  return z
    .any()
    .optional()
    .transform((value: unknown, ctx): IsoDate | null | undefined => {
      if (value === undefined) return undefined;
      const parsed = parseDateInput(value);
      if (!parsed.ok) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.date });
        return z.NEVER;
      }
      return parsed.value;
    })
    .meta({ override: { type: ['string', 'null'], description: `${DATE_DOC}; empty is none` } })
    .optional();
}

/** An optional instant (paidAt): absent undefined, empty null. */
export function optionalInstant() {
  return z
    .any()
    .optional()
    .transform((value: unknown, ctx): Date | null | undefined => {
      if (value === undefined) return undefined;
      const parsed = parseInstantInput(value);
      if (!parsed.ok) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.date });
        return z.NEVER;
      }
      return parsed.value;
    })
    .meta({
      override: {
        type: ['string', 'null'],
        description: 'An instant (ISO-8601) or a calendar date; empty is none',
      },
    })
    .optional();
}

/** A required, trimmed, non-empty text. */
export function requiredText(message: string, max: number) {
  return z.string({ error: message }).trim().min(1, message).max(max, `Must be ${max} characters or fewer`);
}

/** Optional text: empty or missing becomes null. */
export function optionalText(max: number) {
  return z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, `Must be ${max} characters or fewer`)
    .nullish()
    .transform((v) => (v ? v : null));
}

/** A boolean (JSON true/false; "true"/"false" accepted from forms). */
export function flag(message: string) {
  return z.preprocess(
    (v) => (v === 'true' ? true : v === 'false' ? false : v),
    z.boolean({ error: message }),
  );
}

/** A positive whole number up to `max` (line-item quantity); missing defaults to 1. */
export function positiveQuantity(message: string, max: number, tooLargeMessage: string) {
  return z
    .any()
    .optional()
    .transform((value: unknown, ctx): number => {
      if (value === undefined || value === null || value === '') return 1;
      const n =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && /^\s*\d+\s*$/.test(value)
            ? Number(value)
            : Number.NaN;
      if (!Number.isSafeInteger(n) || n <= 0) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      if (n > max) {
        ctx.addIssue({ code: 'custom', message: tooLargeMessage });
        return z.NEVER;
      }
      return n;
    })
    .meta({
      override: {
        type: ['integer', 'string'],
        description: `A whole number from 1 to ${max}; missing is 1`,
      },
    });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
