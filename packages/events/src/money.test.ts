import { money, moneyToCents, toMoney } from './money';

describe('money', () => {
  it.each(['0.00', '123.45', '-5.00', '1000000.10'])('accepts %s', (v) => {
    expect(money.safeParse(v).success).toBe(true);
  });

  it.each([['12'], ['12.5'], ['12.345'], ['1e3'], [' 1.00'], ['1.00 '], ['+1.00'], ['.50'], ['']])(
    'rejects %j',
    (v) => {
      expect(money.safeParse(v).success).toBe(false);
    },
  );

  it('rejects numbers (floats never travel)', () => {
    expect(money.safeParse(12.5).success).toBe(false);
    expect(money.safeParse(12).success).toBe(false);
  });

  it('formats decimals, strings and cents without floating point', () => {
    expect(toMoney('12')).toBe('12.00');
    expect(toMoney('12.5')).toBe('12.50');
    expect(toMoney('-0.05')).toBe('-0.05');
    expect(toMoney(12345n)).toBe('123.45');
    expect(toMoney(-5n)).toBe('-0.05');
    expect(toMoney({ toFixed: (d: number) => (89.8).toFixed(d) })).toBe('89.80');
    expect(() => toMoney('12.345')).toThrow(RangeError);
    expect(() => toMoney('abc')).toThrow(RangeError);
  });

  it('converts to integer cents', () => {
    expect(moneyToCents('123.45')).toBe(12345n);
    expect(moneyToCents('-0.05')).toBe(-5n);
    expect(() => moneyToCents('1.5')).toThrow(RangeError);
  });
});
