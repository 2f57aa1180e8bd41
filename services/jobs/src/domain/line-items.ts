import { divideRounded, formatMoney, lineAmount, MAX_MONEY_CENTS, toCents } from '@tyres/kernel';

/**
 * Job line items (spec entity job_line_items): totals and profit margin computed with integer cents, never floats
 * (the money arithmetic is @tyres/kernel's).
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

/** Money on the wire: a 2-decimal string ("139.00"). */
type Money = string;

export interface LineItemAmounts {
  quantity: number;
  unitCost: Money;
  unitPrice: Money;
}

/** A line item as entered. */
export interface LineItemInput extends LineItemAmounts {
  type: string;
  category: string;
  description: string;
}

export interface LineItemTotals {
  totalCost: Money;
  totalPrice: Money;
  profitMargin: string | null;
}

export function profitMargin(totalCost: Money, totalPrice: Money): string | null {
  const price = toCents(totalPrice);
  const cost = toCents(totalCost);
  if (price === 0n) return null;
  // Negative prices (credits) keep the sign convention of profit over |price|.
  const denominator = price < 0n ? -price : price;
  let hundredths = divideRounded((price - cost) * 10_000n, denominator);
  if (hundredths > MAX_MARGIN_HUNDREDTHS) hundredths = MAX_MARGIN_HUNDREDTHS;
  if (hundredths < -MAX_MARGIN_HUNDREDTHS) hundredths = -MAX_MARGIN_HUNDREDTHS;
  // Hundredths of a percent read like cents: "12.34", "-5.00".
  return formatMoney(hundredths);
}

export function lineItemTotals(input: LineItemAmounts): LineItemTotals {
  if (!Number.isInteger(input.quantity) || input.quantity < 1)
    throw new RangeError('quantity must be a positive integer');
  const totalCost = formatMoney(lineAmount(input.quantity, toCents(input.unitCost)));
  const totalPrice = formatMoney(lineAmount(input.quantity, toCents(input.unitPrice)));
  return { totalCost, totalPrice, profitMargin: profitMargin(totalCost, totalPrice) };
}

/** Whether an amount fits a Decimal(10,2) column. */
export function fitsDecimal10_2(value: Money): boolean {
  const cents = toCents(value);
  return cents <= MAX_MONEY_CENTS && cents >= -MAX_MONEY_CENTS;
}
