import { cardSurcharge, formatMoney, invoiceTotals, toCents } from '@tyres/kernel';
import {
  buildInvoiceLines,
  parseJobQuote,
  prepaidInvoiceLines,
  type GeneratedLine,
  type JobForInvoice,
} from './invoice-lines';

const job = (over: Partial<Omit<JobForInvoice, 'customerValue'>> & { customerValue?: string } = {}) => {
  const { customerValue = '0.00', ...rest } = over;
  return {
    serviceType: 'new-tyres',
    tyreSize: '205/55R16',
    tyreQuantity: 4,
    tyreBrand: null,
    paymentMethod: 'onsite',
    paymentStatus: 'pending',
    ...rest,
    customerValue: toCents(customerValue),
  } satisfies JobForInvoice;
};

/** [description, category, quantity, unit price, line total] as the invoice shows them. */
const rows = (lines: readonly GeneratedLine[]) =>
  lines.map((l) => [
    l.description,
    l.category,
    l.quantity,
    formatMoney(l.unitPrice),
    formatMoney(l.totalPrice),
  ]);
const view = (j: JobForInvoice) => rows(buildInvoiceLines(j));
/** What the tax-inclusive invoice of these lines totals, and its GST. */
const totals = (lines: readonly GeneratedLine[]) => {
  const t = invoiceTotals(
    lines.map((l) => ({ amount: l.totalPrice, gstFree: l.gstFree })),
    'inclusive',
  );
  return { total: formatMoney(t.total), gst: formatMoney(t.gst), exGst: formatMoney(t.subtotal) };
};

