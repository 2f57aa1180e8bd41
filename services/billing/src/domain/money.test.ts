import { invoiceTotals, toCents } from '@tyres/kernel';
import { centsOf, Decimal, fitsMoneyColumn, moneyString, totalsColumns, totalsFit } from './money';

describe('money at the database edge (the rules themselves are @tyres/kernel)', () => {
  it('reads stored Decimal(10,2) amounts as exact cents', () => {
    expect(centsOf(new Decimal('129.80'))).toBe(12980n);
    expect(centsOf(new Decimal('0.07'))).toBe(7n);
    expect(centsOf(new Decimal('-5.5'))).toBe(-550n);
    expect(centsOf(new Decimal('99999999.99'))).toBe(9_999_999_999n);
    expect(centsOf(new Decimal(0))).toBe(0n);
    expect(centsOf('12.5')).toBe(1250n);
    expect(centsOf('7')).toBe(700n);
  });

  it('never rounds a value with more than two places: it is refused', () => {
    expect(() => centsOf(new Decimal('1.005'))).toThrow(RangeError);
    expect(() => centsOf('0.001')).toThrow(RangeError);
  });

  it('writes amounts in the wire format', () => {
    expect(moneyString(new Decimal('7'))).toBe('7.00');
    expect(moneyString(new Decimal('1234.5'))).toBe('1234.50');
    expect(moneyString('-0.05')).toBe('-0.05');
  });

  it('knows which amounts fit a Decimal(10,2) column', () => {
    expect(fitsMoneyColumn(9_999_999_999n)).toBe(true);
    expect(fitsMoneyColumn(10_000_000_000n)).toBe(false);
    expect(fitsMoneyColumn(-9_999_999_999n)).toBe(true);
    expect(fitsMoneyColumn(-10_000_000_000n)).toBe(false);
    expect(fitsMoneyColumn(0n)).toBe(true);
  });

  it('an invoice fits when its ex-GST, GST and total all fit (a tax exclusive total is the largest)', () => {
    const exclusive = (lineSum: string) => invoiceTotals([{ amount: toCents(lineSum) }], 'exclusive');
    expect(totalsFit(exclusive('90909090.90'))).toBe(true); // total 99,999,999.99
    expect(totalsFit(exclusive('90909090.91'))).toBe(false); // total 100,000,000.00
    expect(totalsFit(invoiceTotals([{ amount: 9_999_999_999n }], 'inclusive'))).toBe(true);
    // Each part is checked on its own.
    expect(totalsFit({ subtotal: 10_000_000_000n, gst: 0n, total: 0n })).toBe(false);
    expect(totalsFit({ subtotal: 0n, gst: 10_000_000_000n, total: 0n })).toBe(false);
    expect(totalsFit({ subtotal: 0n, gst: 0n, total: 10_000_000_000n })).toBe(false);
  });

  it('gives an invoice its columns', () => {
    expect(totalsColumns(invoiceTotals([{ amount: 12980n }], 'inclusive'))).toEqual({
      subtotalAmount: '118.00',
      gstAmount: '11.80',
      totalAmount: '129.80',
    });
  });
});
