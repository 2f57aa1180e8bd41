/**
 * Money on the dashboard: the kernel's rules (@tyres/kernel, integer cents as bigint, half-up rounding) read from
 * and shown for the screens. The wire carries 2-decimal strings; nothing here works on floating-point dollars, and
 * GST, surcharge and invoice totals come only from the kernel (the same code the services run).
 */
import { formatAud, formatMoney as wireMoney, parseMoneyInput, type Cents } from '@tyres/kernel';

/** Cents of a money value (the server's "129.80", a typed "$1,234.5", a number); null when it is not money. */
export function centsOf(value: unknown): Cents | null {
  if (typeof value === 'bigint') return value;
  if (value === null || value === undefined || value === '') return null;
  const parsed = parseMoneyInput(value);
  return parsed.ok ? parsed.cents : null;
}

/** Cents, reading what is not money as 0 (an answer that left a field out shows $0.00, never NaN). */
export function cents(value: unknown): Cents {
  return centsOf(value) ?? 0n;
}

/** "1234.50": money as the API takes it. */
export function moneyString(value: Cents): string {
  return wireMoney(value);
}

/** Sum of money values in cents (what is not money counts 0). */
export function sumCents(values: readonly unknown[]): Cents {
  return values.reduce<Cents>((sum, v) => sum + cents(v), 0n);
}

/** "$1,234.50" (money is always shown with 2 decimals). What is not money shows as $0.00. */
export function formatMoney(value: unknown): string {
  return formatAud(cents(value));
}