describe('generated invoice lines (tax inclusive: they add up to the job price)', () => {
  it('puncture repair quoted at $129.80: callout 89.80 + repair 40.00, total 129.80, GST 11.80 (total ÷ 11)', () => {
    const lines = buildInvoiceLines(job({ serviceType: 'puncture-repair', customerValue: '129.80' }));
    expect(rows(lines)).toEqual([
      ['Mobile callout fee', 'callout', 1, '89.80', '89.80'],
      ['Puncture repair', 'labour', 1, '40.00', '40.00'],
    ]);
    expect(totals(lines)).toEqual({ total: '129.80', gst: '11.80', exGst: '118.00' });
    expect(lines.every((l) => l.gstFree === false)).toBe(true);
  });

  it('new tyres: callout, tyres, fitting and balancing per tyre; the tyre line takes what the fees leave', () => {
    // (139 + 25 + 15) × 4 + 89.80 = 805.80
    const lines = buildInvoiceLines(job({ customerValue: '805.80' }));
    expect(rows(lines)).toEqual([
      ['Mobile callout fee', 'callout', 1, '89.80', '89.80'],
      ['New tyre 205/55R16', 'tyre', 4, '139.00', '556.00'],
      ['Tyre fitting', 'labour', 4, '25.00', '100.00'],
      ['Wheel balancing', 'labour', 4, '15.00', '60.00'],
    ]);
    expect(totals(lines)).toEqual({ total: '805.80', gst: '73.25', exGst: '732.55' });
  });

  it('new tyres prepaid and paid: the $30 discount on the callout line, and the paid-online note', () => {
    const lines = buildInvoiceLines(
      job({
        customerValue: '775.80',
        paymentMethod: 'prepaid',
        paymentStatus: 'paid',
        tyreBrand: 'Michelin',
      }),
    );
    expect(rows(lines)).toEqual([
      ['Mobile callout fee (less $30.00 prepaid online discount)', 'callout', 1, '59.80', '59.80'],
      ['New tyre 205/55R16 (Michelin)', 'tyre', 4, '139.00', '556.00'],
      ['Tyre fitting', 'labour', 4, '25.00', '100.00'],
      ['Wheel balancing', 'labour', 4, '15.00', '60.00'],
      ['Paid online at booking - thank you', 'note', 1, '0.00', '0.00'],
    ]);
    expect(totals(lines).total).toBe('775.80');
  });

  it('the paid-online note needs both: prepaid and paid', () => {
    const notes = (paymentMethod: string, paymentStatus: string) =>
      buildInvoiceLines(job({ customerValue: '775.80', paymentMethod, paymentStatus })).filter(
        (l) => l.category === 'note',
      ).length;
    expect(notes('prepaid', 'paid')).toBe(1);
    expect(notes('prepaid', 'pending')).toBe(0);
    expect(notes('onsite', 'paid')).toBe(0);
  });

  it('a tyre remainder that does not split per tyre becomes one line of the total', () => {
    // 500.01 − 89.80 − 75 − 45 = 290.21 for 3 tyres
    const lines = buildInvoiceLines(job({ tyreQuantity: 3, customerValue: '500.01' }));
    expect(rows(lines)[1]).toEqual(['3 × New tyre 205/55R16', 'tyre', 1, '290.21', '290.21']);
    expect(totals(lines).total).toBe('500.01');
  });

  it('tyre quantity: none or 0 is one tyre, more than 4 is 4', () => {
    const tyres = (tyreQuantity: number | null) =>
      buildInvoiceLines(job({ tyreQuantity })).map((l) => l.quantity);
    expect(tyres(null)).toEqual([1, 1, 1, 1]);
    expect(tyres(0)).toEqual([1, 1, 1, 1]);
    expect(tyres(2)).toEqual([1, 2, 2, 2]);
    expect(tyres(4)).toEqual([1, 4, 4, 4]);
    expect(tyres(9)).toEqual([1, 4, 4, 4]);
  });

  it('the tyre description: size and brand when known, blanks ignored', () => {
    const described = (tyreSize: string | null, tyreBrand: string | null) =>
      buildInvoiceLines(job({ tyreSize, tyreBrand }))[1]?.description;
    expect(described(' 225/45R17 ', ' Bridgestone ')).toBe('New tyre 225/45R17 (Bridgestone)');
    expect(described(null, null)).toBe('New tyre');
    expect(described('  ', '')).toBe('New tyre');
    expect(described(null, 'Toyo')).toBe('New tyre (Toyo)');
  });

  it('without a value yet (callback quote): the price list, tyres at 0 for staff to price', () => {
    expect(view(job({ tyreQuantity: 2, tyreSize: null }))).toEqual([
      ['Mobile callout fee', 'callout', 1, '89.80', '89.80'],
      ['New tyre', 'tyre', 2, '0.00', '0.00'],
      ['Tyre fitting', 'labour', 2, '25.00', '50.00'],
      ['Wheel balancing', 'labour', 2, '15.00', '30.00'],
    ]);
    // Prepaid without a value: the discount still shows.
    expect(view(job({ tyreQuantity: 1, paymentMethod: 'prepaid' }))[0]).toEqual([
      'Mobile callout fee (less $30.00 prepaid online discount)',
      'callout',
      1,
      '59.80',
      '59.80',
    ]);
    expect(view(job({ serviceType: 'puncture-repair', paymentMethod: 'prepaid' }))).toEqual([
      ['Mobile callout fee (less $30.00 prepaid online discount)', 'callout', 1, '59.80', '59.80'],
      ['Puncture repair', 'labour', 1, '40.00', '40.00'],
    ]);
  });

  it('new tyres valued exactly at the fees: tyres at 0', () => {
    expect(view(job({ tyreQuantity: 1, customerValue: '129.80' }))).toEqual([
      ['Mobile callout fee', 'callout', 1, '89.80', '89.80'],
      ['New tyre 205/55R16', 'tyre', 1, '0.00', '0.00'],
      ['Tyre fitting', 'labour', 1, '25.00', '25.00'],
      ['Wheel balancing', 'labour', 1, '15.00', '15.00'],
    ]);
  });

  it('valued below the fees: tyres 0 and the fees reduced, first lines first, never negative', () => {
    expect(view(job({ tyreQuantity: 1, customerValue: '100.00' }))).toEqual([
      ['Mobile callout fee', 'callout', 1, '60.00', '60.00'],
      ['New tyre 205/55R16', 'tyre', 1, '0.00', '0.00'],
      ['Tyre fitting', 'labour', 1, '25.00', '25.00'],
      ['Wheel balancing', 'labour', 1, '15.00', '15.00'],
    ]);
    // 169.80 of fees for 2 tyres, valued 10.00: callout and fitting to 0, balancing 10.00 (5.00 per tyre).
    expect(view(job({ tyreQuantity: 2, customerValue: '10.00' }))).toEqual([
      ['Mobile callout fee', 'callout', 1, '0.00', '0.00'],
      ['New tyre 205/55R16', 'tyre', 2, '0.00', '0.00'],
      ['Tyre fitting', 'labour', 2, '0.00', '0.00'],
      ['Wheel balancing', 'labour', 2, '5.00', '10.00'],
    ]);
    // A reduced multi-tyre fee that does not split per tyre becomes one line of its total.
    expect(view(job({ tyreQuantity: 2, customerValue: '10.01' }))[3]).toEqual([
      '2 × Wheel balancing',
      'labour',
      1,
      '10.01',
      '10.01',
    ]);
    expect(totals(buildInvoiceLines(job({ tyreQuantity: 2, customerValue: '0.01' }))).total).toBe('0.01');
  });

  it('puncture repair prepaid at the discounted price shows the discount; at the full price it does not', () => {
    const prepaid = buildInvoiceLines(
      job({ serviceType: 'puncture-repair', customerValue: '99.80', paymentMethod: 'prepaid' }),
    );
    expect(rows(prepaid)).toEqual([
      ['Mobile callout fee (less $30.00 prepaid online discount)', 'callout', 1, '59.80', '59.80'],
      ['Puncture repair', 'labour', 1, '40.00', '40.00'],
    ]);
    expect(totals(prepaid)).toEqual({ total: '99.80', gst: '9.07', exGst: '90.73' });
    expect(
      view(job({ serviceType: 'puncture-repair', customerValue: '129.80', paymentMethod: 'prepaid' })),
    ).toEqual([
      ['Mobile callout fee', 'callout', 1, '89.80', '89.80'],
      ['Puncture repair', 'labour', 1, '40.00', '40.00'],
    ]);
  });

  it('a fixed-price job valued below its list price, paid on site: the fees are reduced', () => {
    expect(view(job({ serviceType: 'puncture-repair', customerValue: '100.00' }))).toEqual([
      ['Mobile callout fee', 'callout', 1, '60.00', '60.00'],
      ['Puncture repair', 'labour', 1, '40.00', '40.00'],
    ]);
  });

  it('extra value on a fixed-price job goes to an additional services line', () => {
    expect(view(job({ serviceType: 'emergency-callout', customerValue: '150.00' }))).toEqual([
      ['Emergency callout fee', 'callout', 1, '89.80', '89.80'],
      ['Additional services', 'labour', 1, '60.20', '60.20'],
    ]);
    expect(view(job({ serviceType: 'emergency-callout', customerValue: '89.80' }))).toEqual([
      ['Emergency callout fee', 'callout', 1, '89.80', '89.80'],
    ]);
  });

  it('battery service: one battery line, quoted on site (0 until priced, or the job value); no callout to discount', () => {
    expect(view(job({ serviceType: 'battery-service', tyreQuantity: null }))).toEqual([
      ['Battery Service (Quote on site)', 'battery', 1, '0.00', '0.00'],
    ]);
    expect(
      view(job({ serviceType: 'battery-service', customerValue: '245.00', paymentMethod: 'prepaid' })),
    ).toEqual([['Battery Service (Quote on site)', 'battery', 1, '245.00', '245.00']]);
  });

  it.each([
    ['new-tyres', '0.01'],
    ['new-tyres', '321.45'],
    ['new-tyres', '99999.99'],
    ['puncture-repair', '0.01'],
    ['puncture-repair', '321.45'],
    ['battery-service', '0.07'],
    ['emergency-callout', '12.34'],
    ['emergency-callout', '321.45'],
  ] as const)(
    '%s valued %s: lines add up exactly, quantity × unit price each, none negative',
    (serviceType, value) => {
      for (const paymentMethod of ['onsite', 'prepaid']) {
        for (const tyreQuantity of [1, 3]) {
          const lines = buildInvoiceLines(
            job({ serviceType, customerValue: value, paymentMethod, tyreQuantity }),
          );
          expect(totals(lines).total).toBe(value);
          for (const l of lines) {
            expect(l.totalPrice).toBe(l.unitPrice * BigInt(l.quantity));
            expect(l.unitPrice >= 0n && Number.isInteger(l.quantity) && l.quantity > 0).toBe(true);
            expect(['callout', 'tyre', 'labour', 'battery', 'note']).toContain(l.category);
          }
        }
      }
    },
  );
});

