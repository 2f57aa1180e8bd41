/**
 * Money and GST, written once for every service and both front ends (issue 12, docs/decisions.md "Prices include
 * GST"). All arithmetic is in integer cents (bigint): no floating point ever touches an amount. Every rounding is
 * half-up to the cent (half away from zero for negative amounts, as for credits), the rule the business's
 * accountant and the ATO's GST calculators use.
 *
 * - A price a customer sees is GST-inclusive: its GST is total ÷ 11, ex-GST is total − GST.
 * - A customer invoice is either tax inclusive (its line amounts include GST; generated invoices) or tax exclusive
 *   (GST = 10% of the line sum, added on top; the spec's original rule). GST-free lines carry no GST either way.
 * - Purchase invoices and expenses are entered GST-inclusive (total ÷ 11), or GST-free (no GST).
 * - Card payments add a card surcharge on the amount paid, rounded half-up to the cent. The rate is on booking's
 *   price list (issue 19 item 5: editable, 0.00%-5.00%, hundredths of a percent); a payment records the rate it used.
 */

/** An amount in integer cents. */
export type Cents = bigint;

/** Money on the wire: a decimal string with exactly two places ("123.45", "-5.00"). */
export const MONEY_PATTERN = /^-?\d+\.\d{2}$/;

/** GST rate, as a percentage. */
export const GST_PERCENT = 10n;
/**
 * A card surcharge rate in basis points (hundredths of a percent: 1.70% = 170n). The rate in force is on booking's
 * price list; this is the seeded one (and the fallback only where no rate was ever recorded, e.g. old rows).
 */
export type SurchargeRate = bigint;
/** The seeded card surcharge rate: 1.70%. */
export const DEFAULT_CARD_SURCHARGE_BP: SurchargeRate = 170n;
/** Card surcharge rate in tenths of a percent (1.7% = 17‰): the seeded rate, kept for old callers. */
export const CARD_SURCHARGE_PER_MILLE = 17n;
/**
 * The highest rate the price list accepts: 5.00%. The RBA's rule is that a surcharge must not exceed the merchant's
 * cost of acceptance; card costs for a small business are well under this, so 5% is a typo guard, not a licence.
 */
export const MAX_CARD_SURCHARGE_BP: SurchargeRate = 500n;
/** The card surcharge as shown to customers and on invoice lines (the seeded rate). */
export const CARD_SURCHARGE_LABEL = '1.7%';
/** Description of the surcharge line on a prepaid booking's invoice (the seeded rate). */
export const CARD_SURCHARGE_LINE = `Card surcharge ${CARD_SURCHARGE_LABEL}`;

/** A rate on the wire: "1.70" (a percentage with exactly two places). */
export function surchargeRateToWire(bp: SurchargeRate): string {
  return `${bp / 100n}.${(bp % 100n).toString().padStart(2, '0')}`;
}

/** A rate as the business writes it: "1.7%", "1.5%", "2%", "1.75%" (trailing zeros dropped). */
export function formatSurchargeRate(bp: SurchargeRate): string {
  const units = bp / 100n;
  const fraction = (bp % 100n).toString().padStart(2, '0').replace(/0+$/, '');
  return `${units}${fraction ? `.${fraction}` : ''}%`;
}

/** The surcharge line's description at a rate: "Card surcharge 1.7%". */
export function cardSurchargeLine(bp: SurchargeRate = DEFAULT_CARD_SURCHARGE_BP): string {
  return `Card surcharge ${formatSurchargeRate(bp)}`;
}

/**
 * A rate from a person or a row: a percentage with up to two places ("1.7", "1.70", 1.5, "2"; a trailing "%"
 * allowed), 0 to MAX_CARD_SURCHARGE_BP. Undefined when it is not one.
 */
export function parseSurchargeRate(input: unknown): SurchargeRate | undefined {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return undefined;
    const scaled = Math.round(input * 100);
    if (Math.abs(input * 100 - scaled) > 1e-6) return undefined;
    text = (scaled / 100).toFixed(2);
  } else if (typeof input === 'string') text = input.trim().replace(/\s*%$/, '');
  else return undefined;
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return undefined;
  const bp = BigInt(m[1]!) * 100n + BigInt((m[2] ?? '').padEnd(2, '0'));
  return bp > MAX_CARD_SURCHARGE_BP ? undefined : bp;
}
/** The largest amount a Decimal(10,2) column holds, in cents (99,999,999.99). */
export const MAX_MONEY_CENTS = 9_999_999_999n;

