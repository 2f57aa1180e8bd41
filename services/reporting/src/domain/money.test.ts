import {
  divideRoundHalfAwayFromZero,
  formatMoney,
  normaliseMoney,
  parseMoney,
  parseNumeric,
  percentage,
  sumCents,
} from './money';

describe('money', () => {
  it('parses and formats 2-decimal strings exactly', () => {
    expect(parseMoney('0.00')).toBe(0n);
    expect(parseMoney('123.45')).toBe(12345n);
    expect(parseMoney('-0.05')).toBe(-5n);
    expect(parseMoney('99999999.99')).toBe(9999999999n);
    expect(formatMoney(12345n)).toBe('123.45');
    expect(formatMoney(-5n)).toBe('-0.05');
    expect(formatMoney(0n)).toBe('0.00');
    expect(formatMoney(-0n)).toBe('0.00');
    expect(normaliseMoney('007.50')).toBe('7.50');
    expect(normaliseMoney('-0.00')).toBe('0.00');
  });

  it('refuses anything that is not a money string', () => {
    for (const bad of ['1', '1.5', '1.234', '', 'abc', '1e3', ' 1.00'])
      expect(() => parseMoney(bad)).toThrow('not a money amount');
  });

  it('adds cents with no float drift (0.10 + 0.20 is 0.30, a million times over)', () => {
    expect(formatMoney(parseMoney('0.10') + parseMoney('0.20'))).toBe('0.30');
    const many = Array.from({ length: 1_000_000 }, () => parseMoney('0.10'));
    expect(formatMoney(sumCents(many))).toBe('100000.00');
  });

  it('parses Postgres numeric sums given as text', () => {
    expect(parseNumeric('0')).toBe(0n);
    expect(parseNumeric('12.3')).toBe(1230n);
    expect(parseNumeric('12.30')).toBe(1230n);
    expect(parseNumeric('-7.05')).toBe(-705n);
    expect(parseNumeric('123456789012.34')).toBe(12345678901234n);
    expect(parseNumeric(null)).toBe(0n);
    expect(parseNumeric('1.2300')).toBe(123n);
    expect(() => parseNumeric('1.234')).toThrow('more than 2 decimals');
  });

  it('divides rounding halves away from zero', () => {
    expect(divideRoundHalfAwayFromZero(5n, 2n)).toBe(3n);
    expect(divideRoundHalfAwayFromZero(-5n, 2n)).toBe(-3n);
    expect(divideRoundHalfAwayFromZero(4n, 3n)).toBe(1n);
    expect(divideRoundHalfAwayFromZero(-4n, 3n)).toBe(-1n);
    expect(divideRoundHalfAwayFromZero(5n, -2n)).toBe(-3n);
    expect(divideRoundHalfAwayFromZero(0n, 7n)).toBe(0n);
    expect(() => divideRoundHalfAwayFromZero(1n, 0n)).toThrow(RangeError);
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

    it('never divides by zero: a zero whole gives 0.00', () => {
      expect(percentage(0n, 0n)).toBe('0.00');
      expect(percentage(-5000n, 0n)).toBe('0.00');
    });
  });
});