describe("a prepaid booking's invoice (made when the card payment succeeds)", () => {
  // Two tyres at 139: (139 + 25 + 15) × 2 + 89.80 − 30 discount = 417.80; surcharge 1.7% = 7.1026 → 7.10.
  const original = toCents('417.80');
  const payment = { originalAmount: original, surchargeAmount: cardSurcharge(original) };

  it('the discounted job price, the "Card surcharge 1.7%" line and the paid note: exactly what the card was charged', () => {
    const lines = prepaidInvoiceLines(
      job({ tyreQuantity: 2, customerValue: '417.80', paymentMethod: 'prepaid', paymentStatus: 'paid' }),
      payment,
    );
    expect(rows(lines)).toEqual([
      ['Mobile callout fee (less $30.00 prepaid online discount)', 'callout', 1, '59.80', '59.80'],
      ['New tyre 205/55R16', 'tyre', 2, '139.00', '278.00'],
      ['Tyre fitting', 'labour', 2, '25.00', '50.00'],
      ['Wheel balancing', 'labour', 2, '15.00', '30.00'],
      ['Card surcharge 1.7%', 'surcharge', 1, '7.10', '7.10'],
      ['Paid online at booking - thank you', 'note', 1, '0.00', '0.00'],
    ]);
    // The surcharge is part of the taxable supply: GST is the whole total ÷ 11.
    expect(totals(lines)).toEqual({ total: '424.90', gst: '38.63', exGst: '386.27' });
    expect(lines.every((l) => !l.gstFree)).toBe(true);
  });

  it("prices the job at what was paid, whatever the job's stored value and payment fields say", () => {
    const lines = prepaidInvoiceLines(
      job({ serviceType: 'puncture-repair', customerValue: '129.80', paymentMethod: 'onsite' }),
      { originalAmount: toCents('99.80'), surchargeAmount: toCents('1.70') },
    );
    expect(rows(lines)).toEqual([
      ['Mobile callout fee (less $30.00 prepaid online discount)', 'callout', 1, '59.80', '59.80'],
      ['Puncture repair', 'labour', 1, '40.00', '40.00'],
      ['Card surcharge 1.7%', 'surcharge', 1, '1.70', '1.70'],
      ['Paid online at booking - thank you', 'note', 1, '0.00', '0.00'],
    ]);
  });

  it('no surcharge line when the surcharge rounds to nothing', () => {
    const lines = prepaidInvoiceLines(job({ serviceType: 'battery-service' }), {
      originalAmount: toCents('0.29'),
      surchargeAmount: cardSurcharge(toCents('0.29')),
    });
    expect(rows(lines)).toEqual([
      ['Battery Service (Quote on site)', 'battery', 1, '0.29', '0.29'],
      ['Paid online at booking - thank you', 'note', 1, '0.00', '0.00'],
    ]);
  });
});

