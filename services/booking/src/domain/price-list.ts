/**
 * The price list (issue 19 item 5): the fee schedule and the tyre catalogue as versions with an effective-from
 * instant. The list in force at a moment is, per fee schedule and per tyre, the latest version whose effectiveFrom
 * is at or before that moment (a tie goes to the later-recorded one). Quotes price from the list in force at quote
 * time; a booking stores what it was quoted, so a later change never touches it. No I/O here.
 *
 * effectiveFrom is an instant (timestamptz). The API takes a Perth calendar date ("2032-03-01": from Perth midnight)
 * or an ISO date-time with an offset; omitted means now. It can't be in the past: a change never applies to quotes
 * already given.
 */
import { z } from 'zod';
import {
  DEFAULT_CARD_SURCHARGE_BP,
  formatMoney,
  MAX_CARD_SURCHARGE_BP,
  parseSurchargeRate,
  surchargeRateToWire,
  type SurchargeRate,
  isCalendarDate,
  normalizeTyreSize,
  parseMoneyInput,
  perthClock,
  perthClock12,
  perthDate,
  perthInstant,
  PRICE_LIST,
  type Cents,
  type QuoteFees,
} from '@tyres/kernel';

/** The fees an admin edits, in the order the screen shows them. */
export const FEE_KEYS = [
  'calloutFee',
  'punctureRepair',
  'fittingPerTyre',
  'balancingPerTyre',
  'prepaidDiscount',
] as const;
export type FeeKey = (typeof FEE_KEYS)[number];
/** The money fees plus the card surcharge rate (basis points: 1.70% = 170n), versioned together. */
export type FeeSchedule = QuoteFees & { cardSurchargeRate: SurchargeRate };
/** Every field of a fee schedule version the API shows and takes: the money fees, then the rate. */
export const SCHEDULE_KEYS = [...FEE_KEYS, 'cardSurchargeRate'] as const;
export type ScheduleKey = (typeof SCHEDULE_KEYS)[number];

export const FEE_LABELS: Readonly<Record<FeeKey, string>> = {
  calloutFee: 'Callout fee',
  punctureRepair: 'Puncture repair',
  fittingPerTyre: 'Fitting (per tyre)',
  balancingPerTyre: 'Balancing (per tyre)',
  prepaidDiscount: 'Prepaid online discount',
};
export const RATE_LABEL = 'Card surcharge (%)';

/** Today's constants (spec section 9, the kernel's PRICE_LIST): the seeded version. */
export const SEED_FEES: FeeSchedule = {
  calloutFee: PRICE_LIST.calloutFee,
  punctureRepair: PRICE_LIST.punctureRepair,
  fittingPerTyre: PRICE_LIST.fittingPerTyre,
  balancingPerTyre: PRICE_LIST.balancingPerTyre,
  prepaidDiscount: PRICE_LIST.prepaidDiscount,
  cardSurchargeRate: DEFAULT_CARD_SURCHARGE_BP,
};

/** Prices that are not on the editable list, shown read-only on the admin screen with why. */
export const FIXED_PRICES = [
  {
    key: 'batteryService',
    label: 'Battery service',
    value: formatMoney(PRICE_LIST.batteryService),
    note: 'Quoted on site: booked at 0 and priced by the technician.',
  },
] as const;

/** A fee, tyre price limit: $10,000 (a typo guard well below the money limit). */
export const MAX_PRICE_CENTS = 1_000_000n;
/** Changes can be scheduled at most this far ahead. */
export const MAX_SCHEDULE_DAYS = 730;
/** Clock skew allowed for "now" sent by a browser. */
const PAST_TOLERANCE_MS = 60_000;

export const PRICE_MSG = {
  money: 'must be an amount in dollars, e.g. "149.00"',
  places: 'must have at most 2 decimal places (whole cents)',
  negative: 'must not be negative',
  tooLarge: 'must be at most 10000.00',
  zeroTyre: 'a tyre price must be more than 0.00',
  discountAboveCallout:
    'the prepaid discount must not be more than the callout fee (it is taken off the callout line)',
  effectiveFrom:
    'effectiveFrom must be a Perth date (YYYY-MM-DD) or an ISO date-time with a UTC offset, e.g. 2032-03-01T08:00:00+08:00',
  effectiveFromPast: 'effectiveFrom must be now or later: a price change never applies to the past',
  effectiveFromFar: `effectiveFrom must be within ${MAX_SCHEDULE_DAYS} days`,
  reason: 'reason is required (3 to 500 characters): it goes on the audit history',
  size: 'size must be width/profile R rim, e.g. 205/55R16',
  nothingToChange: 'give a new price or inStock (or both)',
  tyreNotFound: 'Tyre not found in the catalogue',
  changeNotFound: 'Scheduled change not found',
  tyreExists:
    'That tyre (size, brand and model) is already in the catalogue: change its price or stock instead',
  rate: `cardSurchargeRate must be a percentage from 0 to ${surchargeRateToWire(MAX_CARD_SURCHARGE_BP)} with at most 2 decimal places, e.g. "1.70" (a surcharge must not exceed the cost of accepting cards)`,
  alreadyInForce: 'This change is already in force and cannot be cancelled: schedule a new change instead',
  sameAsInForce: 'Nothing changes: the values are the same as the version in force at that time',
} as const;

