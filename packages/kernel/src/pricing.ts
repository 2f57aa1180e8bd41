/**
 * The price list and the quote arithmetic (product spec section 9), written once for the booking service's quote,
 * billing's generated invoice lines, the staff form's estimate and the public site's displayed prices (issue 13).
 * Integer cents (bigint); every price is GST-inclusive, what the customer pays.
 *
 *   new-tyres:         tyres (price x qty) + fitting (25 x qty) + balancing (15 x qty) + callout 89.80
 *   puncture-repair:   40 + callout 89.80
 *   battery-service:   one line "Battery Service (Quote on site)" at 0
 *   emergency-callout: callout 89.80
 *   discount 30 only when prepaid and subtotal > 0; total = max(0, subtotal - discount).
 *
 * Tyre supply prices per size are not here: they come from the booking service's tyre-pricing table.
 */
import type { ServiceType } from './booking/services';
import { formatAud, type Cents } from './money';

/** Section 9, in cents. */
export const PRICE_LIST = Object.freeze({
  calloutFee: 8980n,
  punctureRepair: 4000n,
  prepaidDiscount: 3000n,
  fittingPerTyre: 2500n,
  balancingPerTyre: 1500n,
  /** Battery service is quoted on site: booked at 0. */
  batteryService: 0n,
  /** "New tyres from $139" on the site: the cheapest tyre in the seeded catalogue. */
  newTyresBasePrice: 13900n,
} as const satisfies Record<string, Cents>);

/**
 * The fees a quote uses (issue 19): the booking service's price list in force at quote time (admin-editable with an
 * effective-from date); PRICE_LIST is its seed and the default.
 */
export interface QuoteFees {
  calloutFee: Cents;
  punctureRepair: Cents;
  prepaidDiscount: Cents;
  fittingPerTyre: Cents;
  balancingPerTyre: Cents;
}

/** One line of a quote. */
export interface QuoteLine {
  description: string;
  cents: Cents;
}

/** A priced quote: its lines, their sum, the prepaid discount and what is paid. */
export interface PricedQuote {
  lines: QuoteLine[];
  subtotal: Cents;
  discount: Cents;
  total: Cents;
  /** Whether the prepaid discount applied (prepaid requested and something to discount). */
  discounted: boolean;
}

export interface QuoteRequest {
  serviceType: ServiceType;
  /** Tyres to fit (new tyres only), a whole number. */
  quantity: number;
  /** Supply price per tyre in cents; null when the size has no price. */
  tyrePriceCents: Cents | null;
  /** The normalised size ("205/55R16") named on the tyre line. */
  tyreSize?: string | null;
  prepaid: boolean;
}

/**
 * The quote for a service, or null when it needs a call-back: new tyres without a supply price. Unknown service
 * types (from untyped callers) are also null rather than a made-up price.
 */
export function priceQuote(input: QuoteRequest, fees: QuoteFees = PRICE_LIST): PricedQuote | null {
  const lines: QuoteLine[] = [];
  switch (input.serviceType) {
    case 'new-tyres': {
      if (input.tyrePriceCents === null) return null;
      const qty = BigInt(input.quantity);
      const tyres = input.quantity === 1 ? '1 tyre' : `${input.quantity} tyres`;
      const size = input.tyreSize ? `${input.tyreSize} ` : '';
      lines.push({ description: `${size}tyres (${tyres})`, cents: input.tyrePriceCents * qty });
      lines.push({ description: `Fitting (${tyres})`, cents: fees.fittingPerTyre * qty });
      lines.push({ description: `Balancing (${tyres})`, cents: fees.balancingPerTyre * qty });
      lines.push({ description: 'Callout fee', cents: fees.calloutFee });
      break;
    }
    case 'puncture-repair':
      lines.push({ description: 'Puncture repair', cents: fees.punctureRepair });
      lines.push({ description: 'Callout fee', cents: fees.calloutFee });
      break;
    case 'battery-service':
      lines.push({ description: 'Battery Service (Quote on site)', cents: PRICE_LIST.batteryService });
      break;
    case 'emergency-callout':
      lines.push({ description: 'Emergency callout fee', cents: fees.calloutFee });
      break;
    default:
      return null;
  }
  const subtotal = lines.reduce((sum, l) => sum + l.cents, 0n);
  return { lines, subtotal, ...applyPrepaidDiscount(subtotal, input.prepaid, fees.prepaidDiscount) };
}

/**
 * Spec section 9: the $30 prepaid discount applies only to a priced quote (subtotal above zero), and the total never
 * goes below zero.
 */
export function applyPrepaidDiscount(
  subtotal: Cents,
  prepaid: boolean,
  prepaidDiscount: Cents = PRICE_LIST.prepaidDiscount,
): { discount: Cents; total: Cents; discounted: boolean } {
  const discounted = prepaid && subtotal > 0n;
  const discount = discounted ? prepaidDiscount : 0n;
  const remaining = subtotal - discount;
  // Stryker disable next-line EqualityOperator: at exactly zero both branches give 0 (an equivalent mutant).
  return { discount, total: remaining > 0n ? remaining : 0n, discounted };
}

/** A list price as marketing copy shows it: "$40" for whole dollars, "$89.80" otherwise, "$1,234" with commas. */
export function formatListPrice(cents: Cents): string {
  return formatAud(cents).replace(/\.00$/, '');
}
