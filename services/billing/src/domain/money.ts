import { Decimal } from '@prisma/client/runtime/client';
import { CARD_SURCHARGE_RATE, GST_RATE, MAX_MONEY } from './constants';

export { Decimal };
export type DecimalValue = Decimal | string;

/** Commercial rounding to the cent (half away from zero), the rule for every amount billing computes. */
export function toCents(value: Decimal.Value): Decimal {
  return new Decimal(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** A money string with exactly two decimals ("12.50"), from a Decimal or decimal string. */
export function moneyString(value: Decimal.Value): string {
  return toCents(value).toFixed(2);
}

/** Integer cents (Stripe amounts). */
export function centsOf(value: Decimal.Value): number {
  return toCents(value).mul(100).toNumber();
}

/** Line total = quantity × unit price, to the cent. */
export function lineTotal(quantity: number, unitPrice: Decimal.Value): Decimal {
  return toCents(new Decimal(unitPrice).mul(quantity));
}

export interface InvoiceTotals {
  subtotalAmount: Decimal;
  gstAmount: Decimal;
  totalAmount: Decimal;
}

/** True when an amount fits a Decimal(10,2) column (|value| ≤ 99,999,999.99). */
export function fitsMoneyColumn(value: Decimal.Value): boolean {
  return new Decimal(value).abs().lte(MAX_MONEY);
}

/** True when every amount of an invoice (subtotal, GST, total) fits its column. */
export function totalsFit(totals: InvoiceTotals): boolean {
  return (
    fitsMoneyColumn(totals.subtotalAmount) &&
    fitsMoneyColumn(totals.gstAmount) &&
    fitsMoneyColumn(totals.totalAmount)
  );
}

/** Customer invoices: GST is 10% of the line-item sum, added on top. */
export function gstOnTop(subtotal: Decimal.Value): InvoiceTotals {
  const subtotalAmount = toCents(subtotal);
  const gstAmount = toCents(subtotalAmount.mul(GST_RATE));
  return { subtotalAmount, gstAmount, totalAmount: subtotalAmount.plus(gstAmount) };
}

/** Customer invoice totals from its line totals. */
export function invoiceTotals(lineTotals: readonly Decimal.Value[]): InvoiceTotals {
  return gstOnTop(lineTotals.reduce<Decimal>((sum, t) => sum.plus(t), new Decimal(0)));
}

export interface GstInclusiveSplit {
  totalAmount: Decimal;
  gstAmount: Decimal;
  /** Total minus GST. */
  exGstAmount: Decimal;
}

/** Purchase invoices and expenses: GST is the GST-inclusive total / 11; ex-GST is total − GST (to the cent). */
export function gstInclusive(total: Decimal.Value): GstInclusiveSplit {
  const totalAmount = toCents(total);
  const gstAmount = toCents(totalAmount.div(11));
  return { totalAmount, gstAmount, exGstAmount: totalAmount.minus(gstAmount) };
}

export interface SurchargedAmount {
  originalAmount: Decimal;
  surchargeAmount: Decimal;
  totalAmount: Decimal;
}

/** Card payments: amount + 1.7% surcharge, the surcharge rounded to the cent. */
export function withCardSurcharge(amount: Decimal.Value): SurchargedAmount {
  const originalAmount = toCents(amount);
  const surchargeAmount = toCents(originalAmount.mul(CARD_SURCHARGE_RATE));
  return { originalAmount, surchargeAmount, totalAmount: originalAmount.plus(surchargeAmount) };
}

export type MoneyParseResult =
  { ok: true; value: Decimal } | { ok: false; reason: 'not-a-number' | 'too-many-places' | 'too-large' };

const DECIMAL_STRING = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const TWO_PLACES = /^[+-]?\d*(\.\d{0,2})?$/;

/** How far a JSON number may sit from its cent value and still be read as that cent value (float noise). */
const FLOAT_NOISE = 1e-6;

/**
 * Money input of the stored-data rules (spec section 5): a decimal string with up to 2 places, or a JSON number
 * with up to 2 places. A number is read as its cent value when it differs from it only by floating-point noise
 * (clients computing in floating point send 0.30000000000000004); 12.345 has 3 places and is refused like "12.345".
 * Blank is not a number.
 */
export function parseMoney(input: unknown): MoneyParseResult {
  let value: Decimal;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, reason: 'not-a-number' };
    const exact = new Decimal(input);
    value = toCents(exact);
    if (exact.minus(value).abs().gt(FLOAT_NOISE)) return { ok: false, reason: 'too-many-places' };
  } else if (typeof input === 'string') {
    const text = input
      .trim()
      .replace(/^\$/, '')
      .replace(/,(?=\d{3}(\D|$))/g, '');
    if (!DECIMAL_STRING.test(text)) return { ok: false, reason: 'not-a-number' };
    if (!TWO_PLACES.test(text)) return { ok: false, reason: 'too-many-places' };
    value = new Decimal(text);
  } else {
    return { ok: false, reason: 'not-a-number' };
  }
  if (value.abs().gt(MAX_MONEY)) return { ok: false, reason: 'too-large' };
  // Normalise -0 to 0.
  return { ok: true, value: value.isZero() ? new Decimal(0) : value };
}

/** "$1,234.50" for documents and emails. */
export function formatAud(value: Decimal.Value): string {
  const fixed = moneyString(value);
  const negative = fixed.startsWith('-');
  const [units = '0', cents = '00'] = (negative ? fixed.slice(1) : fixed).split('.');
  const grouped = units.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${grouped}.${cents}`;
}
