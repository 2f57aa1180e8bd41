import { z } from 'zod';

/** Money on the wire: a decimal string with exactly two places ("123.45", "-5.00"). Never a float. */
export const MONEY_PATTERN = /^-?\d+\.\d{2}$/;

export const money = z
  .string()
  .regex(MONEY_PATTERN, 'Must be a money string with exactly 2 decimals, e.g. "123.45"');
export type Money = z.infer<typeof money>;

/**
 * Formats a decimal value as a money string without going through floating point.
 * Accepts a Prisma/decimal.js Decimal (anything with `toFixed`), a bigint number of cents, or a decimal string
 * with at most 2 places ("12", "12.5", "-0.05"). Numbers are refused on purpose: convert at the edge.
 */
export function toMoney(value: string | bigint | { toFixed(digits: number): string }): Money {
  if (typeof value === 'bigint') {
    const negative = value < 0n;
    const abs = negative ? -value : value;
    const units = abs / 100n;
    const cents = (abs % 100n).toString().padStart(2, '0');
    return `${negative ? '-' : ''}${units}.${cents}`;
  }
  if (typeof value === 'string') {
    const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
    if (!m) throw new RangeError(`Not a decimal with at most 2 places: ${JSON.stringify(value)}`);
    const [, sign = '', units = '0', fraction = ''] = m;
    return `${sign}${units}.${fraction.padEnd(2, '0')}`;
  }
  const fixed = value.toFixed(2);
  if (!MONEY_PATTERN.test(fixed)) throw new RangeError(`Not a money value: ${fixed}`);
  return fixed;
}

/** Money string -> integer cents, for exact arithmetic. */
export function moneyToCents(value: Money): bigint {
  if (!MONEY_PATTERN.test(value)) throw new RangeError(`Not a money string: ${JSON.stringify(value)}`);
  const negative = value.startsWith('-');
  const [units = '0', cents = '00'] = (negative ? value.slice(1) : value).split('.');
  const abs = BigInt(units) * 100n + BigInt(cents);
  return negative ? -abs : abs;
}
