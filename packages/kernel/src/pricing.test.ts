import { applyPrepaidDiscount, formatListPrice, PRICE_LIST, priceQuote } from './pricing';

describe('PRICE_LIST', () => {
  it('is section 9 in cents', () => {
    expect(PRICE_LIST).toEqual({
      calloutFee: 8980n,
      punctureRepair: 4000n,
      prepaidDiscount: 3000n,
      fittingPerTyre: 2500n,
      balancingPerTyre: 1500n,
      batteryService: 0n,
      newTyresBasePrice: 13900n,
    });
    expect(Object.isFrozen(PRICE_LIST)).toBe(true);
  });
});

describe('priceQuote', () => {
  it('prices new tyres per tyre plus the callout', () => {
    expect(
      priceQuote({
        serviceType: 'new-tyres',
        tyreSize: '205/55R16',
        tyrePriceCents: 15000n,
        quantity: 4,
        prepaid: false,
      }),
    ).toEqual({
      lines: [
        { description: '205/55R16 tyres (4 tyres)', cents: 60000n },
        { description: 'Fitting (4 tyres)', cents: 10000n },
        { description: 'Balancing (4 tyres)', cents: 6000n },
        { description: 'Callout fee', cents: 8980n },
      ],
      subtotal: 84980n,
      discount: 0n,
      total: 84980n,
      discounted: false,
    });
  });

  it('names one tyre in the singular and takes the prepaid discount', () => {
    const quote = priceQuote({
      serviceType: 'new-tyres',
      tyreSize: '205/55R16',
      tyrePriceCents: 13900n,
      quantity: 1,
      prepaid: true,
    });
    expect(quote?.lines.map((l) => l.description)).toEqual([
      '205/55R16 tyres (1 tyre)',
      'Fitting (1 tyre)',
      'Balancing (1 tyre)',
      'Callout fee',
    ]);
    expect(quote).toMatchObject({ subtotal: 26880n, discount: 3000n, total: 23880n, discounted: true });
  });

  it('needs a call-back for new tyres without a price', () => {
    expect(
      priceQuote({ serviceType: 'new-tyres', tyrePriceCents: null, quantity: 2, prepaid: false }),
    ).toBeNull();
  });

  it('prices the fixed services', () => {
    const base = { tyrePriceCents: null, quantity: 1, prepaid: false };
    expect(priceQuote({ ...base, serviceType: 'puncture-repair' })?.total).toBe(12980n);
    expect(priceQuote({ ...base, serviceType: 'emergency-callout' })?.lines).toEqual([
      { description: 'Emergency callout fee', cents: 8980n },
    ]);
    expect(priceQuote({ ...base, serviceType: 'battery-service', prepaid: true })).toEqual({
      lines: [{ description: 'Battery Service (Quote on site)', cents: 0n }],
      subtotal: 0n,
      discount: 0n,
      total: 0n,
      discounted: false,
    });
  });

  it('refuses to price an unknown service', () => {
    expect(
      priceQuote({ serviceType: 'valet' as never, tyrePriceCents: null, quantity: 1, prepaid: false }),
    ).toBeNull();
  });
});

describe('applyPrepaidDiscount', () => {
  it('discounts a priced quote, never below zero', () => {
    expect(applyPrepaidDiscount(12980n, true)).toEqual({ discount: 3000n, total: 9980n, discounted: true });
    expect(applyPrepaidDiscount(1000n, true)).toEqual({ discount: 3000n, total: 0n, discounted: true });
    expect(applyPrepaidDiscount(0n, true)).toEqual({ discount: 0n, total: 0n, discounted: false });
    expect(applyPrepaidDiscount(12980n, false)).toEqual({ discount: 0n, total: 12980n, discounted: false });
  });
});

describe('formatListPrice', () => {
  it('drops the cents of whole dollars', () => {
    expect(formatListPrice(4000n)).toBe('$40');
    expect(formatListPrice(8980n)).toBe('$89.80');
    expect(formatListPrice(123400n)).toBe('$1,234');
    expect(formatListPrice(5n)).toBe('$0.05');
  });
});
