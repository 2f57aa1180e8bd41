import {
  BALANCING_FEE_PER_TYRE,
  CALLOUT_FEE,
  ESTIMATE_OTHER_SERVICE,
  ESTIMATE_PUNCTURE_REPAIR,
  FITTING_FEE_PER_TYRE,
  PREPAYMENT_DISCOUNT,
} from './constants';
import { fromCents, toCents } from './money';

/**
 * The staff booking form's estimated total (spec section 9): for new tyres (tyre price + fitting + balancing) ×
 * quantity + callout, minus the prepayment discount when prepaid, never below 0, with the tyre price from the
 * pricing call; puncture repair 129.80; other services 89.80. "0.00" when it cannot be estimated (no size yet, or
 * a size that needs a call-back quote), and the badge is then hidden.
 */
export function estimateTotal(input: {
  serviceType: string;
  quantity: number;
  tyrePrice: string | null | undefined;
  prepaid: boolean;
}): string {
  switch (input.serviceType) {
    case '':
      return '0.00';
    case 'new-tyres': {
      const tyre = toCents(input.tyrePrice ?? '');
      if (!Number.isFinite(tyre) || tyre <= 0) return '0.00';
      const perTyre = tyre + toCents(FITTING_FEE_PER_TYRE) + toCents(BALANCING_FEE_PER_TYRE);
      const total =
        perTyre * Math.max(1, Math.trunc(input.quantity || 1)) +
        toCents(CALLOUT_FEE) -
        (input.prepaid ? toCents(PREPAYMENT_DISCOUNT) : 0);
      return fromCents(Math.max(0, total));
    }
    case 'puncture-repair':
      return ESTIMATE_PUNCTURE_REPAIR;
    default:
      return ESTIMATE_OTHER_SERVICE;
  }
}