/**
 * A money amount from a person (the kernel's parseMoneyInput, spec section 5's stored data rules): a decimal string
 * or a number with at most two places, a leading "$" and thousands separators allowed. Never negative, at most
 * MAX_PRICE_CENTS. Throws nothing: an error message or cents.
 */
export function parsePrice(input: unknown): { ok: true; cents: Cents } | { ok: false; message: string } {
  const r = parseMoneyInput(input);
  if (!r.ok)
    return {
      ok: false,
      message:
        r.reason === 'too-many-places'
          ? PRICE_MSG.places
          : r.reason === 'too-large'
            ? PRICE_MSG.tooLarge
            : PRICE_MSG.money,
    };
  if (r.cents < 0n) return { ok: false, message: PRICE_MSG.negative };
  if (r.cents > MAX_PRICE_CENTS) return { ok: false, message: PRICE_MSG.tooLarge };
  return { ok: true, cents: r.cents };
}

/** A tyre size as width/profile R rim ("205/55R16"; "205/55 R16", "205/55ZR16" accepted), or undefined. */
export function catalogueSize(raw: unknown): string | undefined {
  return normalizeTyreSize(raw);
}

/**
 * effectiveFrom from the API: omitted/null → now; a Perth date → Perth midnight; an ISO date-time with an offset →
 * that instant. Not in the past (a minute of clock skew allowed, then it means now), at most MAX_SCHEDULE_DAYS ahead.
 */
export function parseEffectiveFrom(
  value: unknown,
  now: Date,
): { ok: true; at: Date } | { ok: false; message: string } {
  if (value === undefined || value === null || value === '') return { ok: true, at: now };
  if (typeof value !== 'string') return { ok: false, message: PRICE_MSG.effectiveFrom };
  let at: Date;
  if (isCalendarDate(value)) at = perthInstant(value, '00:00');
  else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    at = new Date(value);
    if (Number.isNaN(at.getTime())) return { ok: false, message: PRICE_MSG.effectiveFrom };
  } else return { ok: false, message: PRICE_MSG.effectiveFrom };
  if (at.getTime() < now.getTime() - PAST_TOLERANCE_MS) {
    // A Perth date of today means "from today": in force now.
    if (isCalendarDate(value) && at.getTime() + 86_400_000 > now.getTime()) return { ok: true, at: now };
    return { ok: false, message: PRICE_MSG.effectiveFromPast };
  }
  if (at.getTime() > now.getTime() + MAX_SCHEDULE_DAYS * 86_400_000)
    return { ok: false, message: PRICE_MSG.effectiveFromFar };
  return { ok: true, at: at.getTime() < now.getTime() ? now : at };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** An effectiveFrom as an admin reads it: "1 Jan 2027 (Perth)", with the time when not Perth midnight. */
export function effectiveLabel(at: Date): string {
  const [y, m, d] = perthDate(at).split('-');
  const clock = perthClock(at) === '00:00' ? '' : ` at ${perthClock12(at)}`;
  return `${Number(d)} ${MONTHS[Number(m) - 1]} ${y}${clock} (Perth)`;
}

/**
 * 409 when a change would sit before a version already scheduled after it: versions are full snapshots, so the
 * scheduled one (taken before this change) would undo it on its date. `when`: effectiveLabel of its effectiveFrom
 * (the OpenAPI document passes "{date}").
 */
export const scheduledLaterMessage = (subject: 'tyre' | 'fees', when: string): string =>
  `${subject === 'tyre' ? 'A change to this tyre' : 'A new fee schedule'} is scheduled for ${when}. ` +
  'Cancel that scheduled change first, so it does not undo this one (then schedule it again with this change in it).';