describe('invoice lines from the quote the job was booked at (issue 19 price list)', () => {
  // Callout raised to 99.80 by an admin; 4 tyres at 120 each: what the kernel quoted at booking.
  const stored = {
    lines: [
      { code: 'tyre', description: '205/55R16 tyres (4)', amount: '480.00' },
      { code: 'fitting', description: 'Fitting (4)', amount: '100.00' },
      { code: 'balancing', description: 'Balancing (4)', amount: '60.00' },
      { code: 'callout', description: 'Callout fee', amount: '99.80' },
    ],
    subtotal: '739.80',
    discount: '0.00',
    total: '739.80',
  };

  it('shows the quoted fees (the new callout), not the code constants, and adds up to the quoted total', () => {
    const lines = buildInvoiceLines(job({ customerValue: '739.80', quote: parseJobQuote(stored) }));
    expect(rows(lines)).toEqual([
      ['Mobile callout fee', 'callout', 1, '99.80', '99.80'],
      ['New tyre 205/55R16', 'tyre', 4, '120.00', '480.00'],
      ['Tyre fitting', 'labour', 4, '25.00', '100.00'],
      ['Wheel balancing', 'labour', 4, '15.00', '60.00'],
    ]);
    expect(totals(lines)).toEqual({ total: '739.80', gst: '67.25', exGst: '672.55' });
  });

  it('without a stored quote (an older booking) the code split still stands, with its "Additional services"', () => {
    const lines = buildInvoiceLines(job({ serviceType: 'puncture-repair', customerValue: '139.80' }));
    expect(rows(lines)).toContainEqual(['Additional services', 'labour', 1, '10.00', '10.00']);
    const quoted = buildInvoiceLines(
      job({
        serviceType: 'puncture-repair',
        customerValue: '139.80',
        quote: parseJobQuote({
          lines: [
            { code: 'puncture-repair', description: 'Puncture repair', amount: '40.00' },
            { code: 'callout', description: 'Callout fee', amount: '99.80' },
          ],
          subtotal: '139.80',
          discount: '0.00',
          total: '139.80',
        }),
      }),
    );
    expect(rows(quoted)).toEqual([
      ['Mobile callout fee', 'callout', 1, '99.80', '99.80'],
      ['Puncture repair', 'labour', 1, '40.00', '40.00'],
    ]);
  });

  it('a prepaid quote shows its discount on the callout line and the card surcharge', () => {
    const quote = parseJobQuote({ ...stored, discount: '30.00', total: '709.80' });
    const lines = prepaidInvoiceLines(job({ paymentMethod: 'prepaid', quote }), {
      originalAmount: toCents('709.80'),
      surchargeAmount: cardSurcharge(toCents('709.80')),
    });
    expect(rows(lines)[0]).toEqual([
      'Mobile callout fee (less $30.00 prepaid online discount)',
      'callout',
      1,
      '69.80',
      '69.80',
    ]);
    const paid = lines.reduce((s, l) => s + l.totalPrice, 0n);
    expect(paid).toBe(toCents('709.80') + cardSurcharge(toCents('709.80')));
  });

  it('a staff price edit keeps the quoted lines and sums exactly: a rise adds a line, a drop lowers the first lines', () => {
    const quote = parseJobQuote(stored);
    const up = buildInvoiceLines(job({ customerValue: '750.01', quote }));
    expect(rows(up).at(-1)).toEqual(['Additional services', 'labour', 1, '10.21', '10.21']);
    expect(totals(up).total).toBe('750.01');
    const down = buildInvoiceLines(job({ customerValue: '700.00', quote }));
    expect(rows(down)[0]).toEqual(['Mobile callout fee', 'callout', 1, '60.00', '60.00']);
    expect(totals(down).total).toBe('700.00');
  });

  it('a malformed stored quote is ignored (fallback split)', () => {
    expect(parseJobQuote({ lines: [{ code: 'x', description: 'y', amount: 'abc' }], discount: '0.00' })).toBe(
      undefined,
    );
    expect(parseJobQuote(null)).toBe(undefined);
  });
});
