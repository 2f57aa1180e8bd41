import { fitsDecimal10_2, lineItemTotals, profitMargin } from './line-items';

describe('job line items', () => {
  it('computes totals exactly from quantity and unit amounts', () => {
    expect(lineItemTotals({ quantity: 4, unitCost: '89.95', unitPrice: '139.00' })).toEqual({
      totalCost: '359.80',
      totalPrice: '556.00',
      profitMargin: '35.29', // 196.20 / 556.00 = 35.2877…%
    });
    // 0.1 + 0.2 style traps do not exist in cents.
    expect(lineItemTotals({ quantity: 3, unitCost: '0.10', unitPrice: '0.20' })).toEqual({
      totalCost: '0.30',
      totalPrice: '0.60',
      profitMargin: '50.00',
    });
  });

  it('rounds the margin half away from zero to 2 places', () => {
    expect(profitMargin('2.00', '3.00')).toBe('33.33'); // 33.333…
    expect(profitMargin('1.00', '3.00')).toBe('66.67'); // 66.666…
    expect(profitMargin('0.00', '8.00')).toBe('100.00');
    expect(profitMargin('7.99', '8.00')).toBe('0.13'); // 0.125 → 0.13
    expect(profitMargin('8.01', '8.00')).toBe('-0.13'); // -0.125 → -0.13
    expect(profitMargin('100.00', '100.00')).toBe('0.00');
  });

  it('handles losses and a zero price within Decimal(5,2)', () => {
    expect(profitMargin('150.00', '100.00')).toBe('-50.00');
    expect(profitMargin('10.00', '0.00')).toBeNull();
    expect(profitMargin('5000.00', '1.00')).toBe('-999.99'); // -499900% does not fit; clamped
  });

  it('refuses a quantity that is not a positive whole number', () => {
    expect(() => lineItemTotals({ quantity: 0, unitCost: '1.00', unitPrice: '1.00' })).toThrow(RangeError);
    expect(() => lineItemTotals({ quantity: 1.5, unitCost: '1.00', unitPrice: '1.00' })).toThrow(RangeError);
  });

  it('knows the Decimal(10,2) range', () => {
    expect(fitsDecimal10_2('99999999.99')).toBe(true);
    expect(fitsDecimal10_2('100000000.00')).toBe(false);
  });
});
