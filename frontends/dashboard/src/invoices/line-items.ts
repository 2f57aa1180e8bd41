import {
  AMOUNT_TYPE_LABEL,
  divideRounded,
  invoiceTotals as kernelInvoiceTotals,
  lineAmount,
  splitInclusive,
  type AmountType,
  type InvoiceTotals,
} from '@tyres/kernel';
import type { LineItemInput } from '../api/billing';
import type { Job } from '../api/types';
import {
  DEFAULT_LINE_ITEM_CATEGORY,
  LINE_ITEM_CATEGORIES,
  SURCHARGE_CATEGORY,
  type InvoiceLineCategory,
  type LineItemCategory,
} from '../lib/constants';
import { serviceOptionLabel } from '../lib/format';
import { cents, moneyString } from '../lib/money';

/** A line item being edited (local until the invoice is saved, or mirroring a stored one through `id`). */
export interface LineItemDraft {
  key: string;
  id?: string;
  description: string;
  category: InvoiceLineCategory;
  quantity: number;
  unitPrice: string;
  /** A line that carries no GST (default false). */
  gstFree: boolean;
}

export const DESCRIPTION_REQUIRED = 'Please enter a description for the line item.';
export const QUANTITY_POSITIVE = 'Quantity must be a positive whole number';

/** A new invoice is tax inclusive unless staff choose otherwise (as billing does). */
export const DEFAULT_AMOUNT_TYPE: AmountType = 'inclusive';

/** The amount type choices, with the words the invoice and its PDF use. */
export const AMOUNT_TYPE_OPTIONS: { value: AmountType; label: string }[] = [
  { value: 'inclusive', label: AMOUNT_TYPE_LABEL.inclusive },
  { value: 'exclusive', label: AMOUNT_TYPE_LABEL.exclusive },
];

/** The amount type of an invoice answer; an answer without one predates amount types: tax exclusive. */
export function amountTypeOf(invoice: { amountType?: AmountType | null }): AmountType {
  return invoice.amountType === 'inclusive' ? 'inclusive' : 'exclusive';
}

/** Quantity as typed: an integer, at least 0; 1 when it does not parse. */
export function parseQuantity(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(String(value ?? '').trim());
  if (!Number.isFinite(n) || String(value ?? '').trim() === '') return 1;
  return Math.max(0, Math.trunc(n));
}

/**
 * Unit price as typed ("50", "$1,250.5", 50.005 from the number input): at least 0, rounded half-up to the cent as
 * the input shows it. Anything else is 0.00.
 */
export function parseUnitPrice(value: unknown): string {
  const text =
    typeof value === 'number'
      ? String(value)
      : String(value ?? '')
          .trim()
          .replace(/^\$/, '')
          .replace(/,/g, '');
  const m = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || !/\d/.test(text)) return '0.00';
  const fraction = m[2] ?? '';
  const digits = BigInt(`${m[1] || '0'}${fraction}` || '0');
  const places = BigInt(fraction.length);
  const amount = places <= 2n ? digits * 10n ** (2n - places) : divideRounded(digits, 10n ** (places - 2n));
  return moneyString(amount);
}

export function parseCategory(value: unknown): InvoiceLineCategory {
  if (value === SURCHARGE_CATEGORY) return SURCHARGE_CATEGORY;
  return (LINE_ITEM_CATEGORIES as readonly string[]).includes(String(value))
    ? (value as LineItemCategory)
    : DEFAULT_LINE_ITEM_CATEGORY;
}

/** Billing creates the card surcharge line itself; staff see it but do not change or remove it. */
export function isReadOnlyLine(item: Pick<LineItemDraft, 'category'>): boolean {
  return item.category === SURCHARGE_CATEGORY;
}

/** Quantity × unit price, in cents. */
export function lineCents(item: Pick<LineItemDraft, 'quantity' | 'unitPrice'>): bigint {
  return lineAmount(Math.max(0, Math.trunc(item.quantity || 0)), cents(item.unitPrice));
}

/** Quantity × unit price as "100.02". */
export function lineTotal(item: Pick<LineItemDraft, 'quantity' | 'unitPrice'>): string {
  return moneyString(lineCents(item));
}

/**
 * The invoice's totals from its lines, computed exactly as billing does (the kernel's invoiceTotals): a tax inclusive
 * invoice's total is the sum of its lines and its GST the taxable sum ÷ 11; a tax exclusive one adds 10% of the
 * taxable sum. GST-free lines carry no GST either way.
 */
export function invoiceTotals(
  items: readonly Pick<LineItemDraft, 'quantity' | 'unitPrice' | 'gstFree'>[],
  amountType: AmountType,
): InvoiceTotals {
  return kernelInvoiceTotals(
    items.map((i) => ({ amount: lineCents(i), gstFree: i.gstFree })),
    amountType,
  );
}

/** The problem with a line before it is stored, or null. */
export function lineItemProblem(item: Pick<LineItemDraft, 'description' | 'quantity'>): string | null {
  if (!item.description.trim()) return DESCRIPTION_REQUIRED;
  if (!Number.isInteger(item.quantity) || item.quantity < 1)
    return `${QUANTITY_POSITIVE}: ${item.description.trim()}`;
  return null;
}

/** The body of POST/PATCH .../items. */
export function lineItemBody(item: LineItemDraft): LineItemInput {
  const { category } = item;
  return {
    description: item.description.trim(),
    // Billing refuses 'surcharge' from staff (it makes that line itself); the line keeps its category.
    ...(category === SURCHARGE_CATEGORY ? {} : { category }),
    quantity: item.quantity,
    unitPrice: item.unitPrice,
    totalPrice: lineTotal(item),
    gstFree: item.gstFree,
  };
}

let counter = 0;
export const newDraftKey = () => `draft-${Date.now().toString(36)}-${(counter += 1)}`;

/**
 * A line for the job's service at its price. The job's value is what the customer was quoted, GST included: on a
 * tax inclusive invoice the line is that price to the cent; on a tax exclusive one it is the price less its GST
 * (value ÷ 11), so GST added on top comes back to the quoted price (within a cent of rounding).
 */
export function serviceLine(
  job: Pick<Job, 'serviceType' | 'jobNumber' | 'customerValue' | 'tyreQuantity' | 'tyreSize'>,
  amountType: AmountType,
): LineItemDraft {
  const value = splitInclusive(cents(job.customerValue));
  const tyres =
    job.serviceType === 'new-tyres' && job.tyreSize
      ? ` ${job.tyreQuantity ?? ''}× ${job.tyreSize}`.replace('  ', ' ')
      : '';
  return {
    key: newDraftKey(),
    description: `${serviceOptionLabel(job.serviceType)}${tyres} (job ${job.jobNumber})`,
    category:
      job.serviceType === 'new-tyres' ? 'tyre' : job.serviceType === 'battery-service' ? 'battery' : 'labour',
    quantity: 1,
    unitPrice: moneyString(amountType === 'inclusive' ? value.total : value.exGst),
    gstFree: false,
  };
}
