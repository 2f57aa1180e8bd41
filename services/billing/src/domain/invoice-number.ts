/** Customer invoice numbers: INV- and the series value, zero-padded to 6 digits (INV-000123; INV-1234567 beyond). */
export const INVOICE_NUMBER_PREFIX = 'INV-';
export const INVOICE_NUMBER_PATTERN = /^INV-\d{6,}$/;

export function formatInvoiceNumber(value: bigint | number): string {
  const n = BigInt(value);
  if (n < 1n) throw new RangeError(`Invoice numbers start at 1, got ${n}`);
  return `${INVOICE_NUMBER_PREFIX}${n.toString().padStart(6, '0')}`;
}
