import {
  AMOUNT_TYPE_LABEL,
  AMOUNT_TYPES,
  CARD_SURCHARGE_LINE,
  cardSurcharge,
  cardSurchargeLine,
  DEFAULT_CARD_SURCHARGE_BP,
  divideRounded,
  formatSurchargeRate,
  MAX_CARD_SURCHARGE_BP,
  parseSurchargeRate,
  surchargeRateToWire,
  exGstByCategory,
  formatAud,
  formatMoney,
  gstInInclusive,
  gstOnTop,
  invoiceTotals,
  lineAmount,
  MAX_MONEY_CENTS,
  MONEY_PATTERN,
  parseMoneyInput,
  splitInclusive,
  toCents,
  withCardSurcharge,
} from './money';

describe('rounding', () => {
  it('rounds half up (away from zero) to the cent', () => {
    expect(divideRounded(5n, 10n)).toBe(1n);
    expect(divideRounded(4n, 10n)).toBe(0n);
    expect(divideRounded(15n, 10n)).toBe(2n);
    expect(divideRounded(14n, 10n)).toBe(1n);
    expect(divideRounded(-5n, 10n)).toBe(-1n);
    expect(divideRounded(-4n, 10n)).toBe(0n);
    expect(divideRounded(0n, 11n)).toBe(0n);
    expect(() => divideRounded(1n, 0n)).toThrow(RangeError);
    expect(() => divideRounded(1n, -2n)).toThrow(RangeError);
  });
});

describe('money strings', () => {
  it('reads and writes two-place strings exactly', () => {
    expect(toCents('129.80')).toBe(12980n);
    expect(toCents('12.5')).toBe(1250n);
    expect(toCents('7')).toBe(700n);
    expect(toCents('-0.05')).toBe(-5n);
    expect(toCents('-0')).toBe(0n);
    expect(toCents(' 1.01 ')).toBe(101n);
    expect(() => toCents('1.005')).toThrow(RangeError);
    expect(() => toCents('abc')).toThrow(RangeError);
    expect(formatMoney(12980n)).toBe('129.80');
    expect(formatMoney(5n)).toBe('0.05');
    expect(formatMoney(-5n)).toBe('-0.05');
    expect(formatMoney(0n)).toBe('0.00');
    expect(formatAud(123456789n)).toBe('$1,234,567.89');
    expect(formatAud(-500n)).toBe('-$5.00');
    expect(formatAud(99n)).toBe('$0.99');
  });
  it('multiplies a line exactly', () => {
    expect(lineAmount(3, 3333n)).toBe(9999n);
    expect(lineAmount(0, 100n)).toBe(0n);
    expect(() => lineAmount(1.5, 100n)).toThrow(RangeError);
  });
});

describe('GST', () => {
  it('takes one eleventh of an inclusive price, half-up', () => {
    // The puncture repair quoted at $129.80 includes $11.80 GST.
    expect(gstInInclusive(12980n)).toBe(1180n);
    // $100.00 / 11 = 9.0909… → 9.09
    expect(gstInInclusive(10000n)).toBe(909n);
    // $0.06 / 11 = 0.00545… → 0.01; $0.05 / 11 = 0.0045 → 0.00
    expect(gstInInclusive(6n)).toBe(1n);
    expect(gstInInclusive(5n)).toBe(0n);
    // A 1-cent line carries no GST of its own.
    expect(gstInInclusive(1n)).toBe(0n);
    // $1.65 / 11 = 0.15 exactly; $1.70 / 11 = 0.1545… → 0.15; $1.71 / 11 = 0.15545… → 0.16
    expect(gstInInclusive(165n)).toBe(15n);
    expect(gstInInclusive(170n)).toBe(15n);
    expect(gstInInclusive(171n)).toBe(16n);
    expect(gstInInclusive(-12980n)).toBe(-1180n);
  });
  it('adds 10% on top, half-up', () => {
    expect(gstOnTop(12980n)).toBe(1298n);
    expect(gstOnTop(5n)).toBe(1n); // 0.5 cent rounds up
    expect(gstOnTop(4n)).toBe(0n);
    expect(gstOnTop(15n)).toBe(2n);
    expect(gstOnTop(-15n)).toBe(-2n);
  });
  it('splits an inclusive total into GST and ex-GST that add back up', () => {
    for (const total of [0n, 1n, 5n, 6n, 999n, 10000n, 12980n, 34180n, 99999n, 9_999_999_999n]) {
      const s = splitInclusive(total);
      expect(s.gst + s.exGst).toBe(total);
      expect(s.gst).toBe(gstInInclusive(total));
    }
    expect(splitInclusive(12980n, true)).toEqual({ total: 12980n, gst: 0n, exGst: 12980n });
  });
});

