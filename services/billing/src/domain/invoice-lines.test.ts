import { buildInvoiceLines, type JobForInvoice } from './invoice-lines';
import { invoiceTotals } from './money';

const job = (over: Partial<JobForInvoice>): JobForInvoice => ({
  serviceType: 'new-tyres',
  tyreSize: '205/55R16',
  tyreQuantity: 4,
  tyreBrand: null,
  customerValue: '0.00',
  paymentMethod: 'onsite',
  paymentStatus: 'pending',
  ...over,
});

const view = (j: JobForInvoice) =>
  buildInvoiceLines(j).map((l) => [
    l.description,
    l.category,
    l.quantity,
    l.unitPrice.toFixed(2),
    l.totalPrice.toFixed(2),
  ]);
const subtotal = (j: JobForInvoice) =>
  invoiceTotals(buildInvoiceLines(j).map((l) => l.totalPrice)).subtotalAmount.toFixed(2);

describe('generated invoice lines', () => {
  it('new tyres: callout, tyres, fitting and balancing per tyre, adding up to the job value', () => {
    // (139 + 25 + 15) × 4 + 89.80 = 805.80
    const j = job({ customerValue: '805.80' });
    expect(view(j)).toEqual([
      ['Mobile callout fee', 'callout', 1, '89.80', '89.80'],
      ['New tyre 205/55R16', 'tyre', 4, '139.00', '556.00'],
      ['Tyre fitting', 'labour', 4, '25.00', '100.00'],
      ['Wheel balancing', 'labour', 4, '15.00', '60.00'],
    ]);
    expect(subtotal(j)).toBe('805.80');
  });

  it('new tyres prepaid: the $30 discount shows on the callout line, and a paid job gets a note', () => {
    const j = job({
      customerValue: '775.80',
      paymentMethod: 'prepaid',
      paymentStatus: 'paid',
      tyreBrand: 'Michelin',
    });
    expect(view(j)).toEqual([
      ['Mobile callout fee (less $30.00 prepaid online discount)', 'callout', 1, '59.80', '59.80'],
      ['New tyre 205/55R16 (Michelin)', 'tyre', 4, '139.00', '556.00'],
      ['Tyre fitting', 'labour', 4, '25.00', '100.00'],
      ['Wheel balancing', 'labour', 4, '15.00', '60.00'],
      ['Paid online at booking - thank you', 'note', 1, '0.00', '0.00'],
    ]);
    expect(subtotal(j)).toBe('775.80');
  });

  it('new tyres whose remainder does not split per tyre: one tyre line of the total', () => {
    const j = job({ tyreQuantity: 3, customerValue: '500.01' });
    const tyre = buildInvoiceLines(j).find((l) => l.category === 'tyre');
    expect(tyre?.quantity).toBe(1);
    expect(tyre?.description).toBe('3 × New tyre 205/55R16');
    expect(subtotal(j)).toBe('500.01');
  });

  it('new tyres without a value yet (callback quote): price list, tyres at 0 for staff to price', () => {
    const j = job({ tyreQuantity: 2, tyreSize: null });
    expect(view(j)).toEqual([
      ['Mobile callout fee', 'callout', 1, '89.80', '89.80'],
      ['New tyre', 'tyre', 2, '0.00', '0.00'],
      ['Tyre fitting', 'labour', 2, '25.00', '50.00'],
      ['Wheel balancing', 'labour', 2, '15.00', '30.00'],
    ]);
  });

  it('new tyres valued below the fees: tyres 0 and the fees reduced, never negative', () => {
    const j = job({ tyreQuantity: 1, customerValue: '100.00' });
    const lines = buildInvoiceLines(j);
    expect(lines.every((l) => l.totalPrice.gte(0) && l.unitPrice.gte(0))).toBe(true);
    expect(subtotal(j)).toBe('100.00');
  });

  it('puncture repair: callout 89.80 + repair 40; prepaid takes $30 off the callout', () => {
    expect(view(job({ serviceType: 'puncture-repair', customerValue: '129.80' }))).toEqual([
      ['Mobile callout fee', 'callout', 1, '89.80', '89.80'],
      ['Puncture repair', 'labour', 1, '40.00', '40.00'],
    ]);
    const prepaid = job({ serviceType: 'puncture-repair', customerValue: '99.80', paymentMethod: 'prepaid' });
    expect(view(prepaid)[0]).toEqual([
      'Mobile callout fee (less $30.00 prepaid online discount)',
      'callout',
      1,
      '59.80',
      '59.80',
    ]);
    expect(subtotal(prepaid)).toBe('99.80');
    // Prepaid but valued at the full price: no discount shown.
    expect(
      subtotal(job({ serviceType: 'puncture-repair', customerValue: '129.80', paymentMethod: 'prepaid' })),
    ).toBe('129.80');
  });

  it('extra value on a fixed-price job goes to an additional services line', () => {
    expect(view(job({ serviceType: 'emergency-callout', customerValue: '150.00' }))).toEqual([
      ['Emergency callout fee', 'callout', 1, '89.80', '89.80'],
      ['Additional services', 'labour', 1, '60.20', '60.20'],
    ]);
  });

  it('battery service: one battery line, quoted on site (0 until priced, or the job value)', () => {
    expect(view(job({ serviceType: 'battery-service', tyreQuantity: null }))).toEqual([
      ['Battery Service (Quote on site)', 'battery', 1, '0.00', '0.00'],
    ]);
    expect(view(job({ serviceType: 'battery-service', customerValue: '245.00' }))).toEqual([
      ['Battery Service (Quote on site)', 'battery', 1, '245.00', '245.00'],
    ]);
  });

  it('only uses the spec categories and positive quantities', () => {
    for (const serviceType of [
      'new-tyres',
      'puncture-repair',
      'battery-service',
      'emergency-callout',
    ] as const) {
      for (const l of buildInvoiceLines(
        job({ serviceType, customerValue: '321.45', paymentMethod: 'prepaid', paymentStatus: 'paid' }),
      )) {
        expect(['callout', 'tyre', 'labour', 'battery', 'note']).toContain(l.category);
        expect(Number.isInteger(l.quantity) && l.quantity > 0).toBe(true);
        expect(l.totalPrice.toFixed(2)).toBe(l.unitPrice.mul(l.quantity).toFixed(2));
      }
    }
  });
});
