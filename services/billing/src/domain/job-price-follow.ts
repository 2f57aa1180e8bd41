/**
 * Issue 19 (a job's price edited while its invoice is generated): which invoice a job edit (job.updated.v1) may
 * bring up to date. jobs refuses a price edit once it knows of an invoice (409 price_locked), but it learns of the
 * invoice by an event: an edit that jobs accepted in that window, or that was committed before Generate but not yet
 * applied to billing's job projection, would otherwise leave the invoice at the old price. The invoice follows the
 * edit only while it is exactly what Generate made from the job before the edit: a draft, tax inclusive, its lines
 * (and so its total) those lines to the cent. A sent or paid invoice is a tax document the customer has; a draft
 * whose lines staff changed is theirs: neither is touched (staff change the invoice, the job history shows the edit).
 */
import type { GeneratedLine } from './invoice-lines';

/** An invoice line as stored (amounts in cents). */
export interface StoredLine {
  description: string;
  category: string;
  quantity: number;
  unitPrice: bigint;
  totalPrice: bigint;
  gstFree: boolean;
}

export interface InvoiceToFollow {
  status: string;
  amountType: string;
  lines: readonly StoredLine[];
}

const sameLine = (a: StoredLine, b: GeneratedLine): boolean =>
  a.description === b.description &&
  a.category === b.category &&
  a.quantity === b.quantity &&
  a.unitPrice === b.unitPrice &&
  a.totalPrice === b.totalPrice &&
  a.gstFree === b.gstFree;

/** The lines differ (the edit changes what Generate would make): the only case an invoice may need to follow. */
export function linesDiffer(a: readonly GeneratedLine[], b: readonly GeneratedLine[]): boolean {
  return a.length !== b.length || a.some((line, i) => !sameLine(line, b[i]!));
}

/**
 * 'follow': the invoice is the untouched draft Generate made from `before`, so it takes the edited job's lines;
 * 'keep' otherwise (with why, for the log).
 */
export function invoiceFollowsEdit(
  invoice: InvoiceToFollow,
  before: readonly GeneratedLine[],
): { kind: 'follow' } | { kind: 'keep'; why: 'not-draft' | 'exclusive' | 'lines-changed' } {
  if (invoice.status !== 'draft') return { kind: 'keep', why: 'not-draft' };
  if (invoice.amountType !== 'inclusive') return { kind: 'keep', why: 'exclusive' };
  if (invoice.lines.length !== before.length || invoice.lines.some((l, i) => !sameLine(l, before[i]!)))
    return { kind: 'keep', why: 'lines-changed' };
  return { kind: 'follow' };
}