describe('card surcharge', () => {
  it('is 1.7% of the amount, half-up to the cent', () => {
    // $219.80 × 1.7% = 3.7366 → 3.74
    expect(cardSurcharge(21980n)).toBe(374n);
    // $99.80 × 1.7% = 1.6966 → 1.70
    expect(cardSurcharge(9980n)).toBe(170n);
    // $0.30 × 1.7% = 0.0051 → 0.01; $0.29 × 1.7% = 0.00493 → 0.00
    expect(cardSurcharge(30n)).toBe(1n);
    expect(cardSurcharge(29n)).toBe(0n);
    // $1.50 × 1.7% = 0.0255 → 0.03 (exactly half a cent above 0.025 rounds up)
    expect(cardSurcharge(150n)).toBe(3n);
    expect(cardSurcharge(0n)).toBe(0n);
    expect(withCardSurcharge(21980n)).toEqual({ original: 21980n, surcharge: 374n, total: 22354n });
  });
});

describe('invoice totals', () => {
  it('tax inclusive: the total is the sum of the lines and GST is its eleventh', () => {
    const t = invoiceTotals([{ amount: 8980n }, { amount: 4000n }], 'inclusive');
    expect(t).toEqual({ total: 12980n, gst: 1180n, subtotal: 11800n });
  });
  it('tax exclusive: GST is 10% of the line sum, added on top', () => {
    const t = invoiceTotals([{ amount: 8980n }, { amount: 4000n }], 'exclusive');
    expect(t).toEqual({ subtotal: 12980n, gst: 1298n, total: 14278n });
  });
  it('GST-free lines carry no GST in either type', () => {
    const lines = [{ amount: 11000n }, { amount: 500n, gstFree: true }];
    expect(invoiceTotals(lines, 'inclusive')).toEqual({ total: 11500n, gst: 1000n, subtotal: 10500n });
    expect(invoiceTotals(lines, 'exclusive')).toEqual({ subtotal: 11500n, gst: 1100n, total: 12600n });
    expect(invoiceTotals([{ amount: 700n, gstFree: true }], 'inclusive').gst).toBe(0n);
  });
  it('computes GST on the sum, not per line (three 1-cent lines)', () => {
    const lines = [{ amount: 1n }, { amount: 1n }, { amount: 1n }, { amount: 3n }];
    expect(invoiceTotals(lines, 'inclusive')).toEqual({ total: 6n, gst: 1n, subtotal: 5n });
    expect(invoiceTotals(lines, 'exclusive')).toEqual({ subtotal: 6n, gst: 1n, total: 7n });
  });
  it('an empty invoice is all zero', () => {
    expect(invoiceTotals([], 'inclusive')).toEqual({ subtotal: 0n, gst: 0n, total: 0n });
    expect(invoiceTotals([], 'exclusive')).toEqual({ subtotal: 0n, gst: 0n, total: 0n });
  });
});

describe('ex-GST income per category', () => {
  it('adds up exactly to the invoice subtotal (tax inclusive)', () => {
    const lines = [
      { category: 'callout', amount: 5980n },
      { category: 'tyre', amount: 27800n },
      { category: 'labour', amount: 8000n },
      { category: 'surcharge', amount: 374n },
      { category: 'note', amount: 0n },
    ];
    const byCategory = exGstByCategory(lines, 'inclusive');
    const sum = [...byCategory.values()].reduce((a, b) => a + b, 0n);
    expect(sum).toBe(invoiceTotals(lines, 'inclusive').subtotal);
    expect(byCategory.get('note')).toBe(0n);
    expect(byCategory.get('labour')).toBe(8000n - 727n);
  });
  it('puts the rounding cent on the largest taxable category', () => {
    // Each 1-cent line rounds its share to 0, but the sum of 6 cents carries 1 cent of GST.
    const lines = ['a', 'b', 'c', 'd', 'e'].map((category) => ({ category, amount: 1n }));
    lines.push({ category: 'f', amount: 1n });
    const byCategory = exGstByCategory(lines, 'inclusive');
    expect([...byCategory.values()].reduce((a, b) => a + b, 0n)).toBe(5n);
  });
  it('keeps GST-free lines whole and leaves exclusive invoices as entered', () => {
    const lines = [
      { category: 'tyre', amount: 11000n },
      { category: 'fee', amount: 500n, gstFree: true },
    ];
    expect(exGstByCategory(lines, 'inclusive')).toEqual(
      new Map([
        ['tyre', 10000n],
        ['fee', 500n],
      ]),
    );
    expect(exGstByCategory(lines, 'exclusive').get('tyre')).toBe(11000n);
  });
});

