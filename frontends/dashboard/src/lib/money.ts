/**
 * Money on the client. The wire carries 2-decimal strings; arithmetic is done in whole cents (integers), never
 * on floating-point dollars, and the server stays authoritative for anything it stores.
 */

/** Cents of a money string or number ("12.5" -> 1250, 12.345 -> 1235); NaN when it is not a number. */
export function toCents(value: string | number | null | undefined): number {
  if (value === null || value === undefined || value === '') return Number.NaN;
  const text = typeof value === 'number' ? value.toFixed(6) : value.trim();
  const match = /^(-)?(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return Number.NaN;
  const sign = match[1] ? -1 : 1;
  const whole = Number(match[2] || '0');
  const fraction = (match[3] ?? '').padEnd(3, '0');
  // Round half away from zero on the third decimal.
  const cents = whole * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
  return sign * cents;
}

/** "1234.50" from 123450 cents. */
export function fromCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Sum of money values, as a 2-decimal string. */
export function sumMoney(values: readonly (string | number | null | undefined)[]): string {
  return fromCents(
    values.reduce<number>((sum, v) => sum + (Number.isFinite(toCents(v)) ? toCents(v) : 0), 0),
  );
}

/** Integer division rounded half up (for non-negative numerators). */
function divRound(numerator: number, denominator: number): number {
  const q = Math.floor(Math.abs(numerator) / denominator);
  const r = Math.abs(numerator) - q * denominator;
  const rounded = r * 2 >= denominator ? q + 1 : q;
  return numerator < 0 ? -rounded : rounded;
}

/** Purchase invoices and expenses: the GST inside an inc-GST total is total / 11 (to the cent). */
export function gstInclusive(totalIncGst: string | number): { gst: string; exGst: string } {
  const total = toCents(totalIncGst);
  if (!Number.isFinite(total)) return { gst: '0.00', exGst: '0.00' };
  const gst = divRound(total, 11);
  return { gst: fromCents(gst), exGst: fromCents(total - gst) };
}

/** Customer invoices: GST is 10% of the line-item sum, added on top. */
export function gstOnTop(subtotal: string | number): { gst: string; total: string } {
  const sub = toCents(subtotal);
  if (!Number.isFinite(sub)) return { gst: '0.00', total: '0.00' };
  const gst = divRound(sub, 10);
  return { gst: fromCents(gst), total: fromCents(sub + gst) };
}

/** Line total: quantity × unit price to 2 decimals. */
export function lineTotal(quantity: number, unitPrice: string | number): string {
  const price = toCents(unitPrice);
  if (!Number.isFinite(price) || !Number.isFinite(quantity)) return '0.00';
  return fromCents(Math.round(quantity) * price);
}

const AUD = new Intl.NumberFormat('en-AU', { style: 'currency', currency: 'AUD', minimumFractionDigits: 2 });

/** "$1,234.50" (money is always shown with 2 decimals). Unparseable input shows as $0.00. */
export function formatMoney(value: string | number | null | undefined): string {
  const cents = toCents(value ?? 0);
  return AUD.format((Number.isFinite(cents) ? cents : 0) / 100);
}
