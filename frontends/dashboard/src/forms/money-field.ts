import { z } from 'zod';
import { parseMoneyInput, splitInclusive, type InclusiveSplit } from '@tyres/kernel';
import { moneyString } from '../lib/money';

/** Messages of spec section 5 ("Invoices and expenses", "Stored data rules"). */
export const TOTAL_NOT_NUMBER = 'Total must be a valid number';
export const TOTAL_NOT_POSITIVE = 'Total must be greater than $0';
export const NOT_DECIMAL = 'Must be a valid decimal amount';

/** An inc-GST total typed as text: a finite number, above 0, with at most 2 decimals. */
export const totalIncGstField = z.string().superRefine((raw, ctx) => {
  const value = raw.trim().replace(/^\$/, '').replace(/,/g, '');
  const n = Number(value);
  if (value === '' || !Number.isFinite(n)) {
    ctx.addIssue({ code: 'custom', message: TOTAL_NOT_NUMBER });
    return;
  }
  if (n <= 0) {
    ctx.addIssue({ code: 'custom', message: TOTAL_NOT_POSITIVE });
    return;
  }
  if (!/^\d+(\.\d{1,2})?$/.test(value)) ctx.addIssue({ code: 'custom', message: NOT_DECIMAL });
});

/** The money string to send ("$1,234.5" -> "1234.50"). Only call on a value that passed totalIncGstField. */
export function normaliseMoneyInput(raw: string): string {
  const parsed = parseMoneyInput(raw);
  return moneyString(parsed.ok ? parsed.cents : 0n);
}

/**
 * A typed GST-inclusive total split as billing stores it (the kernel's splitInclusive): GST = total ÷ 11, or none
 * when the purchase or expense is GST-free. Null until the text is an amount above $0.
 */
export function gstPreview(raw: string | null | undefined, gstFree: boolean): InclusiveSplit | null {
  const parsed = parseMoneyInput(raw ?? '');
  if (!parsed.ok || parsed.cents <= 0n) return null;
  return splitInclusive(parsed.cents, gstFree);
}
