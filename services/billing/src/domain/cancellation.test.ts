import { cancellationInvoicePlan, nextRefundStatus, refundPlan } from './cancellation';

const prepaid = { paymentMethod: 'prepaid' as const, feeWaived: false };
const onsite = { paymentMethod: 'onsite' as const, refund: 0n, feeWaived: false };

describe('cancellation: what billing does with the final terms', () => {
  it('prepaid, whole charge refunded: a refund of it, the paid invoice cancelled', () => {
    const terms = { ...prepaid, refundPercent: 100, refund: 16270n, fee: 0n };
    expect(refundPlan(terms)).toEqual({ kind: 'refund', amount: 16270n });
    expect(cancellationInvoicePlan(terms)).toEqual({ kind: 'cancel-paid-invoice' });
  });

  it('prepaid, half refunded: the paid invoice replaced by a fee invoice for the half kept', () => {
    const terms = { ...prepaid, refundPercent: 50, refund: 8135n, fee: 8135n };
    expect(refundPlan(terms)).toEqual({ kind: 'refund', amount: 8135n });
    expect(cancellationInvoicePlan(terms)).toEqual({
      kind: 'replace-with-fee-invoice',
      fee: 8135n,
      description: 'Cancellation fee (50%)',
    });
  });

  it('prepaid, nothing refunded: no refund, the paid invoice stands', () => {
    const terms = { ...prepaid, refundPercent: 0, refund: 0n, fee: 16270n };
    expect(refundPlan(terms)).toEqual({ kind: 'none' });
    expect(cancellationInvoicePlan(terms)).toEqual({ kind: 'keep-paid-invoice' });
  });

  it('prepaid with the fee waived: nothing kept is invoiced', () => {
    const terms = { ...prepaid, refundPercent: 100, refund: 16270n, fee: 0n, feeWaived: true };
    expect(cancellationInvoicePlan(terms)).toEqual({ kind: 'cancel-paid-invoice' });
  });

  it('pay on site: a draft fee invoice unless waived or nothing owed; never a refund', () => {
    expect(cancellationInvoicePlan({ ...onsite, refundPercent: 0, fee: 41780n })).toEqual({
      kind: 'draft-fee-invoice',
      fee: 41780n,
      description: 'Cancellation fee',
    });
    expect(refundPlan({ ...onsite, refundPercent: 0, fee: 41780n })).toEqual({ kind: 'none' });
    expect(cancellationInvoicePlan({ ...onsite, refundPercent: 0, fee: 41780n, feeWaived: true })).toEqual({
      kind: 'nothing',
    });
    expect(cancellationInvoicePlan({ ...onsite, refundPercent: 100, fee: 0n })).toEqual({ kind: 'nothing' });
  });

  it('a no-show is charged in full: pay on site, a draft "No-show charge" for the price; prepaid, nothing back', () => {
    expect(
      cancellationInvoicePlan({ ...onsite, kind: 'no_show', refundPercent: 0, refund: 0n, fee: 48780n }),
    ).toEqual({ kind: 'draft-fee-invoice', fee: 48780n, description: 'No-show charge' });
    const prepaidNoShow = { ...prepaid, kind: 'no_show' as const, refundPercent: 0, refund: 0n, fee: 16270n };
    expect(refundPlan(prepaidNoShow)).toEqual({ kind: 'none' });
    expect(cancellationInvoicePlan(prepaidNoShow)).toEqual({ kind: 'keep-paid-invoice' });
  });

  it('refund statuses only move forward; a failed refund can still succeed after a retry', () => {
    expect(nextRefundStatus('requested', 'pending')).toBe('pending');
    expect(nextRefundStatus('pending', 'succeeded')).toBe('succeeded');
    expect(nextRefundStatus('succeeded', 'pending')).toBe('succeeded');
    expect(nextRefundStatus('succeeded', 'failed')).toBe('succeeded');
    expect(nextRefundStatus('pending', 'requested')).toBe('pending');
    expect(nextRefundStatus('failed', 'pending')).toBe('failed');
    expect(nextRefundStatus('failed', 'succeeded')).toBe('succeeded');
  });
});
