import {
  computeQuote,
  normalizeTyreSize,
  percentOf,
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
    // qty, onsite subtotal/total/gst, prepaid discount/total/gst
    [1, '288.80', '288.80', '28.88', '30.00', '258.80', '25.88'],
    [2, '487.80', '487.80', '48.78', '30.00', '457.80', '45.78'],
    [3, '686.80', '686.80', '68.68', '30.00', '656.80', '65.68'],
    [4, '885.80', '885.80', '88.58', '30.00', '855.80', '85.58'],
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
      gst: '12.98',
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
      gst: '9.98',
      prepaid: true,
    });
  });

  it('emergency callout is the callout fee (59.80 prepaid)', () => {
    expect(computeQuote({ ...base, serviceType: 'emergency-callout' })).toMatchObject({
      items: [{ description: 'Emergency callout fee', price: '89.80' }],
      subtotal: '89.80',
      total: '89.80',
      gst: '8.98',
    });
    expect(computeQuote({ ...base, serviceType: 'emergency-callout', prepaid: true })).toMatchObject({
      discount: '30.00',
      total: '59.80',
      gst: '5.98',
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

describe('money helpers', () => {
  it('percentOf rounds half up in cents', () => {
    expect(percentOf(19980n, 10n)).toBe(1998n);
    expect(percentOf(12345n, 10n)).toBe(1235n);
    expect(percentOf(12344n, 10n)).toBe(1234n);
    expect(percentOf(0n, 10n)).toBe(0n);
  });
  it('priceToCents reads Decimal-like values and strings exactly', () => {
    expect(priceToCents('139')).toBe(13900n);
    expect(priceToCents('0.1')).toBe(10n);
    expect(priceToCents({ toFixed: () => '89.80' })).toBe(8980n);
  });
});

describe('normalizeTyreSize', () => {
  it.each([
    ['205/55R16', '205/55R16'],
    ['205/55r16', '205/55R16'],
    [' 205/55 R16 ', '205/55R16'],
    ['205 55 16', '205/55R16'],
    ['205/55/16', '205/55R16'],
    ['205-55-16', '205/55R16'],
    ['245/40ZR19', '245/40R19'],
  ])('%s -> %s', (raw, expected) => expect(normalizeTyreSize(raw)).toBe(expected));

  it.each(['', '205', '2055R16', '205/55R', 'abc/de/fg', '31x10.50R15'])('rejects %j', (raw) =>
    expect(normalizeTyreSize(raw)).toBeUndefined(),
  );
  it('rejects non-strings', () => expect(normalizeTyreSize(205)).toBeUndefined());
});
