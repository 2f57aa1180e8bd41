import {
  BALANCING_FEE_PER_TYRE,
  BATTERY_SERVICE_FEE,
  CALLOUT_FEE,
  FITTING_FEE_PER_TYRE,
  PREPAYMENT_DISCOUNT,
  PUNCTURE_REPAIR_FEE,
} from './constants';
import { cents, centsOf, moneyString } from './money';

/**
 * The staff booking form's estimated total: what the booking service will book for these answers (its pricing,
 * services/booking/src/domain/pricing.ts, issue 12 "the estimate matches what is booked"):
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
}): string {
  let subtotal: bigint;
  switch (input.serviceType) {
    case 'new-tyres': {
      const tyre = centsOf(input.tyrePrice);
      if (tyre === null || tyre <= 0n) return '0.00';
      const quantity = BigInt(Math.max(1, Math.trunc(input.quantity || 1)));
      const perTyre = tyre + cents(FITTING_FEE_PER_TYRE) + cents(BALANCING_FEE_PER_TYRE);
      subtotal = perTyre * quantity + cents(CALLOUT_FEE);
      break;
    }
    case 'puncture-repair':
      subtotal = cents(PUNCTURE_REPAIR_FEE) + cents(CALLOUT_FEE);
      break;
    case 'battery-service':
      subtotal = cents(BATTERY_SERVICE_FEE);
      break;
    case 'emergency-callout':
      subtotal = cents(CALLOUT_FEE);
      break;
    default:
      return '0.00';
  }
  const discount = input.prepaid && subtotal > 0n ? cents(PREPAYMENT_DISCOUNT) : 0n;
  const total = subtotal - discount;
  return moneyString(total > 0n ? total : 0n);
}
