import fc from 'fast-check';
import {
  applyPrepaidDiscount,
  computeQuote,
  priceToCents,
  quoteBody,
  prepaidAllowed,
  type QuoteInput,
} from './pricing';

const base: QuoteInput = {
  serviceType: 'new-tyres',
  tyreSize: '205/55R16',
  tyrePriceCents: 15900n,
  quantity: 1,
  prepaid: false,
};

describe('computeQuote: new tyres', () => {
  it.each([
    // qty, onsite subtotal/total/gst, prepaid discount/total/gst (gst = total ÷ 11, half-up: prices include GST)
    [1, '288.80', '288.80', '26.25', '30.00', '258.80', '23.53'],
    [2, '487.80', '487.80', '44.35', '30.00', '457.80', '41.62'],
    [3, '686.80', '686.80', '62.44', '30.00', '656.80', '59.71'],
    [4, '885.80', '885.80', '80.53', '30.00', '855.80', '77.80'],
  ])(
    'quantity %i: (159 + 25 + 15) x qty + 89.80',
    (qty, subtotal, total, gst, discount, prepaidTotal, prepaidGst) => {
      const onsite = computeQuote({ ...base, quantity: qty });
      expect(onsite).toMatchObject({
        subtotal,
        discount: '0.00',
        total,
        gst,
        callbackRequired: false,
        prepaid: false,
      });
      const prepaid = computeQuote({ ...base, quantity: qty, prepaid: true });
      expect(prepaid).toMatchObject({
        subtotal,
        discount,
        total: prepaidTotal,
        gst: prepaidGst,
        callbackRequired: false,
        prepaid: true,
      });
    },
  );

  it('itemises tyres, fitting, balancing and the callout fee', () => {
    expect(computeQuote({ ...base, quantity: 2 }).items).toEqual([
      { description: '205/55R16 tyres (2 tyres)', price: '318.00' },
      { description: 'Fitting (2 tyres)', price: '50.00' },
      { description: 'Balancing (2 tyres)', price: '30.00' },
      { description: 'Callout fee', price: '89.80' },
    ]);
    expect(computeQuote(base).items[0]).toEqual({ description: '205/55R16 tyres (1 tyre)', price: '159.00' });
  });

  it('the items always add up to the subtotal, in cents', () => {
    for (let cents = 13900n; cents < 60000n; cents += 1337n) {
      for (const quantity of [1, 2, 3, 4]) {
        const q = computeQuote({ ...base, tyrePriceCents: cents, quantity, prepaid: true });
        const sum = q.items.reduce((s, i) => s + priceToCents(i.price), 0n);
        expect(sum).toBe(priceToCents(q.subtotal));
        expect(priceToCents(q.total)).toBe(priceToCents(q.subtotal) - 3000n);
      }
    }
  });

  it('an unknown size or a size without a price needs a callback: everything zero', () => {
    for (const q of [
      computeQuote({ ...base, tyreSize: null }),
      computeQuote({ ...base, tyrePriceCents: null, prepaid: true }),
    ]) {
      expect(q).toEqual({
        items: [],
        subtotal: '0.00',
        discount: '0.00',
        gst: '0.00',
        total: '0.00',
        callbackRequired: true,
        message: 'Please call for a quote on this tyre size',
        prepaid: false,
      });
    }
  });
});

describe('computeQuote: other services', () => {
  it('puncture repair is 40 + callout 89.80 = 129.80 (99.80 prepaid)', () => {
    const onsite = computeQuote({
      ...base,
      serviceType: 'puncture-repair',
      tyreSize: null,
      tyrePriceCents: null,
    });
    expect(onsite).toMatchObject({
      items: [
        { description: 'Puncture repair', price: '40.00' },
        { description: 'Callout fee', price: '89.80' },
      ],
      subtotal: '129.80',
      discount: '0.00',
      total: '129.80',
      gst: '11.80',
      callbackRequired: false,
    });
    const prepaid = computeQuote({
      ...base,
      serviceType: 'puncture-repair',
      tyreSize: null,
      tyrePriceCents: null,
      prepaid: true,
    });
    expect(prepaid).toMatchObject({
      subtotal: '129.80',
      discount: '30.00',
      total: '99.80',
      gst: '9.07',
      prepaid: true,
    });
  });

  it('emergency callout is the callout fee (59.80 prepaid)', () => {
    expect(computeQuote({ ...base, serviceType: 'emergency-callout' })).toMatchObject({
      items: [{ description: 'Emergency callout fee', price: '89.80' }],
      subtotal: '89.80',
      total: '89.80',
      gst: '8.16',
    });
    expect(computeQuote({ ...base, serviceType: 'emergency-callout', prepaid: true })).toMatchObject({
      discount: '30.00',
      total: '59.80',
      gst: '5.44',
    });
  });

  it('battery service is one line at 0, and gets no discount even when prepaid', () => {
    for (const prepaid of [false, true]) {
      const q = computeQuote({ ...base, serviceType: 'battery-service', prepaid });
      expect(q).toEqual({
        items: [{ description: 'Battery Service (Quote on site)', price: '0.00' }],
        subtotal: '0.00',
        discount: '0.00',
        gst: '0.00',
        total: '0.00',
        callbackRequired: false,
        prepaid: false,
      });
    }
  });

  it('prepaid is allowed except for battery service and callback quotes', () => {
    expect(prepaidAllowed('new-tyres', computeQuote(base))).toBe(true);
    expect(prepaidAllowed('new-tyres', computeQuote({ ...base, tyreSize: null }))).toBe(false);
    expect(prepaidAllowed('battery-service', computeQuote({ ...base, serviceType: 'battery-service' }))).toBe(
      false,
    );
    expect(prepaidAllowed('puncture-repair', computeQuote({ ...base, serviceType: 'puncture-repair' }))).toBe(
      true,
    );
  });

  it('the public body drops internal flags and keeps message only when there is one', () => {
    expect(quoteBody(computeQuote(base))).not.toHaveProperty('prepaid');
    expect(quoteBody(computeQuote(base))).not.toHaveProperty('message');
    expect(quoteBody(computeQuote({ ...base, tyreSize: null })).message).toBe(
      'Please call for a quote on this tyre size',
    );
  });
});

