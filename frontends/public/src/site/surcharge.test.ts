import {
  BUILD_SURCHARGE,
  rateFromFraction,
  rateFromPercent,
  rateOfConfig,
  surchargeAt,
  surchargedAt,
} from './surcharge';

describe('the card surcharge rate the site prints (issue 19)', () => {
  test("the build's rate is the kernel's seeded 1.7%", () => {
    expect(BUILD_SURCHARGE).toEqual({ rate: 170n, label: '1.7%' });
  });

  test('a decimal fraction (billing /api/payments/config surchargeRate) to basis points, without floating point', () => {
    expect(rateFromFraction('0.017')).toBe(170n);
    expect(rateFromFraction('0.0175')).toBe(175n);
    expect(rateFromFraction('0.015')).toBe(150n);
    expect(rateFromFraction('0.02')).toBe(200n);
    expect(rateFromFraction('0')).toBe(0n);
    expect(rateFromFraction('0.05')).toBe(500n);
    // Over the price list's 5% cap, more than basis points, or not a number: not a rate.
    expect(rateFromFraction('0.051')).toBeUndefined();
    expect(rateFromFraction('1.70')).toBeUndefined();
    expect(rateFromFraction('0.01755')).toBeUndefined();
    expect(rateFromFraction('-0.01')).toBeUndefined();
    expect(rateFromFraction('abc')).toBeUndefined();
    expect(rateFromFraction(0.017)).toBeUndefined();
  });

  test('a percentage (booking quotes, a display field) through the kernel parser', () => {
    expect(rateFromPercent('1.70')).toBe(170n);
    expect(rateFromPercent('1.5%')).toBe(150n);
    expect(rateFromPercent(undefined)).toBeUndefined();
  });

  test('the config answer: a display field when there is one, else the decimal rate', () => {
    expect(rateOfConfig({ mode: 'live', testMode: false, surchargeRate: '0.0125' })).toBe(125n);
    expect(rateOfConfig({ surchargeRate: '0.017', surchargeRateLabel: '1.5%' })).toBe(150n);
    expect(rateOfConfig({ surchargeRate: 'x', surchargeRateLabel: 'nonsense' })).toBeUndefined();
    expect(rateOfConfig(null)).toBeUndefined();
  });

  test("labels and amounts are the kernel's: formatSurchargeRate, withCardSurcharge (half-up)", () => {
    expect(surchargeAt(125n).label).toBe('1.25%');
    expect(surchargeAt(200n).label).toBe('2%');
    // 258.80 at 1.7% = 4.3996 -> 4.40; 99.80 at 1.5% = 1.497 -> 1.50.
    expect(surchargedAt(25880n, surchargeAt(170n))).toEqual({
      original: 25880n,
      surcharge: 440n,
      total: 26320n,
    });
    expect(surchargedAt(9980n, surchargeAt(150n)).total).toBe(10130n);
  });
});
