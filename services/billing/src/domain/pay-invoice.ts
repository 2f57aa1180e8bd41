/**
 * Paying a customer invoice online (issue 18, item 4): what the "Pay now" page shows and what the card is charged.
 * Every amount comes from the kernel's money rules (cardSurcharge: 1.7% half-up; invoiceTotals: GST once on the
 * taxable sum); nothing here rounds on its own.
 *
 * The card surcharge is part of the taxable supply (docs/decisions.md, "Paying an invoice online"): when the invoice
 * is paid it gets a "Card surcharge 1.7%" line (category surcharge, taxable) like a prepaid booking's invoice, so the
 * paid invoice's total is exactly what the card was charged and reporting counts the surcharge and its GST.
 * - Tax inclusive invoice (the default): the line is 1.7% of the invoice total; amount to pay = total + surcharge.
 * - Tax exclusive invoice: the line is 1.7% of the ex-GST line sum and carries 10% GST on top like every other line;
 *   the surcharge shown is what the line adds to the total (GST included).
 */
import { ERASED_CUSTOMER_NAME } from '@tyres/events';
import {
  cardSurcharge,
  CARD_SURCHARGE_LINE,
  DEFAULT_CARD_SURCHARGE_BP,
  formatSurchargeRate,
  invoiceTotals,
  parseSurchargeRate,
  surchargeRateToWire,
  type SurchargeRate,
  type AmountType,
  type Cents,
  type InvoiceTotals,
  type TaxLine,
} from '@tyres/kernel';

export { CARD_SURCHARGE_LINE };

/**
 * The rate a payment row was charged at (its surcharge_rate column, "1.70"); a row from before the rate was editable
 * has none and was charged the fixed 1.70%.
 */
export function rateOfPayment(payment: {
  surchargeRate?: { toFixed(d: number): string } | string | null;
}): SurchargeRate {
  const stored = payment.surchargeRate;
  if (stored === null || stored === undefined) return DEFAULT_CARD_SURCHARGE_BP;
  return (
    parseSurchargeRate(typeof stored === 'string' ? stored : stored.toFixed(2)) ?? DEFAULT_CARD_SURCHARGE_BP
  );
}

/** A rate for a payment row's surcharge_rate column ("1.70"). */
export const rateColumn = (rate: SurchargeRate): string => surchargeRateToWire(rate);

/** "1.7%": a rate as the customer reads it. */
export const rateLabel = (rate: SurchargeRate): string => formatSurchargeRate(rate);

/**
 * A rate as a decimal fraction ("0.017" for 1.70%, "0.015", "0.0175", "0"): /api/payments/config's `surchargeRate`,
 * the shape its old clients read. Exact (basis points moved four places), trailing zeros dropped.
 */
export function rateFraction(rate: SurchargeRate): string {
  const text = `${rate / 10_000n}.${(rate % 10_000n).toString().padStart(4, '0')}`;
  return text.replace(/0+$/, '').replace(/\.$/, '');
}

/** Invoice statuses a pay link may still be paid in. */
export const PAYABLE_STATUSES: ReadonlySet<string> = new Set(['draft', 'sent', 'overdue']);

/** A pay link's token: 256 random bits, base64url (the same shape as booking's manage tokens). */
export const looksLikePayToken = (token: string) => /^[A-Za-z0-9_-]{16,200}$/.test(token);

export const payUrl = (siteUrl: string, token: string) => `${siteUrl.replace(/\/+$/, '')}/pay/${token}`;

export interface InvoicePayment {
  /** The invoice's totals as its lines make them. */
  invoice: InvoiceTotals;
  /** The surcharge line's amount in the invoice's amount type (GST inclusive, or ex GST on an exclusive invoice). */
  surchargeLine: Cents;
  /** What the surcharge adds to the total, GST included: shown as "Card surcharge (1.7%)". */
  surcharge: Cents;
  /** The GST in `surcharge`. */
  surchargeGst: Cents;
  /** The invoice's totals with the surcharge line: `total` is what the card is charged. */
  paid: InvoiceTotals;
}

/** The amounts of paying an invoice (its lines, its amount type) by card at `rate` (basis points). */
export function invoicePayment(
  lines: readonly TaxLine[],
  amountType: AmountType,
  rate: SurchargeRate = DEFAULT_CARD_SURCHARGE_BP,
): InvoicePayment {
  const invoice = invoiceTotals(lines, amountType);
  // Inclusive: the rate of what the customer owes. Exclusive: the rate of the ex-GST sum; its GST follows on top.
  const surchargeLine = cardSurcharge(amountType === 'inclusive' ? invoice.total : invoice.subtotal, rate);
  const paid = invoiceTotals([...lines, { amount: surchargeLine }], amountType);
  return {
    invoice,
    surchargeLine,
    surcharge: paid.total - invoice.total,
    surchargeGst: paid.gst - invoice.gst,
    paid,
  };
}

/** The customer's first name: all the pay page shows of them; none for a customer erased on request. */
export function firstNameOf(name: string): string {
  if (name.trim() === ERASED_CUSTOMER_NAME) return '';
  return name.trim().split(/\s+/)[0] ?? '';
}

/** What a pay link's page says about the invoice. */
export type PayStatus = 'unpaid' | 'overdue' | 'paid' | 'cancelled';

export function payStatus(status: string): PayStatus {
  if (status === 'paid') return 'paid';
  if (status === 'cancelled') return 'cancelled';
  if (status === 'overdue') return 'overdue';
  return 'unpaid';
}

export const PAY_MSG = {
  linkNotFound: 'This payment link is not valid',
  alreadyPaid: 'This invoice has already been paid',
  cancelled: 'This invoice has been cancelled and cannot be paid',
  nothingToPay: 'This invoice has nothing to pay online',
  setupFailed: 'Unable to initialize payment. Please try again.',
} as const;
