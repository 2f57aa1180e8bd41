import { parseOr400 } from '@tyres/service-kit';
import { INVALID_PRICE, jobEditBody, PRICE_TOO_LARGE, TYRE_QUANTITY } from './job-edit-schemas';

const parse = (body: unknown) => jobEditBody(new Date('2026-11-25T02:00:00Z')).safeParse(body);
const message = (body: unknown) => {
  const r = parse(body);
  return r.success ? undefined : r.error.issues[0]?.message;
};

describe('jobEditBody', () => {
  it('reads a price as an exact decimal string', () => {
    const r = parse({ customerValue: ' 189.5 ', reason: 'Battery supplied', version: 0 });
    expect(r.success && r.data.customerValue).toBe('189.50');
  });

  it.each([['-1'], ['1.005'], ['abc'], ['1e3'], ['$10'], [''], [189.5]])('refuses the price %p', (v) => {
    expect(message({ customerValue: v, reason: 'x', version: 0 })).toBe(INVALID_PRICE);
  });

  it('bounds the price by the kernel money limit (the largest amount an invoice line holds), with its own message', () => {
    expect(PRICE_TOO_LARGE).toBe('Price must be at most 99999999.99');
    const r = parse({ customerValue: '99999999.99', reason: 'Fleet contract', version: 0 });
    expect(r.success && r.data.customerValue).toBe('99999999.99');
    for (const v of ['100000000', '100000000.00', '99999999999', '123456789012345678901234567890'])
      expect(message({ customerValue: v, reason: 'x', version: 0 })).toBe(PRICE_TOO_LARGE);
  });

  it('accepts a price of 0', () => {
    const r = parse({ customerValue: '0', reason: 'Warranty job', version: 0 });
    expect(r.success && r.data.customerValue).toBe('0.00');
  });

  it('requires a reason, a version and at least one field', () => {
    expect(message({ customerValue: '1', version: 0 })).toBe('Please give a reason for the change');
    expect(message({ customerValue: '1', reason: '   ', version: 0 })).toBe(
      'Please give a reason for the change',
    );
    expect(message({ customerValue: '1', reason: 'x' })).toMatch(/^version must be/);
    expect(message({ reason: 'x', version: 0 })).toBe('Change at least one field');
  });

  it('refuses fields that cannot be edited here', () => {
    expect(() => parseOr400(jobEditBody(), { status: 'paid', reason: 'x', version: 0 })).toThrow();
  });

  it('normalises the tyre size and registration, clears blank notes', () => {
    const r = parse({
      tyreSize: '205 55 16',
      notes: '  ',
      vehicle: { make: 'Toyota', model: 'Hilux', year: 2020, registration: '1abc 234' },
      reason: 'Customer phoned',
      version: 2,
    });
    expect(r.success && r.data).toEqual({
      tyreSize: '205/55R16',
      notes: null,
      vehicle: { make: 'Toyota', model: 'Hilux', year: 2020, registration: '1ABC234' },
      reason: 'Customer phoned',
      version: 2,
    });
  });

  it('refuses an unreadable tyre size and a tyre quantity out of range', () => {
    expect(message({ tyreSize: 'big ones', reason: 'x', version: 0 })).toBe(
      'Please enter the tyre size as width/profile R rim, e.g. 205/55R16',
    );
    expect(message({ tyreQuantity: 9, reason: 'x', version: 0 })).toBe(TYRE_QUANTITY);
  });
});
