/**
 * Money in whole cents as `bigint`: sums of any size stay exact, and nothing ever goes through a float. On the wire
 * and in events money is a string with exactly two decimals ("1234.50").
 */
export type Cents = bigint;

const MONEY = /^(-?)(\d+)\.(\d{2})$/;
/** Postgres `numeric` as text: `SUM(...)::text` may carry any number of decimals ("12.3", "7", "0.00"). */
const NUMERIC = /^(-?)(\d+)(?:\.(\d+))?$/;

/** "123.45" → 12345n. Throws on anything that is not a 2-decimal money string. */
export function parseMoney(value: string): Cents {
  const m = MONEY.exec(value);
  if (!m) throw new Error(`not a money amount: ${JSON.stringify(value)}`);
  const cents = BigInt(m[2] as string) * 100n + BigInt(m[3] as string);
  return m[1] ? -cents : cents;
}

/**
 * A Postgres numeric rendered as text (SUM over Decimal(10,2) columns) → cents. Money columns have 2 decimals, so
 * their sums do too; more decimals than that would mean a non-money value and are refused rather than rounded.
 */
export function parseNumeric(value: string | null | undefined): Cents {
  if (value === null || value === undefined || value === '') return 0n;
  const m = NUMERIC.exec(value.trim());
  if (!m) throw new Error(`not a numeric value: ${JSON.stringify(value)}`);
  const decimals = (m[3] ?? '').replace(/0+$/, '');
  if (decimals.length > 2) throw new Error(`more than 2 decimals in a money sum: ${value}`);
  const cents = BigInt(m[2] as string) * 100n + BigInt(decimals.padEnd(2, '0'));
  return m[1] ? -cents : cents;
}

/** 12345n → "123.45"; -5n → "-0.05"; never "-0.00". */
export function formatMoney(cents: Cents): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = abs / 100n;
  const frac = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${frac}`;
}

/** Canonical form of a money string ("007.50" → "7.50", "-0.00" → "0.00"). */
export const normaliseMoney = (value: string): string => formatMoney(parseMoney(value));

/** numerator / denominator rounded to the nearest integer, halves away from zero (denominator ≠ 0). */
export function divideRoundHalfAwayFromZero(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('division by zero');
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (2n * n + d) / (2n * d); // floor((n / d) + 1/2) for non-negative values
  return negative ? -q : q;
}

/**
 * `part` as a percentage of `whole`, two decimals, rounded half away from zero, as a string ("35.29", "-12.50").
 * A zero `whole` has no meaningful ratio: the answer is "0.00" (never a division by zero, never NaN/Infinity).
 */
export function percentage(part: Cents, whole: Cents): string {
  if (whole === 0n) return '0.00';
  // Hundredths of a percent: part / whole × 100 × 100.
  return formatMoney(divideRoundHalfAwayFromZero(part * 10_000n, whole));
}

export const sumCents = (values: Iterable<Cents>): Cents => {
  let total = 0n;
  for (const v of values) total += v;
  return total;
};