describe('money input', () => {
  it.each([
    ['12.50', 1250n],
    ['$1,234.56', 123456n],
    [' 7 ', 700n],
    ['.5', 50n],
    ['-3.10', -310n],
    [0.1 + 0.2, 30n],
    [19.99, 1999n],
    [0, 0n],
  ])('reads %p', (input, cents) => {
    expect(parseMoneyInput(input)).toEqual({ ok: true, cents });
  });
  it.each([
    ['', 'not-a-number'],
    ['abc', 'not-a-number'],
    [Number.NaN, 'not-a-number'],
    [Infinity, 'not-a-number'],
    [null, 'not-a-number'],
    ['12.345', 'too-many-places'],
    [12.345, 'too-many-places'],
    ['100000000.00', 'too-large'],
    [1e12, 'too-large'],
    ['99999999999999999999999', 'too-large'],
  ])('refuses %p', (input, reason) => {
    expect(parseMoneyInput(input)).toEqual({ ok: false, reason });
  });
  it('accepts the largest column value', () => {
    expect(parseMoneyInput('99999999.99')).toEqual({ ok: true, cents: 9_999_999_999n });
  });
});

// Pinned by the mutation run (npm run test:mutation): each case below fails if the rule it names is weakened.
describe('money rules, edge by edge', () => {
  it('says why a divisor or a quantity is refused', () => {
    expect(() => divideRounded(1n, 0n)).toThrow('divisor must be positive');
    expect(() => lineAmount(1.5, 100n)).toThrow('quantity must be a whole number');
    expect(() => lineAmount(Number.NaN, 100n)).toThrow('quantity must be a whole number');
    expect(() => toCents('1.005')).toThrow('Not a decimal with at most 2 places: "1.005"');
  });

  it('the wire format is a sign, digits, a point and exactly two places', () => {
    for (const ok of ['0.00', '129.80', '-5.00', '12345678.90']) expect(MONEY_PATTERN.test(ok)).toBe(true);
    for (const bad of ['1.5', '1.500', '12', '.50', '-.50', 'a.bc', '1.ab', '+1.00', '1,234.00', ' 1.00'])
      expect(MONEY_PATTERN.test(bad)).toBe(false);
  });

  it('names the amount types and the surcharge line as invoices show them', () => {
    expect(AMOUNT_TYPES).toEqual(['inclusive', 'exclusive']);
    expect(AMOUNT_TYPE_LABEL).toEqual({ inclusive: 'Amounts include GST', exclusive: 'GST added' });
    expect(CARD_SURCHARGE_LINE).toBe('Card surcharge 1.7%');
    expect(MAX_MONEY_CENTS).toBe(9_999_999_999n);
  });

  it('gives the rounding cent to the category with the most taxable money, wherever it is listed', () => {
    // 1 c and 5 c round to no GST each, but their 6 c carry 1 c: it comes off the larger category.
    expect(
      exGstByCategory(
        [
          { category: 'callout', amount: 1n },
          { category: 'tyre', amount: 5n },
        ],
        'inclusive',
      ),
    ).toEqual(
      new Map([
        ['callout', 1n],
        ['tyre', 4n],
      ]),
    );
    // A tie keeps the first listed.
    expect(
      exGstByCategory(
        [
          { category: 'labour', amount: 3n },
          { category: 'tyre', amount: 3n },
        ],
        'inclusive',
      ),
    ).toEqual(
      new Map([
        ['labour', 2n],
        ['tyre', 3n],
      ]),
    );
  });

  it('takes back a cent when the shares round up more than the invoice GST', () => {
    // 6 c each carry 1 c of GST on their own (0.545… → 1), but 12 c carry 1 c: one share gives a cent back.
    const lines = [
      { category: 'callout', amount: 6n },
      { category: 'labour', amount: 6n },
    ];
    expect(invoiceTotals(lines, 'inclusive')).toEqual({ total: 12n, gst: 1n, subtotal: 11n });
    expect(exGstByCategory(lines, 'inclusive')).toEqual(
      new Map([
        ['callout', 6n],
        ['labour', 5n],
      ]),
    );
  });

  it('credits (negative lines) still add up to the invoice', () => {
    const lines = [
      { category: 'callout', amount: -1n },
      { category: 'tyre', amount: -5n },
    ];
    // −6 c carries −1 c of GST (half away from zero) although each share rounds to 0: one category takes it.
    expect(invoiceTotals(lines, 'inclusive')).toEqual({ total: -6n, gst: -1n, subtotal: -5n });
    const byCategory = exGstByCategory(lines, 'inclusive');
    expect([...byCategory.values()].reduce((a, b) => a + b, 0n)).toBe(-5n);
  });

  it('an invoice without lines has no categories', () => {
    expect(exGstByCategory([], 'inclusive')).toEqual(new Map());
    expect(exGstByCategory([], 'exclusive')).toEqual(new Map());
  });

  it.each([
    ['1,234', 123400n], // a thousands separator at the end of the number
    ['12,345,678.90', 1234567890n],
    ['.55', 55n],
    ['00000000000001.00', 100n], // leading zeros are not digits of the amount
    ['+7.25', 725n],
    [-3.1, -310n],
    [99999999.99, 9_999_999_999n], // the largest column value as a JSON number
    [-99999999.99, -9_999_999_999n],
  ])('reads %p', (input, cents) => {
    expect(parseMoneyInput(input)).toEqual({ ok: true, cents });
  });

  it.each([
    ['12$', 'not-a-number'], // "$" only in front
    ['abc12', 'not-a-number'],
    ['12abc', 'not-a-number'],
    ['1-2', 'not-a-number'],
    [undefined, 'not-a-number'],
    [{ amount: 5 }, 'not-a-number'],
    [1e300, 'too-large'], // finite, but no exact cent value
    [-1e12, 'too-large'],
    [100000000, 'too-large'],
    ['-100000000.00', 'too-large'],
  ])('refuses %p', (input, reason) => {
    expect(parseMoneyInput(input)).toEqual({ ok: false, reason });
  });
});

