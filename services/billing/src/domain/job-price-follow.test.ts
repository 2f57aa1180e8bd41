import { buildInvoiceLines, type JobForInvoice } from './invoice-lines';
import { invoiceFollowsEdit, linesDiffer, type StoredLine } from './job-price-follow';

const job = (customerValue: bigint): JobForInvoice => ({
  serviceType: 'battery-service',
  tyreSize: null,
  tyreQuantity: null,
  tyreBrand: null,
  customerValue,
  paymentMethod: 'onsite',
  paymentStatus: 'pending',
  quote: undefined,
});
const stored = (lines: ReturnType<typeof buildInvoiceLines>): StoredLine[] => lines.map((l) => ({ ...l }));

describe('a draft invoice follows a job edit only while it is what Generate made (issue 19)', () => {
  const before = buildInvoiceLines(job(10_000n));
  const after = buildInvoiceLines(job(12_000n));

  it('an edit that changes the price changes the lines; the same price does not', () => {
    expect(linesDiffer(before, after)).toBe(true);
    expect(linesDiffer(before, buildInvoiceLines(job(10_000n)))).toBe(false);
  });

  it('follows the untouched inclusive draft', () => {
    expect(
      invoiceFollowsEdit({ status: 'draft', amountType: 'inclusive', lines: stored(before) }, before),
    ).toEqual({
      kind: 'follow',
    });
  });

  it.each([
    ['sent', 'inclusive', 'not-draft'],
    ['paid', 'inclusive', 'not-draft'],
    ['overdue', 'inclusive', 'not-draft'],
    ['draft', 'exclusive', 'exclusive'],
  ])('keeps a %s %s invoice (%s)', (status, amountType, why) => {
    expect(invoiceFollowsEdit({ status, amountType, lines: stored(before) }, before)).toEqual({
      kind: 'keep',
      why,
    });
  });

  it('keeps a draft whose lines staff changed (an amount, a line added or removed)', () => {
    const changed = stored(before).map((l, i) =>
      i === 0 ? { ...l, unitPrice: l.unitPrice + 1n, totalPrice: l.totalPrice + 1n } : l,
    );
    const added = [
      ...stored(before),
      {
        description: 'Valve',
        category: 'labour',
        quantity: 1,
        unitPrice: 500n,
        totalPrice: 500n,
        gstFree: false,
      },
    ];
    for (const lines of [changed, added, []])
      expect(invoiceFollowsEdit({ status: 'draft', amountType: 'inclusive', lines }, before)).toEqual({
        kind: 'keep',
        why: 'lines-changed',
      });
  });
});