/** How an invoice's line amounts relate to GST (Xero and MYOB: "Tax inclusive" / "Tax exclusive"). */
export type AmountType = 'inclusive' | 'exclusive';
export const AMOUNT_TYPES: readonly AmountType[] = ['inclusive', 'exclusive'];
/** What an invoice says about its amounts, on screen and on the PDF. */
export const AMOUNT_TYPE_LABEL: Readonly<Record<AmountType, string>> = {
  inclusive: 'Amounts include GST',
  exclusive: 'GST added',
};

/** n ÷ d rounded half away from zero (d > 0). */
export function divideRounded(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError('divisor must be positive');
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const q = (abs * 2n + d) / (2n * d);
  return negative ? -q : q;
}

/** Integer cents from a money string with up to two places ("12", "12.5", "-0.05", "12.50"). */
export function toCents(value: string): Cents {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!m) throw new RangeError(`Not a decimal with at most 2 places: ${JSON.stringify(value)}`);
  const [, sign = '', units = '0', fraction = ''] = m;
  const abs = BigInt(units) * 100n + BigInt(fraction.padEnd(2, '0'));
  return sign === '-' && abs !== 0n ? -abs : abs;
}

/** "12.50" from cents: the wire format for money. */
export function formatMoney(cents: Cents): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** "$1,234.50" (or "-$5.00") for screens, documents and emails. */
export function formatAud(cents: Cents): string {
  const fixed = formatMoney(cents);
  const negative = fixed.startsWith('-');
  const [units = '0', fraction = '00'] = (negative ? fixed.slice(1) : fixed).split('.');
  return `${negative ? '-' : ''}$${units.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/** Quantity × unit price (both exact: the unit price has at most two places). */
export function lineAmount(quantity: number, unitPrice: Cents): Cents {
  if (!Number.isInteger(quantity)) throw new RangeError('quantity must be a whole number');
  return BigInt(quantity) * unitPrice;
}

/** The GST inside a GST-inclusive amount: total ÷ 11, half-up to the cent. */
export function gstInInclusive(total: Cents): Cents {
  return divideRounded(total, 11n);
}

/** GST added on top of an ex-GST amount: 10%, half-up to the cent. */
export function gstOnTop(exGst: Cents): Cents {
  return divideRounded(exGst * GST_PERCENT, 100n);
}

/** A GST-inclusive amount split into its parts. */
export interface InclusiveSplit {
  total: Cents;
  gst: Cents;
  /** total − gst. */
  exGst: Cents;
}

/** Splits a GST-inclusive total (quotes, bookings, purchase invoices, expenses); GST-free amounts carry none. */
export function splitInclusive(total: Cents, gstFree = false): InclusiveSplit {
  const gst = gstFree ? 0n : gstInInclusive(total);
  return { total, gst, exGst: total - gst };
}

/** The card surcharge at `rate` (basis points; the seeded 1.70% when omitted) on an amount, half-up to the cent. */
export function cardSurcharge(amount: Cents, rate: SurchargeRate = DEFAULT_CARD_SURCHARGE_BP): Cents {
  return divideRounded(amount * rate, 10_000n);
}

export interface SurchargedAmount {
  /** What was owed before paying by card. */
  original: Cents;
  surcharge: Cents;
  /** original + surcharge: what the card is charged. */
  total: Cents;
}

export function withCardSurcharge(
  amount: Cents,
  rate: SurchargeRate = DEFAULT_CARD_SURCHARGE_BP,
): SurchargedAmount {
  const surcharge = cardSurcharge(amount, rate);
  return { original: amount, surcharge, total: amount + surcharge };
}

/** One line of an invoice, as far as its totals are concerned. */
export interface TaxLine {
  /** quantity × unit price, as entered on the invoice (inclusive or exclusive of GST per the invoice). */
  amount: Cents;
  /** A line that carries no GST (e.g. a pass-through fee). */
  gstFree?: boolean;
}

export interface InvoiceTotals {
  /** Ex-GST amount of the invoice (total − GST), whatever its amount type. */
  subtotal: Cents;
  gst: Cents;
  /** What the customer pays. */
  total: Cents;
}

/**
 * An invoice's totals from its lines. GST is computed once on the sum of taxable lines (not per line), so a
 * tax-inclusive invoice's total is exactly the sum of its lines and its GST is that taxable sum ÷ 11.
 */
export function invoiceTotals(lines: readonly TaxLine[], amountType: AmountType): InvoiceTotals {
  let sum = 0n;
  let taxable = 0n;
  for (const line of lines) {
    sum += line.amount;
    if (!line.gstFree) taxable += line.amount;
  }
  if (amountType === 'inclusive') {
    const gst = gstInInclusive(taxable);
    return { subtotal: sum - gst, gst, total: sum };
  }
  const gst = gstOnTop(taxable);
  return { subtotal: sum, gst, total: sum + gst };
}

export interface CategorisedLine<C extends string> extends TaxLine {
  category: C;
}

/**
 * Ex-GST amount per category (P&L income by stream), adding up exactly to the invoice's subtotal. For a tax
 * inclusive invoice each category's GST share is its taxable amount ÷ 11; the cent lost or gained by rounding
 * the shares separately goes to the category with the largest taxable amount, so categories and invoice agree.
 */
export function exGstByCategory<C extends string>(
  lines: readonly CategorisedLine<C>[],
  amountType: AmountType,
): Map<C, Cents> {
  const gross = new Map<C, Cents>();
  const taxable = new Map<C, Cents>();
  for (const line of lines) {
    gross.set(line.category, (gross.get(line.category) ?? 0n) + line.amount);
    if (!line.gstFree) taxable.set(line.category, (taxable.get(line.category) ?? 0n) + line.amount);
  }
  if (amountType === 'exclusive') return gross;
  const out = new Map<C, Cents>();
  let shares = 0n;
  let largest: C | undefined;
  for (const [category, amount] of gross) {
    const share = gstInInclusive(taxable.get(category) ?? 0n);
    shares += share;
    out.set(category, amount - share);
    const t = taxable.get(category) ?? 0n;
    if (largest === undefined || t > (taxable.get(largest) ?? 0n)) largest = category;
  }
  const gst = invoiceTotals(lines, 'inclusive').gst;
  if (largest !== undefined && shares !== gst) out.set(largest, (out.get(largest) ?? 0n) - (gst - shares));
  return out;
}

/** Why a money input was refused. */
export type MoneyInputError = 'not-a-number' | 'too-many-places' | 'too-large';

const DECIMAL_STRING = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const TWO_PLACES = /^[+-]?\d*(\.\d{0,2})?$/;

/**
 * Money typed by a person or sent by a client (spec section 5, "Stored data rules"): a decimal string with up to
 * two places (a leading "$" and thousands separators allowed), or a JSON number with up to two places. A number
 * that differs from its cent value only by floating-point noise (0.30000000000000004) is read as that value.
 */
export function parseMoneyInput(
  input: unknown,
): { ok: true; cents: Cents } | { ok: false; reason: MoneyInputError } {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, reason: 'not-a-number' };
    const scaled = input * 100;
    const rounded = Math.round(scaled);
    if (Math.abs(scaled - rounded) > 1e-4) return { ok: false, reason: 'too-many-places' };
    if (!Number.isSafeInteger(rounded)) return { ok: false, reason: 'too-large' };
    const cents = BigInt(rounded);
    if ((cents < 0n ? -cents : cents) > MAX_MONEY_CENTS) return { ok: false, reason: 'too-large' };
    return { ok: true, cents };
  } else if (typeof input === 'string') {
    text = input
      .trim()
      .replace(/^\$/, '')
      .replace(/,(?=\d{3}(\D|$))/g, '');
  } else {
    return { ok: false, reason: 'not-a-number' };
  }
  if (!DECIMAL_STRING.test(text)) return { ok: false, reason: 'not-a-number' };
  if (!TWO_PLACES.test(text)) return { ok: false, reason: 'too-many-places' };
  const negative = text.startsWith('-');
  const unsigned = text.replace(/^[+-]/, '');
  const [units = '', fraction = ''] = unsigned.split('.');
  if (units.replace(/^0+/, '').length > 10) return { ok: false, reason: 'too-large' };
  const abs = BigInt(units || '0') * 100n + BigInt(fraction.padEnd(2, '0') || '0');
  if (abs > MAX_MONEY_CENTS) return { ok: false, reason: 'too-large' };
  return { ok: true, cents: negative && abs !== 0n ? -abs : abs };
}
