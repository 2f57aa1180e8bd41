import { DUE_SOON_RED_DAYS, DUE_SOON_YELLOW_DAYS } from '../lib/constants';
import { daysFromToday } from '../lib/dates';

export interface DueBadge {
  color: 'red' | 'gold' | 'default';
  text: string;
}

/**
 * Due-date badge of a customer invoice (spec section 9): 7 days or fewer to go (or overdue) red, 14 or fewer
 * yellow, otherwise plain. Paid and cancelled invoices get none; an invoice without a due date gets none.
 */
export function dueBadge(
  invoice: { status: string; dueDate: string | null; daysUntilDue?: number | null },
  now: Date = new Date(),
): DueBadge | null {
  if (!invoice.dueDate || invoice.status === 'paid' || invoice.status === 'cancelled') return null;
  const days = invoice.daysUntilDue ?? daysFromToday(invoice.dueDate.slice(0, 10), now);
  const text =
    days < 0
      ? `Overdue by ${-days} day${days === -1 ? '' : 's'}`
      : days === 0
        ? 'Due today'
        : `Due in ${days} day${days === 1 ? '' : 's'}`;
  if (days <= DUE_SOON_RED_DAYS) return { color: 'red', text };
  if (days <= DUE_SOON_YELLOW_DAYS) return { color: 'gold', text };
  return { color: 'default', text };
}