describe('card surcharge at the rate in force (issue 19 item 5)', () => {
  it('is the rate of the amount, half-up to the cent, at several rates', () => {
    // 1.50% of $219.80 = 3.297 → 3.30; of $1.00 = 0.015 → 0.02 (half up)
    expect(cardSurcharge(21980n, 150n)).toBe(330n);
    expect(cardSurcharge(100n, 150n)).toBe(2n);
    // 1.75% of $219.80 = 3.8465 → 3.85; 2% of $99.80 = 1.996 → 2.00; 0% is nothing
    expect(cardSurcharge(21980n, 175n)).toBe(385n);
    expect(cardSurcharge(9980n, 200n)).toBe(200n);
    expect(cardSurcharge(21980n, 0n)).toBe(0n);
    // 5% of $0.10 = 0.005 → 0.01
    expect(cardSurcharge(10n, 500n)).toBe(1n);
    // The default is the seeded 1.70%, the same as before.
    expect(cardSurcharge(21980n, DEFAULT_CARD_SURCHARGE_BP)).toBe(cardSurcharge(21980n));
    expect(withCardSurcharge(21980n, 150n)).toEqual({ original: 21980n, surcharge: 330n, total: 22310n });
  });

  it('formats a rate as the business writes it, and on the wire with two places', () => {
    expect(formatSurchargeRate(170n)).toBe('1.7%');
    expect(formatSurchargeRate(150n)).toBe('1.5%');
    expect(formatSurchargeRate(200n)).toBe('2%');
    expect(formatSurchargeRate(175n)).toBe('1.75%');
    expect(formatSurchargeRate(5n)).toBe('0.05%');
    expect(formatSurchargeRate(0n)).toBe('0%');
    expect(surchargeRateToWire(170n)).toBe('1.70');
    expect(surchargeRateToWire(5n)).toBe('0.05');
    expect(cardSurchargeLine(150n)).toBe('Card surcharge 1.5%');
    expect(cardSurchargeLine()).toBe(CARD_SURCHARGE_LINE);
  });

  it.each([
    ['1.70', 170n],
    ['1.7', 170n],
    [' 2 ', 200n],
    ['1.5%', 150n],
    [1.75, 175n],
    ['0', 0n],
    ['5.00', 500n],
  ])('reads the rate %p', (input, bp) => {
    expect(parseSurchargeRate(input)).toBe(bp);
  });

  it.each([['5.01'], ['-1'], ['1.705'], ['abc'], [''], [null], [Number.NaN], [1.234]])('refuses %p', (input) => {
    expect(parseSurchargeRate(input)).toBeUndefined();
  });
  it('has the law-minded ceiling of 5%', () => expect(MAX_CARD_SURCHARGE_BP).toBe(500n));
});