describe('GST inside the quoted total (prices include GST; issue 12)', () => {
  const puncture = { ...base, serviceType: 'puncture-repair' as const, tyreSize: null, tyrePriceCents: null };

  it('a puncture repair onsite is $129.80 including $11.80 GST (not 10% of the total, $12.98)', () => {
    const q = computeQuote(puncture);
    expect(quoteBody(q)).toEqual({
      items: [
        { description: 'Puncture repair', price: '40.00' },
        { description: 'Callout fee', price: '89.80' },
      ],
      subtotal: '129.80',
      discount: '0.00',
      gst: '11.80',
      total: '129.80',
      callbackRequired: false,
    });
  });

  it('prepaid: the GST is that of the discounted total ($99.80 includes $9.07)', () => {
    expect(computeQuote({ ...puncture, prepaid: true })).toMatchObject({
      subtotal: '129.80',
      discount: '30.00',
      total: '99.80',
      gst: '9.07',
    });
  });

  it.each([
    // tyre price, qty, total onsite, its GST, total prepaid, its GST: totals not divisible by 11, either side of half a cent
    [10001n, 1, '229.81', '20.89', '199.81', '18.16'], // 20.8918… down; 18.1645… down (just under half)
    [15999n, 2, '489.78', '44.53', '459.78', '41.80'], // 44.5254… up; 41.7981… up
    [21999n, 4, '1129.76', '102.71', '1099.76', '99.98'], // 102.7054… up; 99.9781… up
  ])(
    'tyres at %p cents x %i: odd totals round half-up to the cent',
    (price, quantity, total, gst, ppTotal, ppGst) => {
      expect(computeQuote({ ...base, tyrePriceCents: price, quantity })).toMatchObject({ total, gst });
      expect(computeQuote({ ...base, tyrePriceCents: price, quantity, prepaid: true })).toMatchObject({
        total: ppTotal,
        gst: ppGst,
      });
    },
  );

  it('for any priced quote, gst is the cent nearest to total / 11', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 500_000n }),
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        (price, quantity, prepaid) => {
          const q = computeQuote({ ...base, tyrePriceCents: price, quantity, prepaid });
          const total = priceToCents(q.total);
          const gst = priceToCents(q.gst);
          const off = total - 11n * gst;
          // |total − 11·gst| < 5.5 cents: no other cent is closer (a tie cannot happen when dividing by 11).
          expect(off * 2n < 11n && off * 2n > -11n).toBe(true);
          expect(total).toBe(priceToCents(q.subtotal) - priceToCents(q.discount));
        },
      ),
    );
  });
});

describe('applyPrepaidDiscount', () => {
  it('takes $30 off a priced, prepaid quote', () => {
    expect(applyPrepaidDiscount(12980n, true)).toEqual({ discount: 3000n, total: 9980n, discounted: true });
    expect(applyPrepaidDiscount(3001n, true)).toEqual({ discount: 3000n, total: 1n, discounted: true });
  });
  it('never takes the total below zero', () => {
    expect(applyPrepaidDiscount(1000n, true)).toEqual({ discount: 3000n, total: 0n, discounted: true });
    expect(applyPrepaidDiscount(1n, true)).toEqual({ discount: 3000n, total: 0n, discounted: true });
  });
  it('gives nothing off a quote paid on site or a zero quote', () => {
    expect(applyPrepaidDiscount(12980n, false)).toEqual({ discount: 0n, total: 12980n, discounted: false });
    expect(applyPrepaidDiscount(0n, true)).toEqual({ discount: 0n, total: 0n, discounted: false });
  });
});

describe('money helpers', () => {
  it('priceToCents reads Decimal-like values and strings exactly', () => {
    expect(priceToCents('139')).toBe(13900n);
    expect(priceToCents('0.1')).toBe(10n);
    expect(priceToCents({ toFixed: () => '89.80' })).toBe(8980n);
  });
});
