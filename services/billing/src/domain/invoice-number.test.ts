import { formatInvoiceNumber, INVOICE_NUMBER_PATTERN } from './invoice-number';

describe('invoice numbers', () => {
  it('formats the series value as INV- and six digits', () => {
    expect(formatInvoiceNumber(1)).toBe('INV-000001');
    expect(formatInvoiceNumber(123)).toBe('INV-000123');
    expect(formatInvoiceNumber(999999n)).toBe('INV-999999');
    expect(formatInvoiceNumber(1234567n)).toBe('INV-1234567');
    expect(INVOICE_NUMBER_PATTERN.test(formatInvoiceNumber(42))).toBe(true);
  });

  it('refuses values below 1', () => {
    expect(() => formatInvoiceNumber(0)).toThrow(RangeError);
  });

  it('sorts as text in issue order up to 999999', () => {
    const numbers = [9, 10, 99, 100, 123456].map((n) => formatInvoiceNumber(n));
    expect([...numbers].sort()).toEqual(numbers);
  });
});
