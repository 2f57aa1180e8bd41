import { isServiceType, PRICE_LIST, priceQuote, type QuoteFees } from '@tyres/kernel';
import { centsOf, moneyString } from './money';

/**
 * The staff booking form's estimated total: what the booking service will book for these answers (its pricing,
 * the kernel's priceQuote, issue 12 and 13 "the estimate matches what is booked"):
 *
 *   new-tyres:          (tyre price + fitting 25 + balancing 15) × quantity + callout 89.80, with the tyre price
 *                       from the pricing call (no price: a call-back quote, nothing estimated)
 *   puncture-repair:    40 + callout 89.80 = 129.80
 *   battery-service:    0 (quoted on site), so no estimate is shown
 *   emergency-callout:  callout 89.80
 *   prepaid:            less the 30 discount when there is something to discount; never below 0
 *
 * "0.00" when nothing can be estimated; the badge is then hidden (spec: shown when the total is above 0).
 */
export function estimateTotal(input: {
  serviceType: string;
  quantity: number;
  tyrePrice: string | null | undefined;
  prepaid: boolean;
  /** The price list in force (GET /api/pricing, money strings); the code's list while it loads. */
  fees?: Partial<Record<keyof QuoteFees, string>> | null | undefined;
}): string {
  if (!isServiceType(input.serviceType)) return '0.00';
  let tyrePriceCents: bigint | null = null;
  if (input.serviceType === 'new-tyres') {
    tyrePriceCents = centsOf(input.tyrePrice);
    if (tyrePriceCents === null || tyrePriceCents <= 0n) return '0.00';
  }
  const quote = priceQuote(
    {
      serviceType: input.serviceType,
      quantity: Math.max(1, Math.trunc(input.quantity || 1)),
      tyrePriceCents,
      prepaid: input.prepaid,
    },
    feesOf(input.fees),
  );
  return moneyString(quote?.total ?? 0n);
}

/** The fee schedule from GET /api/pricing's money strings; any fee missing or unreadable keeps the code's value. */
export function feesOf(fees: Partial<Record<keyof QuoteFees, string>> | null | undefined): QuoteFees {
  const out: QuoteFees = { ...PRICE_LIST };
  if (!fees) return out;
  for (const key of [
    'calloutFee',
    'punctureRepair',
    'prepaidDiscount',
    'fittingPerTyre',
    'balancingPerTyre',
  ] as const) {
    const c = centsOf(fees[key]);
    if (c !== null && c >= 0n) out[key] = c;
  }
  return out;
}
