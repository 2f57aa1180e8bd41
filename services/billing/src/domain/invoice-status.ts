import type { CustomerInvoiceStatus } from './constants';
import type { IsoDate } from './dates';

/** Statuses that still expect a payment. */
const UNPAID: readonly CustomerInvoiceStatus[] = ['draft', 'sent', 'overdue'];

/** Past its due date (Perth calendar) and unpaid: strictly after the due date, the due date itself is not late. */
export function isOverdue(status: CustomerInvoiceStatus, dueDate: IsoDate | null, today: IsoDate): boolean {
  if (status === 'overdue') return true;
  if (!UNPAID.includes(status) || !dueDate) return false;
  return dueDate < today;
}

/** The status the dashboard and events report: a stored draft/sent invoice past its due date reads "overdue". */
export function effectiveStatus(
  status: CustomerInvoiceStatus,
  dueDate: IsoDate | null,
  today: IsoDate,
): CustomerInvoiceStatus {
  return isOverdue(status, dueDate, today) ? 'overdue' : status;
}

/** Timestamps a status change implies: paid sets paidAt (and leaving paid clears it); sent sets sentAt once. */
export function statusTimestamps(
  current: { status: CustomerInvoiceStatus; paidAt: Date | null; sentAt: Date | null },
  next: CustomerInvoiceStatus,
  now: Date,
): { paidAt: Date | null; sentAt: Date | null } {
  const paidAt =
    next === 'paid' ? (current.status === 'paid' && current.paidAt ? current.paidAt : now) : null;
  const sentAt = next === 'sent' && !current.sentAt ? now : current.sentAt;
  return { paidAt, sentAt };
}

/**
 * Job statuses (billing's job projection) for which staff may add another invoice on the Create Invoice page, e.g.
 * for extra work, even when the job already has one (issue 12; the dashboard offers the page from these statuses).
 * Before the work is done a job has at most one active invoice.
 */
export const EXTRA_INVOICE_JOB_STATUSES: readonly string[] = ['completed', 'invoiced', 'paid'];

export function allowsExtraInvoice(jobStatus: string): boolean {
  return EXTRA_INVOICE_JOB_STATUSES.includes(jobStatus);
}