/** Anything versioned: when it takes effect and when it was recorded (the tie-break). */
export interface Versioned {
  effectiveFrom: Date;
  createdAt: Date;
}

const later = (a: Versioned, b: Versioned) =>
  a.effectiveFrom.getTime() - b.effectiveFrom.getTime() || a.createdAt.getTime() - b.createdAt.getTime();

/** The version in force at `at`: the latest effectiveFrom ≤ at (the later-recorded on a tie); undefined if none. */
export function inForce<T extends Versioned>(versions: readonly T[], at: Date): T | undefined {
  let best: T | undefined;
  for (const v of versions)
    if (v.effectiveFrom.getTime() <= at.getTime() && (!best || later(v, best) > 0)) best = v;
  return best;
}

/** The versions that take effect after `at`, soonest first. */
export function scheduledAfter<T extends Versioned>(versions: readonly T[], at: Date): T[] {
  return versions.filter((v) => v.effectiveFrom.getTime() > at.getTime()).sort(later);
}

/** Fees as the API shows them (money strings; the rate as a percentage with two places, "1.70"). */
export function feesView(fees: FeeSchedule): Record<ScheduleKey, string> {
  return {
    ...(Object.fromEntries(FEE_KEYS.map((k) => [k, formatMoney(fees[k])])) as Record<FeeKey, string>),
    cardSurchargeRate: surchargeRateToWire(fees.cardSurchargeRate),
  };
}

const reason = z
  .string({ error: PRICE_MSG.reason })
  .trim()
  .min(3, { error: PRICE_MSG.reason })
  .max(500, { error: PRICE_MSG.reason });
const effectiveFrom = z.string({ error: PRICE_MSG.effectiveFrom }).nullish();
const money = z.union([z.string(), z.number()], { error: PRICE_MSG.money });

/** PUT /api/dashboard/prices/fees: a whole new fee schedule (every fee), from effectiveFrom. */
export const feeScheduleSchema = z.strictObject({
  calloutFee: money,
  punctureRepair: money,
  fittingPerTyre: money,
  balancingPerTyre: money,
  prepaidDiscount: money,
  cardSurchargeRate: z.union([z.string(), z.number()], { error: PRICE_MSG.rate }),
  effectiveFrom,
  reason,
});

/** POST /api/dashboard/prices/tyres: a tyre new to the catalogue, offered from effectiveFrom. */
export const tyreCreateSchema = z.strictObject({
  size: z.string({ error: PRICE_MSG.size }).max(50, { error: PRICE_MSG.size }),
  brand: z
    .string()
    .trim()
    .min(1, { error: 'brand is required' })
    .max(60, { error: 'brand is at most 60 characters' }),
  model: z
    .string()
    .trim()
    .min(1, { error: 'model is required' })
    .max(80, { error: 'model is at most 80 characters' }),
  price: money,
  inStock: z.boolean({ error: 'inStock must be true or false' }).default(true),
  effectiveFrom,
  reason,
});

/** PUT /api/dashboard/prices/tyres/{id}: a new price and/or stock state from effectiveFrom. */
export const tyreChangeSchema = z.strictObject({
  price: money.optional(),
  inStock: z.boolean({ error: 'inStock must be true or false' }).optional(),
  effectiveFrom,
  reason,
});

/** DELETE /api/dashboard/prices/changes/{id}: cancelling a scheduled change needs a reason too. */
export const cancelChangeSchema = z.strictObject({ reason });

/** The fee schedule from the request's money fields, or the first error (field and message). */
export function parseFees(
  body: Record<ScheduleKey, unknown>,
): { ok: true; fees: FeeSchedule } | { ok: false; field: ScheduleKey; message: string } {
  const fees = {} as FeeSchedule;
  for (const key of FEE_KEYS) {
    const p = parsePrice(body[key]);
    if (!p.ok) return { ok: false, field: key, message: `${key} ${p.message}` };
    fees[key] = p.cents;
  }
  const rate = parseSurchargeRate(body.cardSurchargeRate);
  if (rate === undefined) return { ok: false, field: 'cardSurchargeRate', message: PRICE_MSG.rate };
  fees.cardSurchargeRate = rate;
  if (fees.prepaidDiscount > fees.calloutFee)
    return { ok: false, field: 'prepaidDiscount', message: PRICE_MSG.discountAboveCallout };
  return { ok: true, fees };
}

export const sameFees = (a: FeeSchedule, b: FeeSchedule): boolean =>
  FEE_KEYS.every((k) => a[k] === b[k]) && a.cardSurchargeRate === b.cardSurchargeRate;
