/**
 * What reporting needs of money beyond the kernel's rules (@tyres/kernel: cents as bigint, formatting, GST,
 * rounding): reading Postgres sums and computing shares. Amounts stay integer cents (`bigint`) from the event to
 * the answer; nothing goes through a float.
 */
import { divideRounded, formatMoney, toCents, type Cents } from '@tyres/kernel';

/** Postgres `numeric` as text: `SUM(...)::text` may carry any number of decimals ("12.3", "7", "0.00", "1.2300"). */
const NUMERIC = /^(-?\d+)(?:\.(\d*?)0*)?$/;

/**
 * A Postgres numeric rendered as text (SUM over Decimal(10,2) columns) → cents. Money columns have 2 decimals, so
 * their sums do too; more decimals than that would mean a non-money value and are refused rather than rounded.
 */
export function parseNumeric(value: string | null | undefined): Cents {
  if (value === null || value === undefined || value === '') return 0n;
  const m = NUMERIC.exec(value.trim());
  if (!m) throw new Error(`not a numeric value: ${JSON.stringify(value)}`);
  const decimals = m[2] ?? '';
  if (decimals.length > 2) throw new Error(`more than 2 decimals in a money sum: ${value}`);
  return toCents(decimals ? `${m[1]}.${decimals}` : (m[1] as string));
}

/**
 * `part` as a percentage of `whole`, two decimals, rounded half away from zero, as a string ("35.29", "-12.50").
 * A zero `whole` has no meaningful ratio: the answer is "0.00" (never a division by zero, never NaN/Infinity).
 */
export function percentage(part: Cents, whole: Cents): string {
  if (whole === 0n) return '0.00';
  // Hundredths of a percent: part / whole × 100 × 100 (the kernel divides by a positive number: move the sign up).
  const hundredths =
    whole < 0n ? divideRounded(-part * 10_000n, -whole) : divideRounded(part * 10_000n, whole);
  return formatMoney(hundredths);
}
