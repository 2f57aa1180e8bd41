import { cardSurcharge, divideRounded } from '@tyres/kernel';
import {
  firstNameOf,
  invoicePayment,
  looksLikePayToken,
  payStatus,
  payUrl,
  rateColumn,
  rateLabel,
  rateOfPayment,
  rateFraction,
} from './pay-invoice';

describe('paying an invoice by card: the 1.7% surcharge and the amount to pay', () => {
  it('tax inclusive: 1.7% of the total, half-up; the amount to pay is total + surcharge', () => {
    // $805.80: 1.7% = 13.6986 → 13.70; paid 819.50, its GST (819.50 ÷ 11 = 74.50).
    const p = invoicePayment([{ amount: 80_580n }], 'inclusive');
    expect(p.invoice).toEqual({ subtotal: 73_255n, gst: 7_325n, total: 80_580n });
    expect(p.surchargeLine).toBe(1_370n);
    expect(p.surcharge).toBe(1_370n);
    expect(p.paid.total).toBe(81_950n);
    expect(p.paid.gst).toBe(7_450n);
    expect(p.surchargeGst).toBe(125n);
  });

  it('rounds the surcharge half-up at exactly half a cent', () => {
    // $150.00 × 1.7% = 2.55 exactly; $0.50 × 1.7% = 0.0085 → 0.01; $0.29 × 1.7% = 0.00493 → 0.00.
    expect(invoicePayment([{ amount: 15_000n }], 'inclusive').surcharge).toBe(255n);
    expect(invoicePayment([{ amount: 50n }], 'inclusive').surcharge).toBe(1n);
    expect(invoicePayment([{ amount: 29n }], 'inclusive').surcharge).toBe(0n);
    // 129.50 × 0.017 = 2.2015 → 2.20 ; 264.71 × 0.017 = 4.50007 → 4.50
    expect(invoicePayment([{ amount: 12_950n }], 'inclusive').surcharge).toBe(220n);
    expect(invoicePayment([{ amount: 26_471n }], 'inclusive').surcharge).toBe(450n);
  });

  it('is the kernel rule for every inclusive total (no rounding of its own)', () => {
    for (let total = 1n; total < 100_000n; total += 997n) {
      const p = invoicePayment([{ amount: total }], 'inclusive');
      expect(p.surcharge).toBe(cardSurcharge(total));
      expect(p.paid.total).toBe(total + cardSurcharge(total));
      // The surcharge is taxable: the GST it adds is within a cent of its eleventh.
      const diff = p.surchargeGst - divideRounded(p.surcharge, 11n);
      expect(diff >= -1n && diff <= 1n).toBe(true);
    }
  });

  it('the surcharge is taxable even on an invoice with GST-free lines', () => {
    const p = invoicePayment([{ amount: 10_000n }, { amount: 5_000n, gstFree: true }], 'inclusive');
    expect(p.surcharge).toBe(255n); // 1.7% of 150.00
    expect(p.paid.gst).toBe(divideRounded(10_255n, 11n));
  });

  it('tax exclusive: 1.7% of the ex-GST sum as a line, GST on top', () => {
    // Lines 200.00 ex GST → total 220.00; line 3.40, GST 0.34 → surcharge 3.74, to pay 223.74.
    const p = invoicePayment([{ amount: 20_000n }], 'exclusive');
    expect(p.invoice.total).toBe(22_000n);
    expect(p.surchargeLine).toBe(340n);
    expect(p.surcharge).toBe(374n);
    expect(p.surchargeGst).toBe(34n);
    expect(p.paid.total).toBe(22_374n);
  });
});

describe('pay links', () => {
  it('the URL on the public site', () => {
    expect(payUrl('https://tyres.example.com.au/', 'abc_DEF-123')).toBe(
      'https://tyres.example.com.au/pay/abc_DEF-123',
    );
  });
  it('token shape', () => {
    expect(looksLikePayToken('a'.repeat(43))).toBe(true);
    expect(looksLikePayToken('short')).toBe(false);
    expect(looksLikePayToken(`${'a'.repeat(40)}/x`)).toBe(false);
  });
  it('first name only, and the page status', () => {
    expect(firstNameOf('  Jane  Mary Citizen ')).toBe('Jane');
    // An erased customer's invoice greets no one ("Hi Erased" was shown before).
    expect(firstNameOf('Erased customer')).toBe('');
    expect(payStatus('draft')).toBe('unpaid');
    expect(payStatus('sent')).toBe('unpaid');
    expect(payStatus('overdue')).toBe('overdue');
    expect(payStatus('paid')).toBe('paid');
    expect(payStatus('cancelled')).toBe('cancelled');
  });
});

describe('paying an invoice at the rate stored with the payment (issue 19 item 5)', () => {
  it("charges the rate given, half-up, and reads a payment row's rate (1.70% when none was recorded)", () => {
    const lines = [{ amount: 21980n }];
    expect(invoicePayment(lines, 'inclusive', 150n).surcharge).toBe(330n);
    expect(invoicePayment(lines, 'inclusive', 150n).paid.total).toBe(22310n);
    expect(invoicePayment(lines, 'inclusive').surcharge).toBe(374n);
    expect(rateOfPayment({ surchargeRate: '1.50' })).toBe(150n);
    expect(rateOfPayment({ surchargeRate: { toFixed: () => '2.00' } })).toBe(200n);
    expect(rateOfPayment({ surchargeRate: null })).toBe(170n);
    expect(rateOfPayment({})).toBe(170n);
    expect(rateLabel(150n)).toBe('1.5%');
    expect(rateColumn(150n)).toBe('1.50');
  });
});

describe('the rate as /api/payments/config states it (issue 19)', () => {
  it.each([
    [170n, '0.017', '1.7%'],
    [150n, '0.015', '1.5%'],
    [175n, '0.0175', '1.75%'],
    [200n, '0.02', '2%'],
    [500n, '0.05', '5%'],
    [0n, '0', '0%'],
  ])('%p basis points: fraction %p, label %p', (bp, fraction, label) => {
    expect(rateFraction(bp)).toBe(fraction);
    expect(rateLabel(bp)).toBe(label);
  });
});
