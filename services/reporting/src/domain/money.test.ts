import { parseNumeric, percentage } from './money';

describe('money', () => {
  it('parses Postgres numeric sums given as text', () => {
    expect(parseNumeric('0')).toBe(0n);
    expect(parseNumeric('12.3')).toBe(1230n);
    expect(parseNumeric('12.30')).toBe(1230n);
    expect(parseNumeric('-7.05')).toBe(-705n);
    expect(parseNumeric('-0.50')).toBe(-50n);
    expect(parseNumeric('-0.00')).toBe(0n);
    expect(parseNumeric('123456789012.34')).toBe(12345678901234n);
    expect(parseNumeric(null)).toBe(0n);
    expect(parseNumeric(undefined)).toBe(0n);
    expect(parseNumeric('')).toBe(0n);
    expect(parseNumeric('1.2300')).toBe(123n);
    expect(() => parseNumeric('1.234')).toThrow('more than 2 decimals');
    expect(() => parseNumeric('1e3')).toThrow('not a numeric value');
    expect(() => parseNumeric('abc')).toThrow('not a numeric value');
  });

  describe('percentage', () => {
    it('is part / whole × 100 with two decimals, halves away from zero', () => {
      expect(percentage(19620n, 55600n)).toBe('35.29'); // 35.2877…
      expect(percentage(1n, 3n)).toBe('33.33');
      expect(percentage(2n, 3n)).toBe('66.67');
      expect(percentage(1n, 8n)).toBe('12.50');
      expect(percentage(1n, 80000n)).toBe('0.00'); // 0.00125 % rounds to 0.00
      expect(percentage(1n, 40000n)).toBe('0.00'); // 0.0025 % → 0.00
      expect(percentage(1n, 20000n)).toBe('0.01'); // 0.005 % is a half: away from zero
      expect(percentage(-1n, 20000n)).toBe('-0.01');
      expect(percentage(-12345n, 100000n)).toBe('-12.35'); // -12.345 → -12.35
      expect(percentage(300n, 100n)).toBe('300.00');
    });

    it('keeps the sign right when the whole is negative (a period of credits)', () => {
      expect(percentage(-5000n, -10000n)).toBe('50.00');
      expect(percentage(5000n, -10000n)).toBe('-50.00');
      expect(percentage(1n, -20000n)).toBe('-0.01');
    });

    it('never divides by zero: a zero whole gives 0.00', () => {
      expect(percentage(0n, 0n)).toBe('0.00');
      expect(percentage(-5000n, 0n)).toBe('0.00');
    });
  });
});
