import { allowsExtraInvoice, effectiveStatus, isOverdue, statusTimestamps } from './invoice-status';

describe('overdue', () => {
  const today = '2026-11-21';
  it('an unpaid invoice past its due date is overdue', () => {
    expect(effectiveStatus('sent', '2026-11-20', today)).toBe('overdue');
    expect(effectiveStatus('draft', '2026-10-01', today)).toBe('overdue');
  });
  it('is not overdue on the due date itself, without a due date, or when paid/cancelled', () => {
    expect(effectiveStatus('sent', '2026-11-21', today)).toBe('sent');
    expect(effectiveStatus('sent', null, today)).toBe('sent');
    expect(effectiveStatus('paid', '2026-01-01', today)).toBe('paid');
    expect(effectiveStatus('cancelled', '2026-01-01', today)).toBe('cancelled');
  });
  it('a stored overdue status stays overdue', () => {
    expect(isOverdue('overdue', '2027-01-01', today)).toBe(true);
  });
});

describe('status timestamps', () => {
  const now = new Date('2026-11-21T02:00:00Z');
  const earlier = new Date('2026-11-01T02:00:00Z');
  it('paid sets paidAt now; leaving paid clears it; staying paid keeps it', () => {
    expect(statusTimestamps({ status: 'sent', paidAt: null, sentAt: earlier }, 'paid', now)).toEqual({
      paidAt: now,
      sentAt: earlier,
    });
    expect(statusTimestamps({ status: 'paid', paidAt: earlier, sentAt: earlier }, 'sent', now)).toEqual({
      paidAt: null,
      sentAt: earlier,
    });
    expect(statusTimestamps({ status: 'paid', paidAt: earlier, sentAt: null }, 'paid', now)).toEqual({
      paidAt: earlier,
      sentAt: null,
    });
  });
  it('sent sets sentAt the first time only', () => {
    expect(statusTimestamps({ status: 'draft', paidAt: null, sentAt: null }, 'sent', now).sentAt).toEqual(
      now,
    );
    expect(statusTimestamps({ status: 'draft', paidAt: null, sentAt: earlier }, 'sent', now).sentAt).toEqual(
      earlier,
    );
  });
});

describe('a second invoice for a job (extra work)', () => {
  it('is allowed once the work is done: completed, invoiced or paid', () => {
    expect(['completed', 'invoiced', 'paid'].map(allowsExtraInvoice)).toEqual([true, true, true]);
    expect(['new', 'in-progress', 'cancelled'].map(allowsExtraInvoice)).toEqual([false, false, false]);
  });
});
