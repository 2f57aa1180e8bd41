import { DEFAULT_LINE_ITEM_CATEGORY, LINE_ITEM_CATEGORIES, type LineItemCategory } from '../lib/constants';
import { fromCents, gstOnTop, lineTotal, sumMoney, toCents } from '../lib/money';

/** A line item being edited (local until the invoice is saved, or mirroring a stored one through `id`). */
export interface LineItemDraft {
  key: string;
  id?: string;
  description: string;
  category: LineItemCategory;
  quantity: number;
  unitPrice: string;
}

export const DESCRIPTION_REQUIRED = 'Please enter a description for the line item.';
export const QUANTITY_POSITIVE = 'Quantity must be a positive whole number';

/** Quantity as typed: an integer, at least 0; 1 when it does not parse. */
export function parseQuantity(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(String(value ?? '').trim());
  if (!Number.isFinite(n) || String(value ?? '').trim() === '') return 1;
  return Math.max(0, Math.trunc(n));
}

/** Unit price as typed: at least 0, cents. Unparseable input is 0.00. */
export function parseUnitPrice(value: unknown): string {
  const cents = toCents(typeof value === 'number' ? value : String(value ?? ''));
  return Number.isFinite(cents) && cents > 0 ? fromCents(cents) : '0.00';
}

export function parseCategory(value: unknown): LineItemCategory {
  return (LINE_ITEM_CATEGORIES as readonly string[]).includes(String(value))
    ? (value as LineItemCategory)
    : DEFAULT_LINE_ITEM_CATEGORY;
}

/** Subtotal of the lines, GST 10% added on top, total. */
export function invoiceTotals(items: readonly Pick<LineItemDraft, 'quantity' | 'unitPrice'>[]) {
  const subtotal = sumMoney(items.map((i) => lineTotal(i.quantity, i.unitPrice)));
  const { gst, total } = gstOnTop(subtotal);
  return { subtotal, gst, total };
}

/** The problem with a line before it is stored, or null. */
export function lineItemProblem(item: Pick<LineItemDraft, 'description' | 'quantity'>): string | null {
  if (!item.description.trim()) return DESCRIPTION_REQUIRED;
  if (!Number.isInteger(item.quantity) || item.quantity < 1)
    return `${QUANTITY_POSITIVE}: ${item.description.trim()}`;
  return null;
}

/** The body of POST/PATCH .../items. */
export function lineItemBody(item: LineItemDraft) {
  return {
    description: item.description.trim(),
    category: item.category,
    quantity: item.quantity,
    unitPrice: item.unitPrice,
    totalPrice: lineTotal(item.quantity, item.unitPrice),
  };
}

let counter = 0;
export const newDraftKey = () => `draft-${Date.now().toString(36)}-${(counter += 1)}`;
