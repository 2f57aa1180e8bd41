import { moneyToCents, toMoney, type Money } from '@tyres/events';

/**
 * Job line items (spec entity job_line_items): totals and profit margin computed with integer cents, never floats.
 *
 *   totalCost    = quantity × unitCost                      (exact, 2 places)
 *   totalPrice   = quantity × unitPrice                     (exact, 2 places)
 *   profitMargin = (totalPrice − totalCost) / totalPrice × 100, rounded half away from zero to 2 places
 *
 * profitMargin is a percentage of the price stored as Decimal(5,2): null when totalPrice is 0 (no margin exists),
 * and clamped to ±999.99 when a loss is more than ten times the price (the column cannot hold more; the totals
 * stay exact, so the true figure can always be recomputed).
 */
export const MAX_MARGIN_HUNDREDTHS = 99_999n; // 999.99 %

export interface LineItemAmounts {
  quantity: number;
  unitCost: Money;
  unitPrice: Money;
}

export interface LineItemTotals {
  totalCost: Money;
  totalPrice: Money;
  profitMargin: string | null;
}

/** a / b rounded half away from zero (b > 0). */
function divRound(a: bigint, b: bigint): bigint {
  const negative = a < 0n;
  const abs = negative ? -a : a;
  const q = (abs * 2n + b) / (2n * b);
  return negative ? -q : q;
}

/** Hundredths of a percent → "12.34" / "-5.00". */
function formatHundredths(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

export function profitMargin(totalCost: Money, totalPrice: Money): string | null {
  const price = moneyToCents(totalPrice);
  const cost = moneyToCents(totalCost);
  if (price === 0n) return null;
  // Negative prices (credits) keep the sign convention of profit over |price|.
  const denominator = price < 0n ? -price : price;
  let hundredths = divRound((price - cost) * 10_000n, denominator);
  if (hundredths > MAX_MARGIN_HUNDREDTHS) hundredths = MAX_MARGIN_HUNDREDTHS;
  if (hundredths < -MAX_MARGIN_HUNDREDTHS) hundredths = -MAX_MARGIN_HUNDREDTHS;
  return formatHundredths(hundredths);
}

export function lineItemTotals(input: LineItemAmounts): LineItemTotals {
  if (!Number.isInteger(input.quantity) || input.quantity < 1)
    throw new RangeError('quantity must be a positive integer');
  const qty = BigInt(input.quantity);
  const totalCost = toMoney(moneyToCents(input.unitCost) * qty);
  const totalPrice = toMoney(moneyToCents(input.unitPrice) * qty);
  return { totalCost, totalPrice, profitMargin: profitMargin(totalCost, totalPrice) };
}

/** Largest amount a Decimal(10,2) column holds. */
export const MAX_MONEY_CENTS = 99_999_999_99n;

export function fitsDecimal10_2(value: Money): boolean {
  const cents = moneyToCents(value);
  return cents <= MAX_MONEY_CENTS && cents >= -MAX_MONEY_CENTS;
}
