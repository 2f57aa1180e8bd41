/**
 * Billing's side of money: the step between Prisma's Decimal(10,2) columns and @tyres/kernel's integer cents. Every
 * GST, surcharge and rounding rule is the kernel's (packages/kernel/src/money.ts); nothing here computes one.
 */
import { Decimal } from '@prisma/client/runtime/client';
import { formatMoney, MAX_MONEY_CENTS, toCents, type Cents, type InvoiceTotals } from '@tyres/kernel';

export { Decimal };

/**
 * Cents of a stored amount (a Decimal(10,2) column as Prisma reads it, or its string). Exact: a value with more than
 * two decimal places is refused (RangeError), never rounded.
 */
export function centsOf(value: Decimal | string): Cents {
  return toCents(typeof value === 'string' ? value : value.toFixed());
}

/** "12.50": a stored amount in the wire format. */
export function moneyString(value: Decimal | string): string {
  return formatMoney(centsOf(value));
}

/** True when an amount fits a Decimal(10,2) column (|amount| ≤ 99,999,999.99). */
export function fitsMoneyColumn(cents: Cents): boolean {
  return cents <= MAX_MONEY_CENTS && cents >= -MAX_MONEY_CENTS;
}

/** True when every amount of an invoice (ex-GST, GST, total) fits its column. */
export function totalsFit(totals: InvoiceTotals): boolean {
  return fitsMoneyColumn(totals.subtotal) && fitsMoneyColumn(totals.gst) && fitsMoneyColumn(totals.total);
}

/** An invoice's totals as its columns (and the API) hold them. */
export function totalsColumns(totals: InvoiceTotals): {
  subtotalAmount: string;
  gstAmount: string;
  totalAmount: string;
} {
  return {
    subtotalAmount: formatMoney(totals.subtotal),
    gstAmount: formatMoney(totals.gst),
    totalAmount: formatMoney(totals.total),
  };
}
