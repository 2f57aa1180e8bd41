import {
  centsOf,
  fitsMoneyColumn,
  formatAud,
  gstInclusive,
  gstOnTop,
  invoiceTotals,
  lineTotal,
  moneyString,
  parseMoney,
  totalsFit,
  withCardSurcharge,
} from './money';

describe('money', () => {
  it('customer invoices add 10% GST on top of the line-item sum', () => {
    const t = gstOnTop('129.80');
    expect([t.subtotalAmount.toFixed(2), t.gstAmount.toFixed(2), t.totalAmount.toFixed(2)]).toEqual([
      '129.80',
      '12.98',
      '142.78',
    ]);
    // Rounded half up to the cent.
    expect(gstOnTop('0.05').gstAmount.toFixed(2)).toBe('0.01');
    expect(gstOnTop('0.04').gstAmount.toFixed(2)).toBe('0.00');
    expect(gstOnTop('99.95').totalAmount.toFixed(2)).toBe('109.95');
  });

  it('sums line totals exactly (no floating point drift)', () => {
    const t = invoiceTotals(['0.10', '0.20', '0.30']);
    expect(t.subtotalAmount.toFixed(2)).toBe('0.60');
    expect(t.gstAmount.toFixed(2)).toBe('0.06');
    expect(t.totalAmount.toFixed(2)).toBe('0.66');
    expect(invoiceTotals([]).totalAmount.toFixed(2)).toBe('0.00');
  });

  it('line total is quantity × unit price to 2 decimals', () => {
    expect(lineTotal(4, '139.00').toFixed(2)).toBe('556.00');
    expect(lineTotal(3, '0.10').toFixed(2)).toBe('0.30');
    expect(lineTotal(1, '89.80').toFixed(2)).toBe('89.80');
    expect(lineTotal(7, '33.33').toFixed(2)).toBe('233.31');
  });

  it('purchase invoices and expenses: GST = total / 11, ex-GST = total − GST, to the cent', () => {
    const a = gstInclusive('110.00');
    expect([a.gstAmount.toFixed(2), a.exGstAmount.toFixed(2)]).toEqual(['10.00', '100.00']);
    const b = gstInclusive('100.00');
    expect([b.gstAmount.toFixed(2), b.exGstAmount.toFixed(2)]).toEqual(['9.09', '90.91']);
    const c = gstInclusive('0.06'); // 0.00545... -> 0.01
    expect([c.gstAmount.toFixed(2), c.exGstAmount.toFixed(2)]).toEqual(['0.01', '0.05']);
    const d = gstInclusive('1234.56');
    expect(d.gstAmount.plus(d.exGstAmount).toFixed(2)).toBe('1234.56');
    expect(d.gstAmount.toFixed(2)).toBe('112.23');
  });

  it('card surcharge is 1.7% to the cent', () => {
    const s = withCardSurcharge('129.80');
    expect([s.originalAmount.toFixed(2), s.surchargeAmount.toFixed(2), s.totalAmount.toFixed(2)]).toEqual([
      '129.80',
      '2.21',
      '132.01',
    ]);
    expect(withCardSurcharge('100.00').surchargeAmount.toFixed(2)).toBe('1.70');
    expect(withCardSurcharge('0.29').surchargeAmount.toFixed(2)).toBe('0.00'); // 0.00493
    expect(withCardSurcharge('0.30').surchargeAmount.toFixed(2)).toBe('0.01'); // 0.0051
    expect(withCardSurcharge('526.20').totalAmount.toFixed(2)).toBe('535.15'); // 8.9454 -> 8.95
    expect(centsOf(withCardSurcharge('526.20').totalAmount)).toBe(53515);
  });

  it('parses money input: decimal strings up to 2 places or numbers', () => {
    const ok = (v: unknown) => {
      const r = parseMoney(v);
      return r.ok ? r.value.toFixed(2) : r.reason;
    };
    expect(ok('12')).toBe('12.00');
    expect(ok('12.5')).toBe('12.50');
    expect(ok(' 12.50 ')).toBe('12.50');
    expect(ok('$1,234.50')).toBe('1234.50');
    expect(ok(12.5)).toBe('12.50');
    expect(ok(0.1 + 0.2)).toBe('0.30');
    expect(ok('12.345')).toBe('too-many-places');
    expect(ok('abc')).toBe('not-a-number');
    expect(ok('')).toBe('not-a-number');
    expect(ok(null)).toBe('not-a-number');
    expect(ok(Number.NaN)).toBe('not-a-number');
    expect(ok(Number.POSITIVE_INFINITY)).toBe('not-a-number');
    expect(ok('1e5')).toBe('not-a-number');
    expect(ok('100000000')).toBe('too-large');
    expect(ok('-0')).toBe('0.00');
  });

  it('refuses a JSON number with more than 2 decimal places, but reads floating-point noise as its cent value', () => {
    const ok = (v: unknown) => {
      const r = parseMoney(v);
      return r.ok ? r.value.toFixed(2) : r.reason;
    };
    expect(ok(12.345)).toBe('too-many-places');
    expect(ok(1.001)).toBe('too-many-places');
    expect(ok(-0.005)).toBe('too-many-places');
    expect(ok(19.99 * 3)).toBe('59.97'); // 59.97000000000001
    expect(ok(1.1 * 1.1)).toBe('1.21'); // 1.2100000000000002
    expect(ok(99999999.99)).toBe('99999999.99');
    expect(ok(-5)).toBe('-5.00');
  });

  it('formats dollars for documents', () => {
    expect(formatAud('1234.5')).toBe('$1,234.50');
    expect(formatAud('0')).toBe('$0.00');
    expect(formatAud('1234567.891')).toBe('$1,234,567.89');
    expect(moneyString('7')).toBe('7.00');
  });

  it('knows which amounts fit a Decimal(10,2) column, GST on top included', () => {
    expect(fitsMoneyColumn('99999999.99')).toBe(true);
    expect(fitsMoneyColumn('100000000.00')).toBe(false);
    expect(fitsMoneyColumn('-99999999.99')).toBe(true);
    expect(totalsFit(gstOnTop('90909090.90'))).toBe(true); // total 99,999,999.99
    expect(totalsFit(gstOnTop('90909090.91'))).toBe(false); // total 100,000,000.00
  });
});
