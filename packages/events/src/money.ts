import { formatMoney, MONEY_PATTERN, toCents } from '@tyres/kernel';
import { z } from 'zod';

/** Money on the wire: the kernel's rule (a decimal string with exactly two places), re-exported for contracts. */
export { MONEY_PATTERN };

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
  if (typeof value === 'bigint') return formatMoney(value);
  if (typeof value === 'string') return formatMoney(toCents(value));
  const fixed = value.toFixed(2);
  if (!MONEY_PATTERN.test(fixed)) throw new RangeError(`Not a money value: ${fixed}`);
  return fixed;
}

/** Money string -> integer cents, for exact arithmetic. Only the wire format (exactly two places) is accepted. */
export function moneyToCents(value: Money): bigint {
  if (!MONEY_PATTERN.test(value)) throw new RangeError(`Not a money string: ${JSON.stringify(value)}`);
  return toCents(value);
}
